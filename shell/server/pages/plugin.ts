/**
 * Pages as the site composes them (pages/composer.ts): from the frame, the page and the head, each part
 * cached by what it depends on, and whole pages cached likewise (shell build, navigation, the
 * owning group's version, path), held as compressed pieces around the manifest they embed, which
 * is put in as each request's manifest (pages/pieces.ts); bounded by count and bytes. Which manifest
 * a request sees (the live one, a canary cohort's, a preview's) is the views plugin's business;
 * this one composes for whichever it is given.
 */
import { randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import type { RemoteDeployment } from '@site/contracts';
import { SHELL_PAGES } from '@site/contracts/site';
import type { ContactFormState } from '../../src/pages/contact/form-state';
import { composePage } from './compose';
import { NOT_FOUND_PATH, PageComposer, type Composition } from './composer';
import type { LiveManifest } from '../control-plane';
import { PostgresLastGoodStore } from '../control-plane/last-good-postgres';
import { LastGoodPages } from './last-good';
import { ComposedPage, PageCache, type KeptPage, type SentPage } from './cache';
import { HotPages, PageShape, piece, type Piece } from './pieces';
import { RemoteAssets } from './remote-assets';
import { RetentionFiguresSource } from '../contact/retention-figures';

/** Pages cached at most (their bytes are PAGE_CACHE_MB), and how briefly a failed one is kept. */
const CACHE = { maxEntries: 2000, failedTtlMs: 5000 };
/** Rendered parts (frames and pages) kept, in bytes. */
const PART_BYTES = 32 * 1024 * 1024;

export interface Pages {
  /** Whether `urlPath` is one of the site's pages in `view`. */
  known(view: LiveManifest, urlPath: string): boolean;
  /** The page at `urlPath` in `view` (the 404 page when it is not one), from the cache. */
  page(view: LiveManifest, urlPath: string): Promise<SentPage>;
  /** A page composed for one answer alone: a preview's, or the contact form in a visitor's state. */
  composeOnce(
    view: LiveManifest,
    urlPath: string,
    known: boolean,
    contactForm?: ContactFormState,
  ): Promise<Composition>;
  /** The whole "temporarily unavailable" page drawn here, with no render process at all. */
  lastResort(view: LiveManifest, reason: string): Promise<string>;
  /** The shell's paths and every group's. */
  paths(view: LiveManifest): string[];
  cacheSize(): { entries: number; bytes: number };
}

declare module 'fastify' {
  interface FastifyInstance {
    pages: Pages;
  }
}

/** Where a composed page embeds its manifest, until it is cut there into its shape. */
const MANIFEST_SLOT = `<!--site-manifest-${randomUUID()}-->`;

export default fp<{ lastGoodMaxAgeMs?: number | undefined }>(
  async (app, hooks) => {
    const config = app.config;
    const cacheBytes = config.PAGE_CACHE_MB * 1024 * 1024;
    const { shell, siteUrl } = app.shellBuild;
    const template = () => app.shellBuild.template();
    const assets = new RemoteAssets(async (url, remote) =>
      JSON.parse(await app.remoteFile(url, remote)),
    );
    const lastGood = new LastGoodPages(
      // Kept beside the live manifest.
      new PostgresLastGoodStore(config.DATABASE_URL),
      {
        maxAgeMs: hooks.lastGoodMaxAgeMs ?? config.LAST_GOOD_SECONDS * 1000,
        maxPages: config.LAST_GOOD_PAGES,
        maxPageBytes: config.LAST_GOOD_PAGE_BYTES,
      },
      app.log.child({ part: 'last-good' }),
    );
    app.addHook('onClose', () => lastGood.close());
    /** Pages drawn from their group's last good markup, by the group's name. */
    const standIns = new WeakMap<KeptPage, string>();
    /** Group pages rendered as they are: still good each time one is served. */
    const groupPages = new WeakMap<KeptPage, { owner: RemoteDeployment; path: string }>();
    const cache = new PageCache<PageShape | ComposedPage>({
      ...CACHE,
      maxBytes: cacheBytes,
      // A stand-in is kept as briefly as the notice: the group's own rendering is tried again soon.
      standsIn: (page) => page.status >= 500 || standIns.has(page),
      observe: (hit) => app.metrics.cacheLookup(hit),
    });

    /** The URL of the page's share card: its remote's (in its version folder) or the shell's. */
    function shareImage(view: LiveManifest, pagePath: string, known: boolean): string | null {
      for (const remote of view.manifest.remotes) {
        const route = remote.routes.find((r) => r.path === pagePath);
        if (route) return route.image ? new URL(route.image, remote.entry).href : null;
      }
      const card = template().cards[known ? pagePath : '*'];
      return card ? `${siteUrl}/${card}` : null;
    }

    const retention = new RetentionFiguresSource({
      // The mail-service, asked for the retention figures the privacy notice states.
      mailService: config.MAIL_SERVICE_URL,
      log: app.log.child({ part: 'privacy' }),
    });
    const privacyPath = SHELL_PAGES.privacy;
    const composer = new PageComposer({
      figures: (pagePath) => (pagePath === privacyPath ? retention.current() : undefined),
      pools: () => app.renderPools(),
      shell,
      template,
      siteUrl,
      metrics: app.metrics,
      preloads: (remote, pagePath) => assets.preloads(remote, pagePath),
      shareImage,
      log: app.log.child({ part: 'pages' }),
      maxPartBytes: PART_BYTES,
      lastGood,
    });

    /** Pages in demand, their gzip answers kept joined, beside the cache: a quarter of its bytes. */
    const hot = new HotPages(Math.floor(cacheBytes / 4));

    /** Each manifest's embedded JSON, compressed once for all the pages that embed it. */
    const manifestPieces = new LRUCache<string, Piece>({ max: 16 });
    function manifestPiece(view: LiveManifest): Piece {
      let made = manifestPieces.get(view.embedded);
      if (!made) {
        made = piece(view.embedded);
        manifestPieces.set(view.embedded, made);
      }
      return made;
    }

    const known = (view: LiveManifest, urlPath: string): boolean =>
      shell.shellPaths.includes(urlPath) ||
      view.paths.has(urlPath) ||
      view.unavailablePrefixes.some((p) => urlPath.startsWith(`${p}/`));

    app.decorate('pages', {
      known,
      async page(view, urlPath) {
        const isPage = known(view, urlPath);
        const pagePath = isPage ? urlPath : NOT_FOUND_PATH;
        // The notice states the service's figures once it has been asked (or could not answer).
        if (pagePath === privacyPath) await retention.asked();
        // Cached by what the page depends on, not by the whole manifest: a deploy of one group
        // leaves the other groups' pages where they are, with the new manifest put in.
        const kept = await cache.get(composer.pageKey(view, pagePath), async () => {
          const page = await composer.compose(
            { ...view, embedded: MANIFEST_SLOT },
            pagePath,
            isPage,
          );
          const headers: Record<string, string> =
            page.status === 503 ? { 'Retry-After': '30' } : {};
          const [before, after, ...more] = page.html.split(MANIFEST_SLOT);
          // (A page that does not embed the manifest once is kept whole.)
          const made =
            after === undefined || more.length
              ? new ComposedPage(
                  page.status,
                  page.html.replaceAll(MANIFEST_SLOT, view.embedded),
                  headers,
                )
              : new PageShape(page.status, before!, after, headers, hot);
          if (page.owner && page.lastGood !== null) standIns.set(made, page.owner.name);
          else if (page.owner && page.failure === null) {
            groupPages.set(made, { owner: page.owner, path: pagePath });
          }
          return made;
        });
        const standingFor = standIns.get(kept);
        if (standingFor !== undefined) app.metrics.lastGoodServed(standingFor);
        else {
          const good = groupPages.get(kept);
          if (good) lastGood.served(good.owner, good.path);
        }
        return kept instanceof PageShape ? kept.with(manifestPiece(view)) : kept;
      },
      async composeOnce(view, urlPath, isPage, contactForm) {
        const page = await composer.compose(
          view,
          isPage ? urlPath : NOT_FOUND_PATH,
          isPage,
          contactForm,
        );
        if (page.owner && page.lastGood !== null) app.metrics.lastGoodServed(page.owner.name);
        return page;
      },
      async lastResort(view, reason) {
        const result = await shell.renderUnavailable(
          {
            manifest: view.manifest,
            path: '/',
            loadRemote: () => Promise.reject(new Error(reason)),
          },
          reason,
        );
        return composePage(
          template(),
          {
            head: shell.renderHead(result.meta, siteUrl),
            html: result.html,
            scripts: [],
            status: 503,
            path: result.meta.path,
            remote: false,
          },
          view.embedded,
        );
      },
      paths: (view) => [...shell.shellPaths, ...view.paths],
      cacheSize: () => ({ entries: cache.size, bytes: cache.bytes }),
    } satisfies Pages);
  },
  { name: 'pages', dependencies: ['shell-build', 'render', 'metrics'] },
);
