/**
 * How long a client may take to send a request and how many connections it may hold, for every
 * HTTP server of ours (the site server, the remotes' static hosts, the mail-service). Without these
 * a connection that declares a body and never sends it stays open for good (Fastify turns Node's
 * request timeout off), and a few thousand of them from one address use up the process's file
 * descriptors, after which no visitor is answered.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  /** A request's headers must be complete this long after its first byte (or the connection). */
  headersTimeoutMs: number;
  /** The whole request, headers and body, must arrive within this long. */
  requestTimeoutMs: number;
  /** A kept-alive connection with no request in flight is closed after this long. */
  keepAliveTimeoutMs: number;
  /**
   * Connections one client address may hold at once; one more is answered 503 and closed.
   * 0: no limit per address (a server only its own proxy reaches).
   */
  maxPerClient: number;
  /** Connections the server holds at once, all clients together; more are closed as they come. */
  maxConnections: number;
}

/** The file descriptors this process may open (its soft limit), where the system says. */
export function openFileLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\d+|unlimited)/m.exec(
      readFileSync('/proc/self/limits', 'utf8'),
    );
    return line?.[1] && line[1] !== 'unlimited' ? Number(line[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Connections, all clients together: four fifths of the file descriptors, so that files, render
 * processes and database connections keep the rest; 8,000 where the limit cannot be read.
 */
export const defaultMaxConnections = (files = openFileLimit()): number =>
  files === undefined ? 8000 : Math.max(64, Math.floor(files * 0.8));

export const CONNECTION_LIMITS: ConnectionLimits = {
  // A browser sends its headers in one packet; ten seconds covers a phone on a poor network.
  headersTimeoutMs: 10_000,
  // The largest body any of our servers takes is a few tens of kilobytes (a deploy, a message).
  requestTimeoutMs: 30_000,
  // Longer than the 60 s a balancer (nginx, a CDN) keeps an idle upstream connection, so it is
  // always the balancer that lets go first and never sends a request onto a closing connection.
  keepAliveTimeoutMs: 72_000,
  // A browser opens at most six per origin; 256 leaves room for an office behind one address.
  maxPerClient: 256,
  maxConnections: defaultMaxConnections(),
};

/**
 * How often Node looks for requests past their time (its default is 30 s, which would let a
 * 10 s bound run to 40 s); the bounds hold within this.
 */
export const CHECK_INTERVAL_MS = 500;

const limitsOf = new WeakMap<http.Server, ConnectionLimits>();

/** `::ffff:127.0.0.1` and `127.0.0.1` are one client. */
const clientOf = (socket: Socket) => (socket.remoteAddress ?? '').replace(/^::ffff:/, '');

const TURNED_AWAY =
  'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 10\r\n' +
  'Content-Type: text/plain; charset=utf-8\r\nContent-Length: 42\r\n\r\n' +
  'Too many connections from your address.\r\n\r\n';

/**
 * Applies `limits` to a server made by `createLimitedServer` (before it listens); applied again,
 * the new limits replace the old. Node checks the timeouts itself (a late request is answered 408
 * and closed); the count per address is kept here.
 */
export function limitConnections(server: http.Server, limits: ConnectionLimits): http.Server {
  if (limits.requestTimeoutMs < limits.headersTimeoutMs) {
    throw new RangeError(
      `the request timeout (${limits.requestTimeoutMs} ms) is shorter than the headers timeout (${limits.headersTimeoutMs} ms)`,
    );
  }
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.maxConnections = limits.maxConnections;
  const first = !limitsOf.has(server);
  limitsOf.set(server, limits);
  if (first) {
    const open = new Map<string, number>();
    server.on('connection', (socket: Socket) => {
      const { maxPerClient } = limitsOf.get(server)!;
      const client = clientOf(socket);
      const count = (open.get(client) ?? 0) + 1;
      if (maxPerClient > 0 && count > maxPerClient) {
        socket.end(TURNED_AWAY);
        // A client that does not read the answer does not keep the socket either.
        setTimeout(() => socket.destroy(), 1000).unref();
        return;
      }
      open.set(client, count);
      socket.once('close', () => {
        const left = (open.get(client) ?? 1) - 1;
        if (left > 0) open.set(client, left);
        else open.delete(client);
      });
    });
  }
  return server;
}

/**
 * Node's options for a server the limits will be applied to (`limitConnections`): Fastify's `http`
 * option, where Fastify makes the server itself (and so binds every address of a host name).
 */
export const LIMITED_SERVER_OPTIONS = { connectionsCheckingInterval: CHECK_INTERVAL_MS };

/** An HTTP server with `limits`: Express's server. */
export const createLimitedServer = (
  handler: http.RequestListener,
  limits: ConnectionLimits = CONNECTION_LIMITS,
): http.Server =>
  limitConnections(
    http.createServer({ connectionsCheckingInterval: CHECK_INTERVAL_MS }, handler),
    limits,
  );
