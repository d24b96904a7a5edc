/**
 * The header values servers get wrong: Accept-Encoding with q-values, If-None-Match,
 * If-Modified-Since, Range, Host, X-Forwarded-* and Content-Type, well formed and not.
 */
import type { Random } from './random';

export const ACCEPT_ENCODINGS = [
  'gzip, deflate, br',
  'gzip, deflate, br, zstd',
  'br',
  'gzip',
  'deflate',
  'identity',
  '*',
  '',
  'br, gzip',
  'br;q=0, gzip',
  'br;q=0',
  'gzip;q=0, br',
  'gzip;q=0',
  '*;q=0',
  '*;q=0, identity',
  'gzip;q=0, br;q=0',
  'br;q=0.0, gzip;q=1',
  'BR;Q=0, gzip',
  'br; q=0, gzip',
  'br ;q=0, gzip',
  'gzip;q=0.000, *',
  '*, br;q=0',
  'identity;q=0',
  'br;q=0.5, gzip;q=0',
  'gzip;q=0.5, br;q=0.4',
  'br;q=0.001, gzip;q=0.002',
  'br;q=',
  'br;q=abc',
  ';;;',
  ',,,',
  'gzip;q=1.5',
  'br;q=-1',
  'br;q=0;q=1',
  'x-gzip',
  'gzip;level=9',
  'brotli',
  'b r',
  `${'gzip, '.repeat(300)}br;q=0`,
];

const CODINGS = [
  'br',
  'gzip',
  'deflate',
  'identity',
  '*',
  'zstd',
  'compress',
  'x-gzip',
  'BR',
  'Gzip',
];
const QVALUES = ['0', '0.0', '0.000', '0.5', '1', '1.0', '0.001', '0.999'];

export function pickAcceptEncoding(r: Random): string {
  if (r.chance(0.6)) return r.pick(ACCEPT_ENCODINGS);
  const n = r.int(1, 4);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const coding = r.pick(CODINGS);
    parts.push(r.chance(0.5) ? `${coding};q=${r.pick(QVALUES)}` : coding);
  }
  return parts.join(r.pick([', ', ',', ' , ']));
}

export const IF_NONE_MATCH_GARBAGE = [
  '*',
  'W/"x"',
  '"a", "b"',
  '"',
  'W/',
  '""',
  'W/""',
  'garbage',
  '"x", *',
  '*, *',
  `${'"x", '.repeat(400)}"y"`,
  'W/"\u00ff"',
];

export const IF_MODIFIED_SINCE = [
  'yesterday',
  'Thu, 01 Jan 1970 00:00:00 GMT',
  'Fri, 31 Dec 9999 23:59:59 GMT',
  'Sun, 06 Nov 1994 08:49:37 GMT',
  'Sunday, 06-Nov-94 08:49:37 GMT',
  'Sun Nov  6 08:49:37 1994',
  '0',
  '-1',
  '99999999999999999999',
  '',
  'Mon, 32 Foo 2024 99:99:99 GMT',
];

export const RANGES = [
  'bytes=0-0',
  'bytes=-1',
  'bytes=5-2',
  'bytes=0-',
  'bytes=abc',
  'chars=0-1',
  'bytes=99999999999999999999-',
  'bytes=0-0,1-1,2-2,3-3,4-4,5-5,6-6,7-7,8-8,9-9',
  `bytes=${'0-0,'.repeat(200)}0-0`,
  'bytes=-',
  'bytes= 0-1',
  'bytes=0-1;',
  '',
];

export const FORWARDED = [
  'evil.example',
  'javascript:alert(1)',
  'http://evil.example',
  '//evil.example',
  '::1, ::1, ::1',
  'unknown',
  '999.999.999.999',
  '127.0.0.1, evil',
  '%00',
  'x'.repeat(2000),
  '',
  '[',
];

export const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'multipart/form-data',
  'application/json;;;',
  '*/*',
  'garbage',
  '',
];

export function hostValue(r: Random, port: number): string {
  return r.weighted([
    [70, `localhost:${port}`],
    [10, `127.0.0.1:${port}`],
    [
      20,
      r.pick([
        'evil.example',
        'localhost:99999',
        '[',
        '[::1]',
        `localhost:${port}@evil.example`,
        '',
        'a b',
        `localhost:${port}/x`,
        'localhost:-1',
        `localhost:${port}:${port}`,
        'x'.repeat(1000),
        '%00',
        'localhost',
        'LOCALHOST',
      ]),
    ],
  ] as const);
}
