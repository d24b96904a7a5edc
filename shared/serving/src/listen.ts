import net from 'node:net';
import type { FastifyInstance } from 'fastify';

const HOST_NAME =
  /^(?=.{1,253}$)[a-z\d](?:[a-z\d-]{0,61}[a-z\d])?(?:\.[a-z\d](?:[a-z\d-]{0,61}[a-z\d])?)*$/i;

/**
 * An address a server can be told to listen on: an IP address or a host name. Digits and dots only
 * are an IPv4 address mistyped (256.1.1.1), never a name to look up. (HOST, MAIL_SERVICE_HOST)
 */
export const isListenHost = (value: string): boolean =>
  net.isIP(value) !== 0 || (HOST_NAME.test(value) && !/^[\d.]+$/.test(value));

/** What HOST and MAIL_SERVICE_HOST accept, for their refusals. */
export const LISTEN_HOST_FORMS = 'an IP address such as 127.0.0.1 or ::, or a host name';

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
