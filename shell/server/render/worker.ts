/**
 * A render process. The shell's processes render the frame of every page (layout, navbar,
 * footer) and the shell's own pages; a group's processes render that group's pages and nothing
 * else, with that group's Node build, one version per process. A process is started by the site
 * server (render/pool.ts) with an empty environment, under Node's permission model (it may read
 * the shell's server build and nothing else), where the server runs as root as an unprivileged
 * user in a network namespace of its own (launcher.ts); before any code but this file's runs, it
 * shuts every Node built-in but a few (builtins.ts) and its way to the network (lockdown.ts).
 *
 * It talks to the site server over fd 3, one JSON document per line (channel.ts, protocol.ts). It fetches
 * nothing: a group's Node build arrives as the first message, checked against its pin by the site
 * server. Whatever it answers counts for its own group only: the site server knows which group a
 * process runs, and never takes the process's word for it.
 */
import { createRequire } from 'node:module';
import net from 'node:net';
import vm from 'node:vm';
import type { RemoteDeployment, RemotePagesModule } from '@site/contracts';
import { restrictBuiltins } from './builtins';
import { MAX_TO_WORKER_BYTES, frame, readFrames } from './channel';
import { lockDown } from './lockdown';
import type {
  FromWorker,
  PartReply,
  RenderJob,
  ShellServerBuild,
  ToWorker,
  WorkerData,
} from './protocol';

const data = JSON.parse(process.argv[1] ?? 'null') as WorkerData;
// Opened before a team's code runs, and held in this file's scope only.
const channel = new net.Socket({ fd: 3, readable: true, writable: true });
const send = (message: FromWorker): void => void channel.write(frame(message));
// Without the site server there is nothing to render for.
channel.on('close', () => process.exit(0));
channel.on('error', () => process.exit(0));

const builtin = restrictBuiltins();
lockDown();
const shell = createRequire(data.renderBundle)(data.renderBundle) as ShellServerBuild;

/** The group's pages, once its Node build has run; the shell's processes have none. */
let groupPages: Promise<RemotePagesModule> | undefined;

/**
 * Runs the group's Node build as a CommonJS module whose `require` hands it the shell's React and
 * shared package and the allowed built-ins, and nothing else. `import()` inside it is refused: a
 * vm script has no module loader unless given one.
 */
function runGroupBuild(url: string, code: string): RemotePagesModule {
  const module = { exports: {} as Record<string, unknown> };
  const run = vm.runInThisContext(`(function (exports, require, module) {${code}\n})`, {
    filename: url,
  }) as (exports: unknown, require: (name: string) => unknown, module: unknown) => void;
  run(
    module.exports,
    (name) => {
      if (Object.hasOwn(shell.provided, name)) return shell.provided[name];
      return builtin(name);
    },
    module,
  );
  const pages = (module.exports as Partial<RemotePagesModule>).pages;
  if (!pages || typeof pages !== 'object') throw new Error(`${url} exports no pages`);
  return { pages };
}

function loadRemote(remote: RemoteDeployment): Promise<RemotePagesModule> {
  const group = data.group;
  if (!group || !groupPages) {
    return Promise.reject(new Error("the shell's render processes run no group's code"));
  }
  if (remote.name !== group.name || remote.version !== group.version) {
    return Promise.reject(
      new Error(`this process renders ${group.name}@${group.version} only, not ${remote.name}`),
    );
  }
  return groupPages;
}

async function render(job: RenderJob): Promise<PartReply> {
  const request = {
    manifest: job.manifest,
    path: job.path,
    loadRemote,
    ...(job.contactForm ? { contactForm: job.contactForm } : {}),
    ...(job.retention ? { retention: job.retention } : {}),
  };
  const result =
    job.unavailable === undefined
      ? await shell.renderPage(request, job.part)
      : await shell.renderUnavailable(
          request,
          job.unavailable,
          job.part,
          job.crashed ? 'crashed' : 'unavailable',
        );
  return {
    id: job.id,
    status: result.status,
    html: result.html,
    meta: result.meta,
    failure: result.failure ?? null,
    crashed: result.broken === 'crashed',
  };
}

const describe = (error: unknown): string =>
  error instanceof Error ? (error.stack ?? error.message) : String(error);

function onMessage(line: string): void {
  const message = JSON.parse(line) as ToWorker;
  if (message.type === 'code') {
    if (!data.group || groupPages) return;
    try {
      groupPages = Promise.resolve(runGroupBuild(message.url, message.text));
      send({ type: 'ready' });
    } catch (error) {
      // The pool reads the reason from stderr when the process ends.
      process.stderr.write(`${message.url} could not be loaded: ${describe(error)}\n`);
      process.exit(70);
    }
    return;
  }
  const { job } = message;
  // The pool counts the render's time from here, not from when it was queued.
  send({ type: 'started', id: job.id });
  render(job).then(
    (reply) => send({ type: 'done', reply }),
    (error: unknown) => send({ type: 'failed', id: job.id, error: describe(error) }),
  );
}

readFrames(channel, MAX_TO_WORKER_BYTES, onMessage, (bytes) => {
  process.stderr.write(`a message of over ${MAX_TO_WORKER_BYTES} bytes (${bytes}) was sent\n`);
  process.exit(70);
});

// The shell's processes are ready now; a group's once its build has run.
if (!data.group) send({ type: 'ready' });
