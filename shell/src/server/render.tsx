/**
 * The shell's server render, built for Node (dist/server/render.js) and run by the site server. It
 * renders a whole page, the layout from the current deployment manifest and the page itself (the
 * shell's own, or a remote's from that remote's Node build), with React's own server renderer and
 * the same routes, components and React as the browser, so the client adopts the HTML exactly.
 */
import * as React from 'react';
import * as JsxRuntime from 'react/jsx-runtime';
import * as ReactDOM from 'react-dom';
import { StrictMode, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from '@site/ui';
import * as Ui from '@site/ui';
import type { DeploymentManifest, RemoteDeployment, RemotePagesModule } from '@site/contracts';
import { Layout, type LayoutPart } from '../components/Layout';
import type { PageMeta } from '../content/shell-routes';
import { RemoteUnavailableError } from '../federation/errors';
import { ServerFormState, type ContactFormState } from '../pages/contact/form-state';
import { ServerRetentionFigures } from '../hooks/use-retention-figures';
import type { RetentionFigures } from '@site/contracts/contact/retention';
import { prepare } from '../page-ref';
import type { PageSource } from '../page-source';
import { SHELL_PATHS } from '@site/contracts/site';
import { createRoutes } from '../router';

export { renderHead } from './head';
export { shellRoutes } from '../content/shell-routes';
export { FORM_STATE_ELEMENT, SENT_ANCHOR } from '../pages/contact/form-state';

/**
 * What the shell provides to a remote's Node build when it asks for a package: the same singletons
 * the browser shares (shared/build/federation.cjs `PROVIDED`), so a page renders with the shell's React.
 */
export const provided: Record<string, unknown> = {
  react: React,
  'react/jsx-runtime': JsxRuntime,
  'react-dom': ReactDOM,
  '@site/ui': Ui,
};

declare const __FEDERATION_SHARED__: Record<string, { version: string; requiredVersion: string }>;

/** The version of each package the shell provides to its remotes (React, `@site/ui`, ...). */
export const providedVersions: Record<string, string> = Object.fromEntries(
  Object.entries(__FEDERATION_SHARED__).map(([name, { version }]) => [name, version]),
);

/** The shell's own pages, for the sitemap and the static export. */
export const shellPaths: readonly string[] = SHELL_PATHS;

export interface RenderRequest {
  manifest: DeploymentManifest;
  /** Path of the page (no query). */
  path: string;
  /** Loads a remote's pages module from its Node build. */
  loadRemote: (remote: RemoteDeployment) => Promise<RemotePagesModule>;
  /** The contact form as the site server answers a post of it (the contact page only). */
  contactForm?: ContactFormState;
  /** The mail-service's retention figures, for the privacy notice (its defaults when absent). */
  retention?: RetentionFigures;
}

export interface RenderResult {
  /** 200, 404 for an unknown path, 503 when the page's group could not be rendered. */
  status: number;
  /** The markup inside `#root` (`all`), the frame with `PAGE_SLOT` (`frame`), or the page (`page`). */
  html: string;
  meta: PageMeta;
  /** The remote that owns the page, if any. */
  remote?: RemoteDeployment;
  /** Why the page's group could not be rendered, for the log. */
  failure?: string;
  /** How it failed: its code could not be had, or its page threw while rendering. */
  broken?: Broken['kind'];
}

export { PAGE_SLOT, type LayoutPart } from '../components/Layout';

/** How the page's group failed: its code could not be loaded, or its page threw. */
export type Broken = { kind: 'unavailable' | 'crashed'; reason: string };

function pageSource(request: RenderRequest, owner: RemoteDeployment | undefined, broken?: Broken) {
  // Nothing is preloaded on the server: each render loads its page once (`LazyPage` keeps it).
  const source: PageSource = {
    loaded: () => undefined,
    async load(path) {
      if (!owner) throw new Error(`no remote owns ${path}`);
      if (broken?.kind === 'unavailable')
        throw new RemoteUnavailableError(owner.name, broken.reason);
      if (broken?.kind === 'crashed') throw new Error(broken.reason);
      let page: { default: ComponentType };
      try {
        const mod = await request.loadRemote(owner);
        const loader = mod.pages[path];
        if (!loader) throw new Error(`it has no page for ${path}`);
        page = await loader();
      } catch (error) {
        throw new RemoteUnavailableError(owner.name, error);
      }
      return page.default;
    },
  };
  return source;
}

const ownerOf = (request: RenderRequest): RemoteDeployment | undefined =>
  request.manifest.remotes.find((r) => r.routes.some((route) => route.path === request.path));

async function attempt(
  request: RenderRequest,
  part: LayoutPart,
  owner: RemoteDeployment | undefined,
  broken?: Broken,
): Promise<RenderResult> {
  const routes = createRoutes(request.manifest, pageSource(request, owner, broken));
  const route = routes(request.path);
  // The frame draws no page, so it loads none.
  const problem = part === 'frame' ? undefined : await prepare(route, 'default');
  const failure = broken?.reason ?? (problem === undefined ? undefined : String(problem));
  const html = renderToString(
    <StrictMode>
      <StaticRouter location={request.path}>
        <ServerFormState value={request.contactForm ?? null}>
          <ServerRetentionFigures value={request.retention ?? null}>
            <Layout manifest={request.manifest} routes={routes} part={part} />
          </ServerRetentionFigures>
        </ServerFormState>
      </StaticRouter>
    </StrictMode>,
  );
  return {
    status: failure ? 503 : route.status,
    html,
    meta: route.meta,
    ...(owner ? { remote: owner } : {}),
    ...(failure ? { failure, broken: broken?.kind ?? 'unavailable' } : {}),
  };
}

/**
 * Renders one page, or one part of it. When the page's group cannot be rendered (its Node build
 * unreachable, or its page throws), the page is rendered again with the shell's "temporarily
 * unavailable" notice and status 503: the layout and the rest of the site are never affected.
 */
export async function renderPage(
  request: RenderRequest,
  part: LayoutPart = 'all',
): Promise<RenderResult> {
  const owner = ownerOf(request);
  try {
    return await attempt(request, part, owner);
  } catch (error) {
    if (!owner) throw error;
    return attempt(request, part, owner, {
      kind: 'crashed',
      reason: `its page threw while rendering: ${error instanceof Error ? error.message : String(error)}`,
    });
  }
}

/**
 * Renders the page (or its part) with its group's notice: unavailable (its code could not be had,
 * its render timed out) or crashed (its page threw).
 */
export function renderUnavailable(
  request: RenderRequest,
  reason: string,
  part: LayoutPart = 'all',
  kind: Broken['kind'] = 'unavailable',
): Promise<RenderResult> {
  return attempt(request, part, ownerOf(request), { kind, reason });
}
