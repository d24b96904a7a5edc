/**
 * Every GET and HEAD that no other route answers: a page of the site as the request's view shows
 * it, else one of the shell's files, else the 404 page (pages/answer.ts does the HTTP). A page of a
 * preview is composed from the parts it shares with the live site, with the bar that says what it
 * shows, kept here for the next browser previewing the same versions, and kept out of shared
 * caches and search engines.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { NOT_FOUND_PATH } from './composer';
import { pageRoutes } from './answer';
import { ComposedPage } from './cache';
import { previewBar } from '../previews/preview';
import { PREVIEW_HEADERS } from './seo-plugin';
import type { SiteView } from '../previews/views-plugin';

/** Bytes of previewed pages kept (their text, as each is counted when kept). */
const PREVIEW_PAGE_BYTES = 16 * 1024 * 1024;

export async function sitePages(app: FastifyInstance): Promise<void> {
  // By the preview's manifest (its version is its content's hash), the bar and the path: the same
  // page for every browser previewing the same versions. A page that failed is made again.
  const previews = new LRUCache<string, ComposedPage>({
    maxSize: PREVIEW_PAGE_BYTES,
    sizeCalculation: (page) => Math.max(1, page.length),
  });
  async function previewPage(view: SiteView, urlPath: string, known: boolean) {
    const bar = previewBar(view.preview ?? []);
    const key = `${view.live.version}|${urlPath}|${known}|${bar}`;
    const kept = previews.get(key);
    if (kept) return kept;
    const page = await app.pages.composeOnce(view.live, urlPath, known);
    const root = page.html.search(/<div id="?root"?>/);
    const made = new ComposedPage(
      page.status,
      root === -1 ? page.html : page.html.slice(0, root) + bar + page.html.slice(root),
      { ...PREVIEW_HEADERS, ...(page.status === 503 ? { 'retry-after': '30' } : {}) },
    );
    // A stand-in for a group that failed is not kept either: the group is tried again next time.
    if (page.failure === null && page.lastGood === null) previews.set(key, made);
    return made;
  }

  await app.register(pageRoutes, {
    publicDir: app.shellBuild.publicDir,
    pages: {
      async isPage(urlPath: string, request: FastifyRequest) {
        return app.pages.known((await request.siteView()).live, urlPath);
      },
      async page(urlPath: string, request: FastifyRequest) {
        const view = await request.siteView();
        if (!app.pages.known(view.live, urlPath)) return undefined;
        return view.preview ? previewPage(view, urlPath, true) : app.pages.page(view.live, urlPath);
      },
      async notFound(request: FastifyRequest) {
        const view = await request.siteView();
        return view.preview
          ? previewPage(view, NOT_FOUND_PATH, false)
          : app.pages.page(view.live, NOT_FOUND_PATH);
      },
    },
  });
}
