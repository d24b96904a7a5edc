/**
 * What the browser tests read of a page: in its served HTML (no browser), and in the browser once
 * the client has taken it over (its layout at a width, its picture, whether it was hydrated).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { SITE_REMOTES } from '@site/contracts/site';

/** Text of the markup with its entities decoded, as the browser shows it. */
export function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&#x27;/g, "'")
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&');
}

/** The `<title>` of a page's HTML, as the browser reads it (the markup's entities decoded). */
export function servedTitle(html: string): string {
  return decodeEntities(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '');
}

/** The content of the `<meta>` named (or with the property) `key`, undefined when there is none. */
export function servedMeta(html: string, key: string): string | undefined {
  const content = new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`).exec(html)?.[1];
  return content === undefined ? undefined : decodeEntities(content);
}

/** The text of the first `<h1>` of the HTML, its tags dropped. */
export function servedHeading(html: string): string | undefined {
  const inner = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1];
  return inner === undefined ? undefined : decodeEntities(inner.replace(/<[^>]*>/g, '')).trim();
}

/**
 * The words of the page's `<main>` as a crawler without JavaScript reads them: its text, without
 * scripts, styles and drawings.
 */
export function servedMainWords(html: string): number {
  const main = /<main[^>]*>([\s\S]*)<\/main>/.exec(html)?.[1] ?? '';
  const text = main
    .replace(/<(script|style|svg|template)\b[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]*>/g, ' ');
  return decodeEntities(text).split(/\s+/).filter(Boolean).length;
}

/** The `<a>` links of the `<nav>` labelled `label`, as [href, text]. */
export function servedNavLinks(html: string, label: string): [string, string][] {
  const nav = new RegExp(`<nav[^>]*aria-label="${label}"[^>]*>([\\s\\S]*?)</nav>`).exec(html)?.[1];
  return [...(nav ?? '').matchAll(/<a [^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g)].map((m) => [
    m[1]!,
    decodeEntities(m[2]!.replace(/<[^>]*>/g, '')).trim(),
  ]);
}

/**
 * Whether a service page's content has accordions: a group draws each page from
 * `src/content/<last path segment, lower case>.ts`. The page's test then expects it to show them.
 */
export function hasAccordions(page: string): boolean {
  const remote = SITE_REMOTES.find((r) => r.prefixes.some((p) => page.startsWith(`${p}/`)));
  if (!remote) return false;
  const module = page.split('/').pop()!.toLowerCase();
  const file = path.join(__dirname, '..', '..', remote.folder, 'src', 'content', `${module}.ts`);
  return readFileSync(file, 'utf8').includes("kind: 'accordion'");
}

/**
 * Watches, from before the page's first byte, what the client does to the HTML it adopts: layout
 * shifts (without input), whether the server's heading is the one the client goes on to use, and
 * whether the root was ever emptied. Read with `takeOverResult`.
 */
export async function watchTakeOver(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __cls: number; __emptyRoot: boolean; __h1: unknown };
    w.__cls = 0;
    w.__emptyRoot = false;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
      })[]) {
        if (!entry.hadRecentInput) w.__cls += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
    document.addEventListener('DOMContentLoaded', () => {
      w.__h1 = document.querySelector('main h1');
      new MutationObserver(() => {
        if (!document.querySelector('#root main h1')) w.__emptyRoot = true;
      }).observe(document, { childList: true, subtree: true });
    });
  });
}

/** What `watchTakeOver` saw so far. */
export const takeOverResult = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __cls: number; __emptyRoot: boolean; __h1: unknown };
    return {
      hadHeading: w.__h1 !== null,
      sameHeading: w.__h1 === document.querySelector('main h1'),
      cls: w.__cls,
      emptyRoot: w.__emptyRoot,
    };
  });

/**
 * The page's picture as laid out: its box, the box of what holds it, and whether it can be cut
 * (`slice`), or null when the page shows none at this width.
 */
export const picture = (page: Page) =>
  page.evaluate(() => {
    const svg = document.querySelector<SVGSVGElement>('.hero__art svg, .not-found__art svg');
    if (!svg || !svg.checkVisibility()) return null;
    const box = svg.getBoundingClientRect();
    const frame = svg.parentElement!.getBoundingClientRect();
    const [, , w, h] = (svg.getAttribute('viewBox') ?? '0 0 1 1').split(' ').map(Number);
    return {
      ratio: box.width / box.height,
      drawn: w! / h!,
      cut: /slice/.test(svg.getAttribute('preserveAspectRatio') ?? ''),
      inside:
        box.top >= frame.top - 1 &&
        box.bottom <= frame.bottom + 1 &&
        box.left >= 0 &&
        box.right <= document.documentElement.clientWidth + 1,
    };
  });

/**
 * Elements cut by the viewport's right or left edge (the page would scroll sideways). One placed
 * wholly off to the left is hidden on purpose (the contact form's trap field), not overflowing.
 */
export const overflowing = (page: Page) =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((el) => {
        const box = el.getBoundingClientRect();
        if (box.width === 0 || el.closest('.visually-hidden, .skip-link, [hidden]')) return false;
        return box.right > width + 1 || (box.left < -1 && box.right > 0);
      })
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`.slice(0, 80));
  });

/** How far the page scrolls sideways at its current width, in CSS pixels (0 or less: not at all). */
export const sidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/**
 * Resizes the page and waits until its layout is the new width's: the window reports the width,
 * and the page's height has held for two frames. Chromium applies a resize a frame or more after
 * it is asked for, so a height read at once can still be the old width's.
 */
export async function resizeSettled(page: Page, size: { width: number; height: number }) {
  await page.setViewportSize(size);
  const frame = () =>
    page.evaluate(
      () =>
        new Promise<{ width: number; height: number }>((resolve) =>
          requestAnimationFrame(() =>
            requestAnimationFrame(() =>
              resolve({
                width: window.innerWidth,
                height: document.documentElement.scrollHeight,
              }),
            ),
          ),
        ),
    );
  let last = await frame();
  for (let tries = 0; tries < 100; tries++) {
    const now = await frame();
    if (now.width === size.width && last.width === size.width && now.height === last.height) return;
    last = now;
  }
  throw new Error(`the page did not settle at ${size.width} px: ${JSON.stringify(last)}`);
}
