/**
 * A request's header lines and body: the fields in common and odd spellings, bytes HTTP forbids,
 * and every way of framing a body (Content-Length short, long or garbage, chunked, both).
 */
import { deployBody } from './api-requests';
import {
  CONTENT_TYPES,
  FORWARDED,
  IF_MODIFIED_SINCE,
  IF_NONE_MATCH_GARBAGE,
  RANGES,
  hostValue,
  pickAcceptEncoding,
} from './header-values';
import type { Random } from './random';
import type { Surface } from './surface';

interface Built {
  lines: { name: string; value: string }[];
  body: Buffer;
  forbidden: boolean;
  mayDrop: boolean;
  incomplete: boolean;
}

export function headerName(r: Random, name: string): string {
  if (r.chance(0.85)) return name;
  return r.chance(0.5) ? name.toLowerCase() : name.toUpperCase();
}

function chunked(body: Buffer): Buffer {
  if (!body.length) return Buffer.from('0\r\n\r\n');
  return Buffer.concat([
    Buffer.from(`${body.length.toString(16)}\r\n`),
    body,
    Buffer.from('\r\n0\r\n\r\n'),
  ]);
}

/** Headers and body for a request of `method` to `target`. */
export function headersAndBody(r: Random, surface: Surface, method: string, target: string): Built {
  const lines: { name: string; value: string }[] = [];
  const add = (name: string, value: string) => lines.push({ name: headerName(r, name), value });
  let forbidden = false;
  let mayDrop = false;
  let incomplete = false;

  const host = r.weighted([
    [90, 'one'],
    [5, 'none'],
    [5, 'two'],
  ] as const);
  if (host !== 'none') add('Host', hostValue(r, surface.port));
  if (host === 'two') add('Host', hostValue(r, surface.port));

  if (r.chance(0.6)) add('Accept-Encoding', pickAcceptEncoding(r));
  if (r.chance(0.05)) add('Accept-Encoding', pickAcceptEncoding(r));
  if (r.chance(0.15)) {
    const etag = surface.etags.length && r.chance(0.5) ? r.pick(surface.etags).etag : null;
    add(
      'If-None-Match',
      etag ? `W/${etag.replace(/^W\//, '')}, "x"` : r.pick(IF_NONE_MATCH_GARBAGE),
    );
  }
  if (r.chance(0.1)) add('If-Modified-Since', r.pick(IF_MODIFIED_SINCE));
  if (r.chance(0.08)) add('Range', r.pick(RANGES));
  if (r.chance(0.03)) add('If-Range', r.pick(['"x"', 'W/"x"', 'yesterday', '']));
  if (r.chance(0.1)) {
    for (const name of [
      'X-Forwarded-For',
      'X-Forwarded-Host',
      'X-Forwarded-Proto',
      'X-Forwarded-Prefix',
      'Forwarded',
    ]) {
      if (r.chance(0.5)) add(name, r.pick(FORWARDED));
    }
  }
  const deploy = target.toLowerCase().includes('_deploy');
  if (r.chance(deploy ? 0.75 : 0.05)) {
    const token = surface.token ?? 'x';
    add(
      'Authorization',
      r.weighted([
        [6, `Bearer ${token}`],
        [1, `Bearer ${token}x`],
        [1, 'Bearer '],
        [1, `bearer ${token}`],
        [1, `Basic ${Buffer.from(`x:${token}`).toString('base64')}`],
        [
          1,
          r.pick(['Bearer', 'garbage', `Bearer ${'x'.repeat(4000)}`, `Bearer ${token} ${token}`]),
        ],
      ] as const),
    );
  }
  if (r.chance(0.2))
    add('Accept', r.pick(['*/*', 'text/html', 'application/json', '', 'garbage', 'text/html;q=0']));
  if (r.chance(0.3))
    add('User-Agent', r.pick(['Mozilla/5.0', 'curl/8.0', '', 'x'.repeat(3000), "' OR 1=1 --"]));
  if (r.chance(0.15))
    add('Connection', r.pick(['close', 'keep-alive', 'Upgrade', 'close, te', 'garbage', '']));
  if (r.chance(0.03)) add('Upgrade', r.pick(['websocket', 'h2c', 'garbage']));
  if (r.chance(0.03)) add('Expect', r.pick(['100-continue', 'garbage', '']));
  if (r.chance(0.1))
    add(
      r.pick(['Origin', 'Referer']),
      r.pick(['http://evil.example', 'null', '', '//evil.example', 'x']),
    );
  if (r.chance(0.05)) add('Cookie', r.pick(['a=b', '=', ';;;', `x=${'y'.repeat(2000)}`, 'csrf=%']));
  if (r.chance(0.1))
    add(
      `X-${r.string(r.int(1, 20), 'abcdefghijklmnopqrstuvwxyz-')}`,
      r.string(r.int(0, 40), 'ab %;,="'),
    );
  if (r.chance(0.03)) add('X-Long', 'v'.repeat(r.int(1000, 8000)));
  if (r.chance(0.02)) {
    add('X-Control', `a${r.pick(['\u0000', '\u0001', '\u007f', '\u000b', 'é'])}b`);
    forbidden = true;
  }
  if (r.chance(0.01)) {
    // A space before the colon, or a folded line: HTTP/1.1 forbids both.
    lines.push({ name: 'X-Space ', value: 'x' });
    forbidden = true;
  }

  const wantsBody = ['POST', 'PUT', 'PATCH'].includes(method) || r.chance(0.08);
  let body: Buffer = Buffer.alloc(0);
  if (wantsBody) {
    const text = deploy
      ? deployBody(r, surface.allowedOrigin)
      : r.pick([
          '',
          '{}',
          '{"name":"x","email":"a@b.c","message":"hi"}',
          'a=b&c=d',
          'x'.repeat(r.int(1, 20000)),
          '\u0000\u0001\u0002',
        ]);
    body = Buffer.from(text);
    if (r.chance(0.15)) add('Content-Type', r.pick(CONTENT_TYPES));
    else add('Content-Type', 'application/json');
    if (body.length > 16 * 1024) mayDrop = true;
  }
  const framing = r.weighted([
    [80, 'length'],
    [5, 'none'],
    [4, 'chunked'],
    [3, 'short'],
    [3, 'long'],
    [3, 'garbage'],
    [2, 'both'],
  ] as const);
  if (!wantsBody && framing !== 'chunked' && framing !== 'garbage') {
    if (r.chance(0.05)) add('Content-Length', '0');
  } else if (framing === 'length') add('Content-Length', String(body.length));
  else if (framing === 'chunked') {
    add('Transfer-Encoding', r.pick(['chunked', 'chunked', 'gzip, chunked', 'Chunked']));
    body = chunked(body);
  } else if (framing === 'short') {
    // Declares more than is sent: the server is left waiting for the rest.
    add('Content-Length', String(body.length + r.int(1, 100)));
    incomplete = true;
  } else if (framing === 'long') {
    // Declares less: the rest is read as the start of a next request.
    add('Content-Length', String(Math.max(0, body.length - r.int(1, 5))));
  } else if (framing === 'garbage') {
    add('Content-Length', r.pick(['abc', '-1', '1, 2', '99999999999999999999', ' ', '0x10']));
    mayDrop = true;
  } else if (framing === 'both') {
    add('Content-Length', String(body.length));
    add('Transfer-Encoding', 'chunked');
    body = chunked(body);
  }
  return { lines, body, forbidden, mayDrop, incomplete };
}
