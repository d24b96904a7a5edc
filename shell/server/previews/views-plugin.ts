/**
 * Which manifest a request sees: a preview's (a browser holding a signed preview link), a canary
 * cohort's (while canaries run, each visitor is placed in a cohort once), or the live one. Pages
 * and `/remotes.json` ask `request.siteView()`; nothing else needs to know why.
 *
 * Preview links are signed by the deploy API (`app.previews.link`) and opened at
 * `/_preview/<token>`: the token joins the browser's previews (one per group) and the browser goes
 * to the group's first page. A token that is not valid changes nothing.
 */
import type { RemoteDeployment } from '@site/contracts';
import { REVALIDATE } from '@site/serving';
import encodeUrl from 'encodeurl';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { CanaryViews, placeVisitor } from '../canary/judge';
import { countView } from '../canary/plugin';
import type { LiveManifest } from '../control-plane';
import {
  DEFAULT_PREVIEW_SECONDS,
  PREVIEW_PATH,
  PreviewManifests,
  PreviewSigner,
  previewSecretOf,
  previewCookie,
  type PreviewClaims,
} from './preview';

export interface SiteView {
  /** The manifest this request's pages are composed from. */
  live: LiveManifest;
  /** What it previews, when it previews anything. */
  preview?: PreviewClaims[];
}

export interface Previews {
  /**
   * A signed link that shows `remote` to the browser that opens it, landing on `page` (one of the
   * group's pages); off without a secret.
   */
  link(remote: RemoteDeployment, seconds?: number, page?: string): { url: string; expiresAt: Date };
}

declare module 'fastify' {
  interface FastifyInstance {
    previews: Previews;
  }
  interface FastifyRequest {
    /** The manifest this request sees (made once per request). */
    siteView(): Promise<SiteView>;
    /** The same, once it is made (undefined before `siteView()` has resolved). */
    siteViewMade(): SiteView | undefined;
    /** Where the two above keep what they made (one request's, read through them only). */
    siteViewKept: { asked: Promise<SiteView>; made?: SiteView } | null;
    /** While canaries run: the visitor's cohort (null: a crawler, which sees the stable site). */
    cohort: number | null | undefined;
  }
}

export default fp(
  async (app) => {
    const log = app.log.child({ part: 'views' });
    const secret = previewSecretOf(app.config);
    const signer = secret ? new PreviewSigner(secret) : undefined;
    const manifests = new PreviewManifests({
      // Origins a previewed entry may point at: the deploy API's.
      allowedOrigins: new Set(app.config.DEPLOY_ALLOWED_ORIGINS),
      shellPaths: app.shellBuild.shell.shellPaths,
      fetchTimeoutMs: app.config.FETCH_TIMEOUT_MS,
    });
    const canaryViews = new CanaryViews();

    /** The view of a request that previews nothing: one object per manifest, shared. */
    const plainViews = new WeakMap<LiveManifest, SiteView>();
    function plainView(live: LiveManifest): SiteView {
      let view = plainViews.get(live);
      if (!view) {
        view = Object.freeze({ live });
        plainViews.set(live, view);
      }
      return view;
    }

    async function previewView(
      live: LiveManifest,
      claims: PreviewClaims[],
      otherwise: SiteView,
    ): Promise<SiteView> {
      try {
        return { live: await manifests.get(live, claims), preview: claims };
      } catch (error) {
        log.warn(
          `site: a preview could not be put together, the live site is served: ${String(error)}`,
        );
        return otherwise;
      }
    }

    /** A request's view: at once, unless it previews something (which may fetch an entry). */
    function viewOf(request: FastifyRequest, live: LiveManifest): SiteView | Promise<SiteView> {
      const tokens = signer?.fromCookie(request.headers.cookie) ?? [];
      const plain = plainView(canaryViews.view(live, request.cohort ?? null));
      return tokens.length > 0
        ? previewView(
            live,
            tokens.map((t) => t.claims),
            plain,
          )
        : plain;
    }

    app.decorateRequest('cohort', undefined);
    app.decorateRequest('siteViewKept', null);
    app.decorateRequest('siteView', function (this: FastifyRequest) {
      if (this.siteViewKept) return this.siteViewKept.asked;
      let now: SiteView | Promise<SiteView>;
      try {
        const live = app.live();
        now = live instanceof Promise ? live.then((l) => viewOf(this, l)) : viewOf(this, live);
      } catch (error) {
        now = Promise.reject(error as Error);
      }
      if (now instanceof Promise) {
        const kept: { asked: Promise<SiteView>; made?: SiteView } = {
          asked: now.then((seen) => (kept.made = seen)),
        };
        this.siteViewKept = kept;
      } else {
        this.siteViewKept = { asked: Promise.resolve(now), made: now };
      }
      return this.siteViewKept.asked;
    });
    app.decorateRequest('siteViewMade', function (this: FastifyRequest) {
      return this.siteViewKept?.made;
    });

    function place(request: FastifyRequest, reply: FastifyReply, live: LiveManifest): void {
      if (live.canaries.length === 0) return;
      // Files are the same for every cohort (and cached publicly): only pages and the manifest.
      const pathname = request.url.split('?')[0]!;
      if (pathname !== '/remotes.json' && /\.[A-Za-z0-9]+$/.test(pathname)) return;
      const placed = placeVisitor(
        request.headers.cookie,
        request.headers['user-agent'],
        request.protocol === 'https',
        app.canary.signer,
      );
      request.cohort = placed.cohort;
      if (placed.setCookie) reply.header('set-cookie', placed.setCookie);
    }

    // While a canary runs: a visitor without a cohort gets one with its first answer (a crawler
    // never does), and pages and the manifest are private to the visitor (they differ by cohort).
    // Both hooks run for every answer: callbacks that finish at once when there is nothing to wait
    // for (the live manifest is known; no canary runs), not a promise each.
    app.addHook('onRequest', (request, reply, done) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') return done();
      const live = app.live();
      if (!(live instanceof Promise)) {
        place(request, reply, live);
        return done();
      }
      live.then((known) => place(request, reply, known)).then(() => done(), done);
    });
    app.addHook('onSend', (request, reply, payload, done) => {
      if (request.cohort === undefined) return done(null, payload);
      cohortAnswer(request, reply).then(() => done(null, payload), done);
    });
    async function cohortAnswer(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      if (reply.getHeader('cache-control') === REVALIDATE) {
        reply
          .header('cache-control', 'private, no-cache')
          .header('vary', 'Accept-Encoding, Cookie');
      }
      // Only a request that asked for its view has one (a page, the 404 page).
      const view = request.siteViewKept?.asked;
      if (typeof request.cohort === 'number' && view) {
        await countView(app, request, reply, await view);
      }
    }

    app.decorate('previews', {
      link(remote, seconds, page) {
        if (!signer) throw new Error('preview links need a secret (the deploy API is off)');
        const signed = signer.sign(
          {
            remote: remote.name,
            version: remote.version,
            entry: remote.entry,
            serverIntegrity: remote.serverIntegrity ?? '',
          },
          seconds ?? DEFAULT_PREVIEW_SECONDS,
        );
        return {
          url: `${app.shellBuild.siteUrl}${PREVIEW_PATH}/${signed.token}${page ? `?${new URLSearchParams({ page })}` : ''}`,
          expiresAt: signed.expiresAt,
        };
      },
    } satisfies Previews);

    app.get<{ Params: { token: string }; Querystring: { page?: unknown } }>(
      `${PREVIEW_PATH}/:token`,
      async (request, reply) => {
        reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex');
        const { token } = request.params;
        const claims = token === 'end' ? null : (signer?.verify(token) ?? null);
        const kept = (signer?.fromCookie(request.headers.cookie) ?? []).filter(
          (t) => claims && t.claims.remote !== claims.remote,
        );
        const secure = request.protocol === 'https';
        if (!claims) {
          if (token === 'end') reply.header('set-cookie', previewCookie([], secure));
          return reply.code(303).header('location', '/').send();
        }
        const tokens = [...kept, { token, claims }];
        reply.header('set-cookie', previewCookie(tokens, secure));
        let first = '/';
        try {
          const view = await manifests.get(
            await app.live(),
            tokens.map((t) => t.claims),
          );
          // The page the link names, if the previewed group has it; else the group's first page.
          const routes = view.manifest.remotes.find((r) => r.name === claims.remote)?.routes ?? [];
          const asked = request.query.page;
          first = routes.find((r) => r.path === asked)?.path ?? routes[0]?.path ?? '/';
        } catch {
          // The page itself says what can be shown.
        }
        return reply.code(303).header('location', encodeUrl(first)).send();
      },
    );
  },
  { name: 'views', dependencies: ['shell-build', 'control-plane', 'canary'] },
);
