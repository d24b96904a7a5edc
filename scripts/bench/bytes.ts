import type { Browser } from '@playwright/test';
import { SITE, remoteOriginFor, shortUrl, type Site } from './site';
import { DESKTOP, errorMessage, gzipSize, withPage, withTimeout } from './util';

/**
 * First-load bytes: Chromium (1280x720, empty cache) opens the route and waits for `load`, then for
 * the network to be idle. Every document, script, style sheet and font counts, each body gzipped at
 * level 9. What is fetched once the page has loaded and gone idle (requests started after the
 * shell's `site:idle` mark: warming of other groups, the contact form's code) is counted apart: it is
 * not part of the first load.
 */

export const WARMING_MARK = 'site:warming';
export const IDLE_MARK = 'site:idle';

/** Distinctive strings of each library, as they survive minification: any one found in a
 * downloaded script body counts as that library. */
export const LIBRARY_MARKERS: Record<string, string[]> = {
  leaflet: ['leaflet-container', 'leafletjs.com'],
  'react-hook-form': ['shouldUnregister', 'criteriaMode'],
  zod: ['ZodError', '$ZodType'],
};

const TIMEOUT = { goto: 30_000, networkIdle: 15_000 };

interface File {
  url: string;
  type: string;
  rawBytes: number;
  gzipBytes: number;
  text: string | null;
}

export interface FirstLoad {
  route: string;
  html: number;
  js: number;
  css: number;
  fonts: number;
  /** gzip bytes fetched by warming after the first load, and from which remote origins. */
  warming: { bytes: number; files: number; origins: string[] };
  files: { url: string; type: string; rawBytes: number; gzipBytes: number; warming: boolean }[];
  networkIdle: boolean;
  appReady: boolean;
  hasForm: boolean;
  hasMap: boolean;
  heading: string | null;
  libraries: Record<string, string[]>;
  librariesOk: boolean;
  ownRemote: string | null;
  contactedRemotes: string[];
  originsOk: boolean;
  otherOrigins: string[];
  failures: string[];
}

export const isLocal = (url: string): boolean => {
  try {
    const u = new URL(url);
    return ['localhost', '127.0.0.1'].includes(u.hostname) || !/^https?:$/.test(u.protocol);
  } catch {
    return true;
  }
};

export async function measureFirstLoad(
  browser: Browser,
  route: string,
  site: Site,
): Promise<FirstLoad> {
  return withPage(browser, { ...DESKTOP, timeout: TIMEOUT.goto }, async (page, context) => {
    const files: File[] = [];
    const pending: Promise<unknown>[] = [];
    const origins = new Set<string>();
    const failures: string[] = [];
    // The machine is offline; outside hosts (map tiles) are answered at once.
    await context.route(
      (url) => !isLocal(url.href),
      (r) => r.abort('internetdisconnected'),
    );
    page.on('request', (req) => {
      try {
        const u = new URL(req.url());
        if (/^https?:$/.test(u.protocol)) origins.add(u.origin);
      } catch {
        // data: and the like
      }
    });
    page.on('requestfailed', (req) => {
      if (isLocal(req.url())) failures.push(`${req.url()} (${req.failure()?.errorText})`);
    });
    page.on('response', (response) => {
      const type = response.request().resourceType();
      if (response.status() >= 400) failures.push(`${response.url()} (${response.status()})`);
      if (!['document', 'script', 'stylesheet', 'font'].includes(type)) return;
      pending.push(
        response.body().then(
          (body) =>
            files.push({
              url: response.url(),
              type,
              rawBytes: body.length,
              gzipBytes: gzipSize(body),
              text: type === 'script' ? body.toString('utf8') : null,
            }),
          (error: unknown) => failures.push(`${response.url()} (body: ${errorMessage(error)})`),
        ),
      );
    });
    await page.goto(`${SITE}${route}`, { waitUntil: 'load', timeout: TIMEOUT.goto });
    let networkIdle = true;
    await page
      .waitForLoadState('networkidle', { timeout: TIMEOUT.networkIdle })
      .catch(() => (networkIdle = false));
    await withTimeout(Promise.allSettled(pending), 10_000, `${route}: response bodies`);
    const features = await page.evaluate((mark) => {
      const start = performance.getEntriesByName(mark)[0]?.startTime;
      const warmed =
        start == null
          ? []
          : performance
              .getEntriesByType('resource')
              .filter((e) => e.startTime >= start)
              .map((e) => e.name);
      return {
        warmed,
        appReady: document.documentElement.dataset.appReady === 'true',
        form: Boolean(document.querySelector('main form')),
        map: Boolean(document.querySelector('main .map, main .map-frame, main .leaflet-container')),
        h1: document.querySelector('main h1')?.textContent?.replace(/\s+/g, ' ').trim() ?? null,
      };
    }, IDLE_MARK);
    const warmedUrls = new Set(features.warmed);
    const firstLoad = files.filter((f) => !warmedUrls.has(f.url));
    const warming = files.filter((f) => warmedUrls.has(f.url));

    const sum = (type: string) =>
      firstLoad.filter((f) => f.type === type).reduce((n, f) => n + f.gzipBytes, 0);
    const libraries: Record<string, string[]> = {};
    for (const [lib, markers] of Object.entries(LIBRARY_MARKERS)) {
      const hits: string[] = [];
      for (const f of firstLoad.filter((x) => x.type === 'script'))
        for (const m of markers) if (f.text?.includes(m)) hits.push(`${m} in ${shortUrl(f.url)}`);
      libraries[lib] = hits;
    }
    // Origins: what the first load contacted (warming reaches other groups on purpose).
    const firstLoadOrigins = new Set(firstLoad.map((f) => new URL(f.url).origin));
    const ownRemote = remoteOriginFor(route, site);
    const remoteOrigins = new Set(site.remotes.map((r) => r.origin));
    const contactedRemotes = [...firstLoadOrigins].filter((o) => remoteOrigins.has(o));
    const heavy = Object.values(libraries).some((h) => h.length);
    return {
      route,
      html: sum('document'),
      js: sum('script'),
      css: sum('stylesheet'),
      fonts: sum('font'),
      warming: {
        bytes: warming.reduce((n, f) => n + f.gzipBytes, 0),
        files: warming.length,
        origins: [...new Set(warming.map((f) => new URL(f.url).origin))],
      },
      files: files
        .map(({ url, type, rawBytes, gzipBytes }) => ({
          url: shortUrl(url),
          type,
          rawBytes,
          gzipBytes,
          warming: warmedUrls.has(url),
        }))
        .sort((a, b) => b.gzipBytes - a.gzipBytes),
      networkIdle,
      appReady: features.appReady,
      hasForm: features.form,
      hasMap: features.map,
      heading: features.h1,
      libraries,
      librariesOk: features.form || features.map || !heavy,
      ownRemote,
      contactedRemotes,
      originsOk: contactedRemotes.every((o) => o === ownRemote),
      otherOrigins: [...origins].filter((o) => o !== SITE && !remoteOrigins.has(o)),
      failures,
    };
  });
}
