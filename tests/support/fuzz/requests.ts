/**
 * Whole requests, written out as bytes: a method (common and odd), a target from `targets.ts`,
 * an HTTP version, header sets with the fields servers get wrong (Accept-Encoding with q-values,
 * If-None-Match, If-Modified-Since, Range, Host, X-Forwarded-*, Content-Length and
 * Transfer-Encoding), and bodies. Each request says what the oracle may expect of its answer.
 */
import type { Random } from './random';
import { pickTarget, queryString } from './targets';

/** What the fuzz knows of one server before it starts. */
export interface Surface {
  name: 'site' | 'remote';
  port: number;
  /** Paths the server answers with 200: pages and files. */
  known: string[];
  /** Where things lie that must never be served, as paths relative to the served folder. */
  secrets: string[];
  /** The server's own routes: generated files, APIs. */
  routes: string[];
  /** The deploy API's token (the site only). */
  token?: string;
  /** Team names to put in deploy API paths (the site only). */
  remoteNames?: string[];
  /** An origin the deploy API is configured to allow (the site only). */
  allowedOrigin?: string;
  /** host:port of a service no request may be forwarded to (the site only). */
  internal?: string;
  /** Current validators: a conditional request naming one of these must get 304. */
  etags: { path: string; acceptEncoding: string | null; etag: string }[];
}

export interface FuzzCase {
  index: number;
  surface: Surface['name'];
  bytes: Buffer;
  method: string;
  target: string;
  isHead: boolean;
  /** The Accept-Encoding field as the server reads it (repeated fields joined), if sent. */
  acceptEncoding: string | null;
  /** The request lists the current ETag of what it asks for. */
  expect304: boolean;
  /**
   * The server must answer. Not so for requests HTTP lets a server drop: forbidden bytes, an
   * unknown version, CONNECT, a body over the limits, or a declared body that never comes.
   */
  mustAnswer: boolean;
  /** The declared body never comes: the server may wait for it. */
  incomplete: boolean;
}

const ODD_METHODS = [
  'TRACE',
  'CONNECT',
  'PROPFIND',
  'PROPPATCH',
  'MKCOL',
  'COPY',
  'MOVE',
  'LOCK',
  'SEARCH',
  'QUERY',
  'PURGE',
  'LINK',
  'M-SEARCH',
  'REPORT',
  'BREW',
  'FOO',
  'get',
  'GeT',
  'head',
  'X'.repeat(64),
  'G\u0000T',
  'GET\u00e9',
];

function pickMethod(r: Random): string {
  return r.weighted([
    [45, 'GET'],
    [12, 'HEAD'],
    [8, 'POST'],
    [6, 'PUT'],
    [4, 'DELETE'],
    [6, 'OPTIONS'],
    [4, 'PATCH'],
    [15, r.pick(ODD_METHODS)],
  ] as const);
}

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

function pickAcceptEncoding(r: Random): string {
  if (r.chance(0.6)) return r.pick(ACCEPT_ENCODINGS);
  const n = r.int(1, 4);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const coding = r.pick(CODINGS);
    parts.push(r.chance(0.5) ? `${coding};q=${r.pick(QVALUES)}` : coding);
  }
  return parts.join(r.pick([', ', ',', ' , ']));
}

const IF_NONE_MATCH_GARBAGE = [
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

const IF_MODIFIED_SINCE = [
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

const RANGES = [
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

const FORWARDED = [
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

const CONTENT_TYPES = [
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

function hostValue(r: Random, port: number): string {
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

/** A JSON value a careless handler might trip on. */
function jsonValue(r: Random, allowed?: string): unknown {
  return r.pick<unknown>([
    'x',
    '',
    'data',
    '1.0.0',
    '1.0.0-rc.1',
    'not-a-version',
    'x'.repeat(600),
    '\u0000\u0001\n',
    'é😀',
    `${allowed ?? 'http://127.0.0.1:1'}/1.0.0/remoteEntry.js`,
    'javascript:alert(1)',
    'http://evil.example/remoteEntry.js',
    '//evil.example/x',
    '__proto__',
    0,
    -1,
    1e308,
    null,
    true,
    [],
    ['x'],
    {},
    { toString: 'x' },
  ]);
}

function deployBody(r: Random, allowed?: string): string {
  if (r.chance(0.2)) {
    return r.pick([
      '',
      '{',
      'null',
      '[]',
      '"x"',
      '1',
      '{"__proto__":{"polluted":1}}',
      '{"constructor":{"prototype":{"x":1}}}',
      `{"base":"${'a'.repeat(20000)}"}`,
      '\u0000',
      '{"base":"x",}',
      `${'['.repeat(5000)}${']'.repeat(5000)}`,
    ]);
  }
  const body: Record<string, unknown> = {};
  for (const key of ['base', 'entry', 'version', 'reason', 'by', 'to']) {
    if (r.chance(0.6)) body[key] = jsonValue(r, allowed);
  }
  return JSON.stringify(body);
}

function deployTarget(r: Random, surface: Surface): string {
  const name = r.pick([
    ...(surface.remoteNames ?? []),
    '%E0%A4%A',
    '%',
    '%ff',
    '..',
    '%2e%2e',
    'a%2fb',
    'Data',
    'x'.repeat(300),
    '%C3%A9',
    '__proto__',
    'constructor',
    'toString',
    '',
    '%00',
  ]);
  return r.pick([
    '/_deploy',
    '/_deploy/',
    '/_deploy/manifest',
    '/_deploy/manifest/',
    '/_deploy/history',
    `/_deploy/history?remote=${name}`,
    `/_deploy/history?remote=${name}&remote=x`,
    '/_deploy/remotes/',
    `/_deploy/remotes/${name}`,
    `/_deploy/remotes/${name}/rollback`,
    `/_deploy/remotes/${name}/rollback/`,
    `/_deploy/remotes/${name}/x`,
    `/_deploy/%2e%2e/manifest`,
    `/_deploy//manifest`,
    `/_Deploy/manifest`,
  ]);
}

function apiTarget(r: Random, surface: Surface): string {
  // Forms a careless forwarder resolves against the request instead of against its upstream.
  const elsewhere = surface.internal
    ? [
        `http://${surface.internal}/api/health`,
        `//${surface.internal}/api/health`,
        `/\\${surface.internal}/api/health`,
        `/%5c${surface.internal}/api/health`,
        `http://evil.example/api/health`,
        `/\\evil.example/api/contact`,
      ]
    : [];
  return r.pick([
    ...elsewhere,
    '/api',
    '/api/',
    '/api/contact',
    '/api/csrf',
    '/api/health',
    '/api/ready',
    '/api/metrics',
    '/api/../about',
    '/api/%2e%2e/about',
    '/api//x:99999/',
    '/api//evil.example/',
    '/api/%E0%A4%A',
    '/api/x?y=%',
    `/api/${'x'.repeat(3000)}`,
    '/api/contact?__proto__[x]=1',
  ]);
}

interface Built {
  lines: { name: string; value: string }[];
  body: Buffer;
  forbidden: boolean;
  mayDrop: boolean;
  incomplete: boolean;
}

function headerName(r: Random, name: string): string {
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
function headersAndBody(r: Random, surface: Surface, method: string, target: string): Built {
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

const VERSIONS = [
  'HTTP/1.2',
  'HTTP/2.0',
  'HTTP/0.9',
  'http/1.1',
  'HTTP/11',
  'HTTP/1.1 ',
  'HTTP/1',
  '',
];

/** The Accept-Encoding a server reads from these header lines: repeated fields joined. */
function acceptEncodingOf(lines: { name: string; value: string }[]): string | null {
  const values = lines
    .filter((l) => l.name.toLowerCase() === 'accept-encoding')
    .map((l) => l.value);
  return values.length ? values.join(', ') : null;
}

function assemble(
  method: string,
  target: string,
  version: string,
  lines: { name: string; value: string }[],
  body: Buffer,
  eol = '\r\n',
): Buffer {
  const head =
    `${method} ${target}${version ? ` ${version}` : ''}${eol}` +
    lines.map((l) => `${l.name}: ${l.value}${eol}`).join('') +
    eol;
  return Buffer.concat([Buffer.from(head, 'utf8'), body]);
}

const ASCII_VISIBLE = /^[\x21-\x7e]*$/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** A request that lists the current ETag of a page or file: it must get 304. */
function conditional(r: Random, surface: Surface, index: number): FuzzCase {
  const { path, acceptEncoding, etag } = r.pick(surface.etags);
  const strong = etag.replace(/^W\//, '');
  const listed = r.pick([
    etag,
    `W/${strong}`,
    strong,
    `"x", ${etag}`,
    `${etag}, "x"`,
    `W/"x",W/${strong}`,
    `  ${etag} ,  "y"  `,
    `"a", "b", W/${strong}, "c"`,
  ]);
  const method = r.chance(0.75) ? 'GET' : 'HEAD';
  const lines = [{ name: 'Host', value: `localhost:${surface.port}` }];
  if (acceptEncoding !== null) lines.push({ name: 'Accept-Encoding', value: acceptEncoding });
  lines.push({ name: headerName(r, 'If-None-Match'), value: listed });
  // If-None-Match decides; If-Modified-Since is then ignored (RFC 9110, 13.1.3).
  if (r.chance(0.3)) lines.push({ name: 'If-Modified-Since', value: r.pick(IF_MODIFIED_SINCE) });
  return {
    index,
    surface: surface.name,
    bytes: assemble(method, path, 'HTTP/1.1', lines, Buffer.alloc(0)),
    method,
    target: path,
    isHead: method === 'HEAD',
    acceptEncoding,
    expect304: true,
    mustAnswer: true,
    incomplete: false,
  };
}

/** The `index`th request of a run against `surface`. */
export function makeCase(r: Random, surface: Surface, index: number): FuzzCase {
  const kind = r.weighted([
    [6, 'conditional'],
    [surface.name === 'site' ? 10 : 0, 'deploy'],
    [surface.name === 'site' ? 5 : 0, 'api'],
    [79, 'general'],
  ] as const);
  if (kind === 'conditional' && surface.etags.length) return conditional(r, surface, index);

  let method = pickMethod(r);
  let target: string;
  let forbiddenTarget = false;
  if (kind === 'deploy') {
    method = r.pick(['GET', 'GET', 'PUT', 'POST', 'POST', 'DELETE', 'HEAD', 'OPTIONS']);
    target = deployTarget(r, surface);
  } else if (kind === 'api') {
    method = r.pick(['GET', 'POST', 'POST', 'HEAD', 'OPTIONS', 'PUT']);
    target = apiTarget(r, surface) + (r.chance(0.1) ? queryString(r) : '');
  } else {
    const paths = [...surface.known, ...surface.secrets, ...surface.routes];
    const plan = pickTarget(r, surface.port, paths);
    target = plan.target;
    forbiddenTarget = plan.forbiddenBytes;
  }
  const version = r.chance(0.9) ? 'HTTP/1.1' : r.chance(0.6) ? 'HTTP/1.0' : r.pick(VERSIONS);
  const built = headersAndBody(r, surface, method, target);
  const eol = r.chance(0.01) ? '\n' : '\r\n';
  const bytes = assemble(method, target, version, built.lines, built.body, eol);
  const oddMethod = !TOKEN.test(method);
  const forbidden =
    forbiddenTarget ||
    built.forbidden ||
    oddMethod ||
    !ASCII_VISIBLE.test(target) ||
    built.lines.some((l) => !/^[\x20-\x7e\t]*$/.test(l.value));
  const mustAnswer =
    !forbidden &&
    !built.mayDrop &&
    !built.incomplete &&
    eol === '\r\n' &&
    (version === 'HTTP/1.1' || version === 'HTTP/1.0') &&
    method !== 'CONNECT' &&
    // Node refuses a head over 16 KiB (431) and may close before the whole request is read.
    bytes.length - built.body.length < 15 * 1024;
  return {
    index,
    surface: surface.name,
    bytes,
    method,
    target,
    isHead: method === 'HEAD',
    acceptEncoding: acceptEncodingOf(built.lines),
    expect304: false,
    mustAnswer,
    incomplete: built.incomplete,
  };
}

/** A request written out exactly as given, for the named cases. */
export function fixedCase(
  surface: Surface,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body = '',
): FuzzCase {
  const lines = [
    { name: 'Host', value: `localhost:${surface.port}` },
    ...Object.entries(headers).map(([name, value]) => ({ name, value })),
  ];
  if (body) lines.push({ name: 'Content-Length', value: String(Buffer.byteLength(body)) });
  return {
    index: 0,
    surface: surface.name,
    bytes: assemble(method, target, 'HTTP/1.1', lines, Buffer.from(body)),
    method,
    target,
    isHead: method === 'HEAD',
    acceptEncoding: acceptEncodingOf(lines),
    expect304: false,
    mustAnswer: true,
    incomplete: false,
  };
}
