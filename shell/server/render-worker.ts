/**
 * A render worker: a thread of the site server that renders pages with the shell's Node build and
 * the remotes' Node builds. Remote code runs here, not in the thread that answers requests, so a
 * render that hangs can be stopped (the pool terminates the thread) and a remote's globals never
 * reach the server itself.
 */
import { createRequire } from 'node:module';
import vm from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import type { RemoteDeployment, RemotePagesModule } from '@site/shared';
import type { RenderJob, RenderReply, ShellServerBuild, WorkerData } from './render-types';

const data = workerData as WorkerData;
const shell = createRequire(__filename)(data.renderBundle) as ShellServerBuild;

/** Remote builds by URL. Version folders never change, so a loaded build stays right. */
const remoteBuilds = new Map<string, Promise<RemotePagesModule>>();
/** Browser files of a remote's pages by URL, for the page's preloads. */
const remoteAssets = new Map<string, Promise<RemoteAssets>>();
const KEEP = 32;

function remember<T>(cache: Map<string, Promise<T>>, key: string, load: () => Promise<T>) {
  let pending = cache.get(key);
  if (!pending) {
    pending = load();
    cache.set(key, pending);
    // A failure is forgotten, so the next request tries again.
    pending.catch(() => cache.delete(key));
    if (cache.size > KEEP) cache.delete(cache.keys().next().value as string);
  }
  return pending;
}

async function fetchOk(url: string): Promise<Response> {
  const response = await fetch(url, { signal: AbortSignal.timeout(data.fetchTimeoutMs) });
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
  return response;
}

/** The URL of a file in a remote's version folder (where its remoteEntry.js is). */
export const remoteFile = (remote: RemoteDeployment, file: string): string =>
  new URL(file, remote.entry).href;

/**
 * Loads a remote's Node build (`server/pages.js` in its version folder) from its own origin and
 * runs it as a CommonJS module whose `require` hands it the shell's React and shared package.
 */
function loadRemoteBuild(remote: RemoteDeployment): Promise<RemotePagesModule> {
  const url = remoteFile(remote, 'server/pages.js');
  return remember(remoteBuilds, url, async () => {
    const code = await (await fetchOk(url)).text();
    const module = { exports: {} as Record<string, unknown> };
    const run = vm.runInThisContext(`(function (exports, require, module) {${code}\n})`, {
      filename: url,
    }) as (exports: unknown, require: (name: string) => unknown, module: unknown) => void;
    run(
      module.exports,
      (name) => {
        if (Object.hasOwn(shell.provided, name)) return shell.provided[name];
        throw new Error(`it needs "${name}", which the shell does not provide`);
      },
      module,
    );
    const pages = (module.exports as Partial<RemotePagesModule>).pages;
    if (!pages || typeof pages !== 'object') throw new Error(`${url} exports no pages`);
    return { pages };
  });
}

interface RemoteAssets {
  /** The remote's entry and the files of its exposed module, loaded by every page of the remote. */
  common: string[];
  /** Each page's own chunk files. */
  pages: Record<string, string[]>;
}

interface FederationManifest {
  exposes?: { assets?: { js?: { sync?: string[] } } }[];
}

/** What a remote's page loads in the browser, from the files its build wrote. Best effort. */
function loadRemoteAssets(remote: RemoteDeployment): Promise<RemoteAssets> {
  const base = remoteFile(remote, './');
  return remember(remoteAssets, base, async () => {
    const [federation, pages] = await Promise.all([
      fetchOk(remoteFile(remote, 'mf-manifest.json')).then(
        (r) => r.json() as Promise<FederationManifest>,
      ),
      fetchOk(remoteFile(remote, 'page-assets.json')).then(
        (r) => r.json() as Promise<{ pages?: Record<string, string[]> }>,
      ),
    ]);
    const exposed = federation.exposes?.flatMap((e) => e.assets?.js?.sync ?? []) ?? [];
    const absolute = (files: string[]) => files.map((f) => remoteFile(remote, f));
    return {
      common: [remote.entry, ...absolute(exposed)],
      pages: Object.fromEntries(
        Object.entries(pages.pages ?? {}).map(([p, files]) => [
          p,
          absolute(files.filter((f) => f.endsWith('.js'))),
        ]),
      ),
    };
  });
}

async function preloadsFor(remote: RemoteDeployment | undefined, path: string): Promise<string[]> {
  if (!remote) return [];
  try {
    const assets = await loadRemoteAssets(remote);
    return [...assets.common, ...(assets.pages[path] ?? [])];
  } catch {
    // Without the list the page still works: the browser loads the files when the page starts.
    return [remote.entry];
  }
}

async function handle(job: RenderJob): Promise<RenderReply> {
  const request = { manifest: job.manifest, path: job.path, loadRemote: loadRemoteBuild };
  const result = job.unavailable
    ? await shell.renderUnavailable(request, job.unavailable)
    : await shell.renderPage(request);
  const ok = result.status !== 503;
  return {
    id: job.id,
    status: result.status,
    html: result.html,
    head: shell.renderHead(result.meta, job.siteUrl, job.shareImage ?? undefined),
    meta: result.meta,
    remote: result.remote ? { name: result.remote.name, version: result.remote.version } : null,
    scripts: ok ? await preloadsFor(result.remote, job.path) : [],
    failure: result.failure ?? null,
  };
}

parentPort?.on('message', (job: RenderJob) => {
  handle(job).then(
    (reply) => parentPort?.postMessage(reply),
    (error: unknown) =>
      parentPort?.postMessage({
        id: job.id,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
  );
});
