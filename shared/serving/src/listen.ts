import type { FastifyInstance } from 'fastify';

/**
 * Listens on `host`, or on every interface as Node's own servers do: IPv6 and IPv4 where the host
 * has IPv6, IPv4 alone where it has not.
 */
export async function listenOn(app: FastifyInstance, port: number, host?: string): Promise<string> {
  if (host) return app.listen({ port, host });
  try {
    return await app.listen({ port, host: '::' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EAFNOSUPPORT') throw error;
    return app.listen({ port, host: '0.0.0.0' });
  }
}
