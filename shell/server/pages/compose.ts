import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { PINS_GLOBAL } from '@site/contracts';
import { scriptJson } from '../control-plane';

/** What goes into the template for one page. */
export interface PageParts {
  /** The page's head tags. */
  head: string;
  /** The markup inside `#root`. */
  html: string;
  /** A remote's scripts the page will load, to preload. */
  scripts: string[];
  /**
   * The pins of the groups' files the page may load, by URL: a group's page has its own group's,
   * a shell page every group's (a visitor may enter any group from it). Its preloads carry them, as
   * the scripts that load the files will.
   */
  pins?: Record<string, string>;
  status: number;
  /** The page's path as its route names it. */
  path: string;
  /** Whether a remote owns the page (its scripts need the federation runtime). */
  remote: boolean;
  /**
   * The page's route as JSON safe in a script element, for a group's page the embedded manifest
   * does not name (past the group's leading pages).
   */
  route?: string;
}

/** The shell's built page template, prepared once per shell build. */
export interface ShellTemplate {
  /** Changes with every shell build: part of every cached page's key. */
  id: string;
  /** The template split where the page's head and its markup go. */
  before: string;
  between: string;
  after: string;
  /** The shell's own scripts, in order (taken out of the template: see `startScripts`). */
  scripts: string[];
  /** Files of the shell's named chunk groups (`federation`, `page-about`, ...). */
  chunks: Record<string, string[]>;
  /** The shell's pages' share cards by path (`*`: the 404 page), relative to the site's root. */
  cards: Record<string, string>;
}

/** Where the page's head tags go (a placeholder element, kept by any HTML minifier). */
const HEAD_MARKER = /<meta name="?site-head"?\s*\/?>/;
/** Where the page's markup goes. */
const ROOT_MARKER = /<div id="?root"?>(?=<\/div>)/;

/**
 * Reads the shell's built `index.html` and prepares it: its style sheets inlined (the first paint
 * then waits for no request but the page), its script tags taken out to be started after the first
 * paint, and split at the markers where each page's head and markup go.
 */
export async function loadShellTemplate(shellDist: string): Promise<ShellTemplate> {
  const publicDir = path.join(shellDist, 'public');
  const source = await fs.readFile(path.join(publicDir, 'index.html'), 'utf8');
  const chunksText = await fs.readFile(path.join(shellDist, 'server', 'chunks.json'), 'utf8');
  let html = source;
  for (const [tag] of source.matchAll(/<link\b[^>]*\brel="?stylesheet"?[^>]*>/g)) {
    const href = /\bhref="?([^"\s>]+)"?/.exec(tag)?.[1];
    if (!href?.startsWith('/')) continue;
    const css = await fs.readFile(path.join(publicDir, href), 'utf8');
    html = html.replace(tag, `<style>${css.replace(/<\/style/gi, '<\\/style')}</style>`);
  }
  const scripts: string[] = [];
  html = html.replace(/<script\b[^>]*\bsrc="?([^"\s>]+)"?[^>]*><\/script>/g, (_, src: string) => {
    scripts.push(src);
    return '';
  });
  // Any title or description in the template gives way to the page's own.
  html = html
    .replace(/<title>[\s\S]*?<\/title>/, '')
    .replace(/<meta\s+name="?description"?[^>]*>/, '');
  const head = HEAD_MARKER.exec(html);
  const root = ROOT_MARKER.exec(html);
  if (!head || !root || root.index < head.index) {
    throw new Error(
      `${publicDir}/index.html lacks the site-head meta element or the #root element`,
    );
  }
  const before = html.slice(0, head.index);
  const between = html.slice(head.index + head[0].length, root.index + root[0].length);
  const after = html.slice(root.index + root[0].length);
  const chunks = JSON.parse(chunksText) as Record<string, string[]>;
  let cards: Record<string, string> = {};
  try {
    cards = JSON.parse(
      await fs.readFile(path.join(publicDir, 'share', 'cards.json'), 'utf8'),
    ) as Record<string, string>;
  } catch {
    // A development build makes no cards: pages then go without an image.
  }
  const id = createHash('sha256').update(source).update(chunksText).digest('hex').slice(0, 12);
  return { id, before, between, after, scripts, chunks, cards };
}

/**
 * Runs in the page: holds the pins of the groups' files the page may load (@site/contracts
 * PINS_GLOBAL), and once the first contentful paint is on screen, preloads `preload` (a group's
 * file with its pin, so the script that loads it later finds it) and adds `scripts` in order. The page's text is all in the HTML, so it paints first and the scripts
 * follow, all requested together instead of one after another. Where paint timing is missing it
 * waits for the first frame, and a timer stands in where no paint comes (a background tab).
 * Plain JavaScript in a string, sent as it is written.
 */
const START_SCRIPTS = `function (start) {
  var scripts = start.scripts, preload = start.preload, pins = start.pins;
  self.${PINS_GLOBAL} = pins;
  var started = false;
  function go() {
    if (started) return;
    started = true;
    preload.forEach(function (href) {
      var link = document.createElement('link');
      link.rel = 'preload';
      link.as = 'script';
      link.href = href;
      if (pins[href]) {
        link.integrity = pins[href];
        link.crossOrigin = 'anonymous';
      }
      document.head.append(link);
    });
    scripts.forEach(function (src) {
      var script = document.createElement('script');
      script.src = src;
      script.async = false;
      document.body.append(script);
    });
  }
  var types = PerformanceObserver.supportedEntryTypes || [];
  if (types.indexOf('paint') !== -1) {
    new PerformanceObserver(function (list, observer) {
      if (!list.getEntriesByName('first-contentful-paint').length) return;
      observer.disconnect();
      setTimeout(go);
    }).observe({ type: 'paint', buffered: true });
  } else {
    requestAnimationFrame(function () { setTimeout(go); });
  }
  setTimeout(go, 2000);
}`.replace(/\n\s*/g, ' ');

/** The shell's chunks a page needs beyond the shell's entry: its lazy page, or the federation runtime. */
function shellChunksFor(template: ShellTemplate, page: PageParts): string[] {
  const group = page.remote
    ? 'federation'
    : page.status === 404
      ? 'page-not-found'
      : `page-${page.path.slice(1) || 'home'}`;
  return (template.chunks[group] ?? []).filter((f) => f.endsWith('.js')).map((f) => `/${f}`);
}

/** Where a page names what the loader starts: `{ scripts, preload }` as JSON. */
export const START_ELEMENT = 'site-start';

/**
 * The one inline script of every page, the same on all of them (what it starts is data beside it),
 * so the Content-Security-Policy allows it by its hash (pages/policy.ts) and no other inline
 * script runs.
 */
export const LOADER_SCRIPT = `(${START_SCRIPTS})(JSON.parse(document.getElementById('${START_ELEMENT}').textContent))`;

/**
 * The whole page: the template with the page's head, its server-rendered markup, the manifest it
 * was rendered with (so the client builds the same routes and navigation) and the script starter.
 */
export function composePage(
  template: ShellTemplate,
  page: PageParts,
  /** The manifest, as JSON safe inside a script element. */
  manifest: string,
): string {
  const preload = [...shellChunksFor(template, page), ...page.scripts];
  const start = scriptJson({ scripts: template.scripts, preload, pins: page.pins ?? {} });
  const loader = `<script type="application/json" id="${START_ELEMENT}">${start}</script><script>${LOADER_SCRIPT}</script>`;
  const route =
    page.route === undefined
      ? ''
      : `<script type="application/json" id="site-route">${page.route}</script>`;
  const data = `${route}<script type="application/json" id="site-manifest">${manifest}</script>${loader}`;
  const end = template.after.lastIndexOf('</body>');
  const after =
    end === -1
      ? `${template.after}${data}`
      : `${template.after.slice(0, end)}${data}${template.after.slice(end)}`;
  return `${template.before}${page.head}${template.between}${page.html}${after}`;
}
