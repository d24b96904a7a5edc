import type { FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import { negotiateEncoding } from '../encoding';

/**
 * The encoding chosen for an Accept-Encoding is kept for the next request with the same header:
 * every spelling still gets what `negotiator` itself chooses, however many spellings come, however
 * long or strange, and in whatever order.
 */
const request = (acceptEncoding?: string) =>
  ({
    headers: { 'accept-encoding': acceptEncoding },
    raw: { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } },
  }) as unknown as FastifyRequest;

function expected(acceptEncoding?: string): string | null {
  const raw = {
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  };
  const chosen = (
    new Negotiator(raw) as unknown as {
      encoding(available: string[], options: { preferred: string[] }): string | undefined;
    }
  ).encoding(['br', 'gzip', 'identity'], { preferred: ['br', 'gzip', 'identity'] });
  return chosen === 'br' || chosen === 'gzip' ? chosen : null;
}

const SPELLINGS = [
  undefined,
  '',
  'gzip',
  'br',
  'gzip, deflate, br, zstd',
  'gzip;q=0, *',
  'br;q=0, gzip;q=0',
  'identity',
  '*;q=0',
  'gzip;q=0.5, br;q=0.4',
  'x'.repeat(300),
  `gzip, ${'y'.repeat(8000)}`,
  'br\u2028',
  'gzip\0',
  'br;q=\ud800',
];

test('every spelling, asked once and again, gets what negotiator chooses', () => {
  for (const round of [1, 2]) {
    for (const spelling of SPELLINGS) {
      expect([round, spelling, negotiateEncoding(request(spelling))]).toEqual([
        round,
        spelling,
        expected(spelling),
      ]);
    }
  }
});

test('a stream of made-up spellings leaves every later answer right', () => {
  for (let i = 0; i < 5000; i++) {
    const spelling = i % 2 ? `gzip;q=0.${i % 10}, br;q=0.${(i * 7) % 10}, z${i}` : `z${i}, *;q=0`;
    expect(negotiateEncoding(request(spelling))).toBe(expected(spelling));
  }
  for (const spelling of SPELLINGS)
    expect(negotiateEncoding(request(spelling))).toBe(expected(spelling));
});
