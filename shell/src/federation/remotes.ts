import type { ComponentType } from 'react';
import {
  groupAt,
  namesEveryPage,
  type DeploymentManifest,
  type RemoteDeployment,
  type RemotePagesModule,
} from '@site/contracts';
import { report } from './beacon';
import { crossesOwner } from './boundary';
import { RemoteUnavailableError } from './errors';
import { routeTable, tableLoaded, tableRoute } from './tables';
import { loadRemoteModule, registerRemoteEntries } from './runtime';

/** How long one attempt to load a remote may take before it counts as failed. */
const ATTEMPT_TIMEOUT_MS = 5000;
/** Pauses between attempts; transient failures (a dropped connection, a redeploy) often pass. */
const BACKOFF_MS = [400, 1200];

let remotesByName = new Map<string, RemoteDeployment>();
/** The pages the manifest names, with the remote that owns each. */
let ownerByPath = new Map<string, RemoteDeployment>();
const modules = new Map<string, Promise<RemotePagesModule>>();
const components = new Map<string, ComponentType>();
let registered: Promise<void> | undefined;

const entryOf = (r: RemoteDeployment) => ({ name: r.name, entry: r.entry });

/**
 * Takes the remotes of the deployment manifest. Nothing is fetched yet: the federation runtime
 * starts, and learns the remotes, when a remote's page is first needed.
 */
export function registerManifest(manifest: DeploymentManifest): void {
  remotesByName = new Map(manifest.remotes.map((r) => [r.name, r]));
  ownerByPath = new Map(
    manifest.remotes.flatMap((r) => r.routes.map((route) => [route.path, r] as const)),
  );
  registered = undefined;
}

function ensureRegistered(): Promise<void> {
  registered ??= registerRemoteEntries([...remotesByName.values()].map(entryOf)).catch(
    (error: unknown) => {
      registered = undefined;
      throw error;
    },
  );
  return registered;
}

/** The remote whose prefixes `path` lies under, if any. */
export const remoteForPath = (path: string): RemoteDeployment | undefined =>
  ownerByPath.get(path) ?? groupAt(remotesByName.values(), path);

/** Whether `path` is one of the remote's pages, as far as this page knows them. */
const knownPage = (remote: RemoteDeployment, path: string): boolean =>
  ownerByPath.get(path) === remote || tableRoute(remote, path) !== undefined;

/** The remote whose page `path` is (not the 404 page under its prefix): what its errors count for. */
export function pageOwner(path: string): RemoteDeployment | undefined {
  const remote = remoteForPath(path);
  return remote && knownPage(remote, path) ? remote : undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

async function attempt(remote: RemoteDeployment, fresh: boolean): Promise<RemotePagesModule> {
  await ensureRegistered();
  // The runtime caches a failed entry; re-registering with `force` makes the next load a real one.
  if (fresh) await registerRemoteEntries([entryOf(remote)], true);
  const mod = await loadRemoteModule<RemotePagesModule>(`${remote.name}/pages`);
  if (!mod || typeof mod.pages !== 'object') throw new Error('it does not expose ./pages');
  return mod;
}

/**
 * Takes out the page's preload hints for a remote's files. A preload that failed (the host was
 * down or stalled) is what Chromium answers a later load of the same file with, so a retry would
 * fail without even asking the host; without the hint, the retry is a real request.
 */
function dropPreloads(remote: RemoteDeployment): void {
  const base = new URL('./', remote.entry).href;
  for (const link of document.querySelectorAll<HTMLLinkElement>('link[rel="preload"]')) {
    if (link.href.startsWith(base)) link.remove();
  }
}

/**
 * Runs `attempt` until it succeeds, at most once more per pause in BACKOFF_MS, each run limited to
 * ATTEMPT_TIMEOUT_MS; the last failure is reported and thrown as the group being unavailable.
 */
async function withRetries<T>(
  remote: RemoteDeployment,
  attempt: (index: number) => Promise<T>,
): Promise<T> {
  let lastError: unknown;
  for (let i = 0; i <= BACKOFF_MS.length; i++) {
    try {
      return await withTimeout(attempt(i), ATTEMPT_TIMEOUT_MS);
    } catch (error) {
      lastError = error;
      dropPreloads(remote);
      const pause = BACKOFF_MS[i];
      if (pause !== undefined) await sleep(pause);
    }
  }
  void report('remote-load-failed', remote, lastError);
  throw new RemoteUnavailableError(remote.name, lastError);
}

const loadWithRetry = (remote: RemoteDeployment) =>
  withRetries(remote, (i) => attempt(remote, i > 0));

/** Loads a remote's pages module once; a failure is forgotten so that Retry loads afresh. */
export function loadPagesModule(remote: RemoteDeployment): Promise<RemotePagesModule> {
  let pending = modules.get(remote.name);
  if (!pending) {
    pending = loadWithRetry(remote);
    modules.set(remote.name, pending);
    pending.catch(() => {
      modules.delete(remote.name);
      registerRemoteEntries([entryOf(remote)], true).catch(() => {
        // The next attempt registers it again.
      });
    });
  }
  return pending;
}

/**
 * Loads the page component for a path owned by a remote and keeps it, so the router can render it
 * synchronously (no loading flash when the page was preloaded or is the one the visitor entered by).
 */
export async function loadPage(path: string): Promise<ComponentType> {
  const cached = components.get(path);
  if (cached) return cached;
  // Another owner's code never runs in this document: its page is a page load (boundary.ts).
  if (crossesOwner(path)) throw new Error(`${path} belongs to another document`);
  const remote = remoteForPath(path);
  if (!remote) throw new Error(`no remote owns ${path}`);
  const mod = await loadPagesModule(remote);
  const loader = mod.pages[path];
  if (!loader)
    throw new RemoteUnavailableError(remote.name, new Error(`it has no page for ${path}`));
  // A chunk that failed (a stalled host, a dropped connection) is fetched afresh on the next
  // try: the browser may even answer the first try with a failed preload of the same file.
  const page = await withRetries(remote, () => loader());
  components.set(path, page.default);
  return page.default;
}

export const loadedPage = (path: string): ComponentType | undefined => components.get(path);

/**
 * Warms a path's remote and page chunk, e.g. when a link to it is hovered or focused; for a page
 * of a group the page's manifest names only in part, the group's whole route table first. Only
 * pages of this document's own group: another owner's page is a page load.
 */
export function preloadPath(path: string): void {
  const clean = path.split(/[?#]/)[0] ?? path;
  const remote = remoteForPath(clean);
  if (!remote || components.has(clean) || crossesOwner(clean)) return;
  const load = () => {
    if (!knownPage(remote, clean)) return;
    loadPage(clean).catch(() => {
      // A failed preload is not an error the visitor sees; the navigation itself will retry.
    });
  };
  if (knownPage(remote, clean) || namesEveryPage(remote) || tableLoaded(remote)) load();
  else routeTable(remote).then(load, () => undefined);
}
