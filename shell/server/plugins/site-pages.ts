/**
 * Every GET and HEAD that no other route answers: a page of the site as the request's view shows
 * it, else one of the shell's files, else the 404 page (http/pages.ts does the HTTP). A page of a
 * preview is composed for that request alone, with the bar that says what it shows, and kept out of
 * shared caches and search engines.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NOT_FOUND_PATH } from '../composer';
import { pageRoutes } from '../http/pages';
import { ComposedPage } from '../page-cache';
import { previewBar } from '../preview';
import { PREVIEW_HEADERS } from './seo';
import type { SiteView } from './views';

export async function sitePages(app: FastifyInstance): Promise<void> {
  async function previewPage(view: SiteView, urlPath: string, known: boolean) {
    const page = await app.pages.composeOnce(view.live, urlPath, known);
    const root = page.html.search(/<div id="?root"?>/);
    const bar = previewBar(view.preview ?? []);
    return new ComposedPage(
      page.status,
      root === -1 ? page.html : page.html.slice(0, root) + bar + page.html.slice(root),
      { ...PREVIEW_HEADERS, ...(page.status === 503 ? { 'retry-after': '30' } : {}) },
    );
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
