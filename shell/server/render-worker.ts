/**
 * A render process: renders pages with the shell's Node build and the remotes' Node builds. It is
 * a child process of the site server started with an empty environment, under Node's permission
 * model (it may read the shell's server build and nothing else), and it shuts its own network
 * before it runs anything (render/lockdown.ts). A remote's code running here cannot reach a
 * secret, a file, a process or an address; a render that hangs is stopped by killing the process.
 *
 * It fetches nothing itself: every file of a remote's version folder comes from the site server
 * over the IPC channel, which checks the pin of `server/pages.js` before handing it over.
 */
import { createRequire } from 'node:module';
import vm from 'node:vm';
import type { RemoteDeployment, RemotePagesModule } from '@site/contracts';
import { lockDown } from './render/lockdown';
import { SERVER_BUILD, remoteFileUrl, type RemoteFile } from './render/remote-urls';
import type {
  FromWorker,
  RenderJob,
  RenderReply,
  ShellServerBuild,
  ToWorker,
  WorkerData,
} from './render-types';

const data = JSON.parse(process.argv[1] ?? 'null') as WorkerData;
// Taken before a remote's code runs, so that code cannot stand between this process and the pool.
const channel = process.send?.bind(process);
if (!channel)
  throw new Error('a render process is started by the render pool, with an IPC channel');
const send = (message: FromWorker): void => void channel(message);
// Without the site server there is nothing to render for.
process.on('disconnect', () => process.exit(0));

lockDown();
const shell = createRequire(data.renderBundle)(data.renderBundle) as ShellServerBuild;

const waiting = new Map<number, { resolve: (text: string) => void; reject: (e: Error) => void }>();
let nextRequest = 1;

/** A file of a remote's version folder, from the site server. */
function requestFile(remote: RemoteDeployment, file: RemoteFile): Promise<string> {
  const requestId = nextRequest++;
  const url = remoteFileUrl(remote, file);
  return new Promise((resolve, reject) => {
    waiting.set(requestId, { resolve, reject });
    send({
      type: 'file',
      requestId,
      url,
      remote: { name: remote.name, version: remote.version, entry: remote.entry },
      ...(file === SERVER_BUILD && remote.serverIntegrity
        ? { integrity: remote.serverIntegrity }
        : {}),
    });
  });
}

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

/**
 * Runs a remote's Node build (`server/pages.js` in its version folder) as a CommonJS module whose
 * `require` hands it the shell's React and shared package.
 */
function loadRemoteBuild(remote: RemoteDeployment): Promise<RemotePagesModule> {
  const url = remoteFileUrl(remote, SERVER_BUILD);
  return remember(remoteBuilds, url, async () => {
    const code = await requestFile(remote, SERVER_BUILD);
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
  const base = remoteFileUrl(remote, './');
  return remember(remoteAssets, base, async () => {
    const [federation, pages] = await Promise.all([
      requestFile(remote, 'mf-manifest.json').then((t) => JSON.parse(t) as FederationManifest),
      requestFile(remote, 'page-assets.json').then(
        (t) => JSON.parse(t) as { pages?: Record<string, string[]> },
      ),
    ]);
    const exposed = federation.exposes?.flatMap((e) => e.assets?.js?.sync ?? []) ?? [];
    const absolute = (files: string[]) => files.map((f) => remoteFileUrl(remote, f));
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

process.on('message', (message: ToWorker) => {
  if (message.type === 'file') {
    const pending = waiting.get(message.requestId);
    waiting.delete(message.requestId);
    if ('text' in message) pending?.resolve(message.text);
    else pending?.reject(new Error(message.error));
    return;
  }
  const { job } = message;
  // The pool counts the render's time from here, not from when it was queued.
  send({ type: 'started', id: job.id });
  handle(job).then(
    (reply) => send({ type: 'done', reply }),
    (error: unknown) =>
      send({
        type: 'failed',
        id: job.id,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
  );
});

send({ type: 'ready' });
