/**
 * What a canary is judged on, counted where no visitor can forge it (canary/counts.ts): every page
 * served while canaries run is a view of its group's version, for the visitor's cohort; a page the
 * site could not render is a failed view; and the view's token (canary/view-tokens.ts, a cookie only
 * `/_beacon` receives) lets the browser report one error for it. A preview's pages and a
 * crawler's are no views. The counts go to the control plane's PostgreSQL, shared by replicas, where
 * the judge (deploy/plugin.ts) sums them.
 */
import { serialize as serializeCookie } from 'cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { CanaryCounter, type CanaryCountStore } from './counts';
import { PostgresCountStore } from '../control-plane/counts-postgres';
import { BEACON_PATH } from './beacon';
import { isDocumentNavigation } from '../http/navigation';
import { targetPath } from '../pages/answer';
import { VIEW_COOKIE, VIEW_SECONDS, ViewSigner, viewKeyOf } from './view-tokens';
import { previewSecretOf } from '../previews/preview';
import type { SiteView } from '../previews/views-plugin';

export interface CanaryCounting {
  signer: ViewSigner;
  counter: CanaryCounter;
  store: CanaryCountStore;
}

declare module 'fastify' {
  interface FastifyInstance {
    canary: CanaryCounting;
  }
}

export default fp(
  async (app) => {
    const { DATABASE_URL } = app.config;
    const signer = new ViewSigner(viewKeyOf(previewSecretOf(app.config)));
    const store: CanaryCountStore = new PostgresCountStore(DATABASE_URL);
    const counter = new CanaryCounter(store);
    app.decorate('canary', { signer, counter, store } satisfies CanaryCounting);
    app.addHook('onClose', async () => {
      await counter.flush().catch(() => undefined);
      await store.close();
    });
  },
  { name: 'canary', dependencies: ['control-plane'] },
);

/**
 * A page answer of a request placed in a cohort: counted as a view of the group that owns the page
 * when that group has a canary, and given a view token either way (its group's errors are then
 * counted in the metrics). Only a document's navigation is a view: a page fetched by a script, in a
 * frame or prefetched is none, so no code can get a token for a group whose page its document does
 * not show (nor count views to hide a failing canary). Called by the views plugin as the answer is
 * sent.
 */
export async function countView(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  view: SiteView,
): Promise<void> {
  const cohort = request.cohort;
  if (typeof cohort !== 'number' || view.preview || request.method !== 'GET') return;
  if (!isDocumentNavigation(request)) return;
  const status = reply.statusCode;
  if (status !== 200 && status !== 304 && status !== 503) return;
  if (!String(reply.getHeader('content-type') ?? '').startsWith('text/html')) return;
  let pagePath: string;
  try {
    pagePath = targetPath(request.url).path;
  } catch {
    return;
  }
  const owner = view.live.manifest.remotes.find((r) =>
    r.routes.some((route) => route.path === pagePath),
  );
  if (!owner) return;
  const base = await app.live();
  if (base.canaries.some((c) => c.remote.name === owner.name)) {
    app.canary.counter.view(owner.name, owner.version, status === 503);
  }
  const { token } = app.canary.signer.sign(owner.name, owner.version, cohort);
  reply.header(
    'set-cookie',
    serializeCookie(VIEW_COOKIE, token, {
      httpOnly: true,
      secure: request.protocol === 'https',
      sameSite: 'strict',
      path: BEACON_PATH,
      maxAge: VIEW_SECONDS,
    }),
  );
}
