/**
 * The encoding a response is sent in, negotiated from Accept-Encoding with its q-values
 * (`negotiator`), for bodies the server makes and for the build's precompressed files alike.
 */
import type { FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';

/** An encoding the builds write copies in, and the site server compresses pages in. */
export type Encoding = 'br' | 'gzip';

const ENCODINGS = ['br', 'gzip', 'identity'];

/** `negotiator` 1.x takes the server's order of preference for ties; its types predate that. */
type EncodingNegotiator = {
  encoding(available: string[], options: { preferred: string[] }): string | undefined;
};

/**
 * Choices already made, by the Accept-Encoding they were made for: clients send a handful of
 * spellings, and every page answer asks. Bounded: spellings up to CHOICES_KEY_MAX characters are
 * kept, and past CHOICES_MAX of them it starts again.
 */
const choices = new Map<string | undefined, Encoding | null>();
const CHOICES_MAX = 256;
const CHOICES_KEY_MAX = 256;

/** The encoding to send, or null for the body as it is. */
export function negotiateEncoding(request: FastifyRequest): Encoding | null {
  const asked = request.headers['accept-encoding'];
  let chosen = choices.get(asked);
  if (chosen === undefined) {
    const negotiator = new Negotiator(request.raw) as unknown as EncodingNegotiator;
    const named = negotiator.encoding(ENCODINGS, { preferred: ENCODINGS });
    chosen = named === 'br' || named === 'gzip' ? named : null;
    if (choices.size >= CHOICES_MAX) choices.clear();
    if ((asked?.length ?? 0) <= CHOICES_KEY_MAX) choices.set(asked, chosen);
  }
  return chosen;
}

/**
 * Narrows a request's Accept-Encoding to the one encoding `negotiator` chose, for the static file
 * plugin: it reads `*` as gzip before weighing q-values, so `gzip;q=0, *` would get gzip.
 */
export function settleAcceptEncoding(request: FastifyRequest): void {
  if (request.headers['accept-encoding'] === undefined) return;
  request.raw.headers['accept-encoding'] = negotiateEncoding(request) ?? 'identity';
}
