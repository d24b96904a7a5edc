/**
 * The validators the conditional requests name: the ETag each path has when the run starts, asked
 * of the running server.
 */
import { exchange, header } from './raw-http';
import type { Surface } from './surface';

/** Accept-Encoding values the conditional requests are made with (null: none sent). */
const CONDITIONAL_ENCODINGS = ['gzip, deflate, br', 'gzip', 'identity', 'br;q=0, gzip', null];

/** The ETag each path has now, per Accept-Encoding (a server may tag each coding apart). */
export async function currentEtags(surface: Surface, paths: string[]): Promise<Surface['etags']> {
  const out: Surface['etags'] = [];
  for (const p of paths) {
    for (const acceptEncoding of CONDITIONAL_ENCODINGS) {
      const request =
        `GET ${p} HTTP/1.1\r\nHost: localhost:${surface.port}\r\nConnection: close\r\n` +
        (acceptEncoding === null ? '' : `Accept-Encoding: ${acceptEncoding}\r\n`) +
        '\r\n';
      const outcome = await exchange(surface.port, Buffer.from(request), {
        isHead: false,
        timeoutMs: 10_000,
      });
      if (outcome.kind !== 'answer' || outcome.answer.status !== 200)
        throw new Error(
          `GET ${p} on the ${surface.name} server did not answer 200 (${outcome.kind})`,
        );
      const etag = header(outcome.answer, 'etag');
      if (etag) out.push({ path: p, acceptEncoding, etag });
    }
  }
  return out;
}
