import type { Server } from 'node:http';
import net from 'node:net';

/**
 * Listens on the first free port of `ports` (tests that run side by side each have a range of
 * their own), trying them in the order given. Resolves with the port, or rejects when none is free.
 */
export async function listenOnFreePort(
  server: Server,
  ports: readonly number[],
  host = '127.0.0.1',
): Promise<number> {
  for (const port of ports) {
    const listening = await new Promise<boolean>((resolve, reject) => {
      const onError = (error: NodeJS.ErrnoException) =>
        error.code === 'EADDRINUSE' ? resolve(false) : reject(error);
      server.once('error', onError);
      server.listen(port, host, () => {
        server.off('error', onError);
        resolve(true);
      });
    });
    if (listening) return port;
  }
  throw new Error(`no free port from ${Math.min(...ports)} to ${Math.max(...ports)}`);
}

/** The ports from `from` to `to`, both included, starting from `start` and wrapping round. */
export function portRange(from: number, to: number, start = from): number[] {
  const size = to - from + 1;
  return Array.from({ length: size }, (_, i) => from + ((start - from + i) % size));
}

/** A port no one listens on now, from the system's ephemeral range (never a test range's). */
export function ephemeralPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
