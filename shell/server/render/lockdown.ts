/**
 * What a render process shuts before any remote's code runs. Node's permission model already
 * denies files, processes, threads, addons, the inspector and `process.binding` (so Node's
 * internals cannot be reached another way), but on Node 20 to 24 it does not cover sockets, and it
 * lets a process signal any other process of its user. A page has no business with either.
 *
 * The built-in allow-list (builtins.ts) keeps `net`, `dgram`, `dns`, `http` and the rest from a
 * team's code; this shuts the same doors once more on the classes the process itself has loaded
 * (its stderr and fd 3 are sockets), down to their internals (`_listen2`, `_createServerHandle`),
 * and takes from `process` what could leave the process (execve, addons, environment files,
 * reports written to disk). A remote's code runs after this and never sees the originals. Where
 * the site server runs as root, the operating system is a third wall: the process runs as an
 * unprivileged user in a network namespace of its own (launcher.ts).
 */
import crypto from 'node:crypto';
import dgram from 'node:dgram';
import dns from 'node:dns';
import net from 'node:net';

export class NetworkDisabledError extends Error {
  override name = 'NetworkDisabledError';
  readonly code = 'ERR_NETWORK_DISABLED';
  constructor(what: string) {
    super(`${what}: a render process has no network; a page gets its data from its own build`);
  }
}

class SignalDeniedError extends Error {
  override name = 'SignalDeniedError';
  readonly code = 'ERR_SIGNAL_DENIED';
}

/** Named as Node's permission model names what it denies. */
class ProcessDeniedError extends Error {
  override name = 'ProcessDeniedError';
  readonly code = 'ERR_ACCESS_DENIED';
}

type Methods = Record<string, unknown>;

/** Replaces `target[key]` for good: not writable, not configurable. */
function seal(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: false, configurable: false });
}

const denied = (what: string) =>
  function deniedNetwork(): never {
    throw new NetworkDisabledError(what);
  };

/** Every look-up and resolve function of a `dns` API object (module, promises, Resolver). */
function closeDns(api: Methods, where: string): void {
  for (const key of Object.keys(api)) {
    if (typeof api[key] === 'function' && /^(lookup|resolve|reverse)/.test(key)) {
      seal(api, key, denied(`${where}.${key}`));
    }
  }
}

function closeNetwork(): void {
  const global = globalThis as Methods;
  for (const name of ['fetch', 'WebSocket', 'EventSource']) delete global[name];

  seal(net.Socket.prototype, 'connect', denied('net.Socket connect'));
  seal(net.Server.prototype, 'listen', denied('net.Server listen'));
  seal(net.Server.prototype, '_listen2', denied('net.Server _listen2'));
  seal(net, '_createServerHandle', denied('net._createServerHandle'));
  // A datagram socket opens its handle as it is made, so it is refused at its making.
  seal(dgram, 'createSocket', denied('dgram.createSocket'));
  seal(dgram, 'Socket', denied('dgram.Socket'));
  for (const key of ['bind', 'connect', 'send']) {
    seal(dgram.Socket.prototype, key, denied(`dgram.Socket ${key}`));
  }
  closeDns(dns as unknown as Methods, 'dns');
  closeDns(dns.Resolver.prototype as unknown as Methods, 'dns.Resolver');
  closeDns(dns.promises as unknown as Methods, 'dns.promises');
  closeDns(dns.promises.Resolver.prototype as unknown as Methods, 'dns.promises.Resolver');

  // The process's own pipes (stderr, the channel to the site server) are reachable from
  // JavaScript; their handle class could otherwise make or reach a UNIX socket by path.
  const handles = [
    (process.stderr as unknown as { _handle?: object })._handle,
    (process as unknown as { channel?: object }).channel,
  ];
  for (const handle of handles) {
    const proto = handle ? (Object.getPrototypeOf(handle) as Methods | null) : null;
    if (!proto) continue;
    for (const key of ['bind', 'listen', 'connect']) {
      if (typeof proto[key] === 'function') seal(proto, key, denied(`pipe ${key}`));
    }
  }
}

/** What of `process` reaches outside the process: replaced by a function that refuses. */
const PROCESS_EXITS = [
  'binding',
  '_linkedBinding',
  'dlopen',
  'execve',
  'loadEnvFile',
  'chdir',
  'openStdin',
  'setuid',
  'setgid',
  'seteuid',
  'setegid',
  'setgroups',
  'initgroups',
  '_debugEnd',
  '_startProfilerIdleNotifier',
  '_stopProfilerIdleNotifier',
];

function closeProcess(): void {
  const internals = process as unknown as Methods;
  for (const key of PROCESS_EXITS) {
    if (typeof internals[key] !== 'function') continue;
    seal(process, key, () => {
      throw new ProcessDeniedError(`a render process may not call process.${key}`);
    });
  }
  // A diagnostic report is written to a file of the process's choosing.
  seal(process, 'report', undefined);
  // `crypto` is allowed, but an OpenSSL engine is a shared library loaded from a path.
  seal(crypto, 'setEngine', () => {
    throw new ProcessDeniedError('a render process may not load an OpenSSL engine');
  });
}

/** A render process may signal itself (an abort), never the site server or anyone else. */
function closeSignals(): void {
  const own = process.kill.bind(process);
  seal(process, 'kill', (pid: number, signal?: string | number) => {
    if (pid !== process.pid) throw new SignalDeniedError(`a render process may not signal ${pid}`);
    return own(pid, signal);
  });
  const internals = process as unknown as Methods;
  for (const key of ['_kill', '_debugProcess']) {
    if (typeof internals[key] === 'function') {
      seal(process, key, () => {
        throw new SignalDeniedError(`a render process may not call process.${key}`);
      });
    }
  }
}

/**
 * `node -e` puts its module's `require`, `module` and `exports` on the global object; a remote's
 * code gets the shell's `require` (the packages it provides) and nothing else.
 */
function dropEvalGlobals(): void {
  const global = globalThis as Methods;
  for (const name of ['require', 'module', 'exports', '__filename', '__dirname']) {
    delete global[name];
  }
}

export function lockDown(): void {
  closeNetwork();
  closeSignals();
  closeProcess();
  dropEvalGlobals();
}
