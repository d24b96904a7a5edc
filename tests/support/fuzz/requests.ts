/**
 * Whole requests, written out as bytes: a method (common and odd), a target from `targets.ts`,
 * an HTTP version, header sets with the fields servers get wrong (Accept-Encoding with q-values,
 * If-None-Match, If-Modified-Since, Range, Host, X-Forwarded-*, Content-Length and
 * Transfer-Encoding), and bodies. Each request says what the oracle may expect of its answer.
 */
import { apiTarget, deployTarget } from './api-requests';
import { IF_MODIFIED_SINCE } from './header-values';
import { headerName, headersAndBody } from './headers';
import type { Random } from './random';
import type { FuzzCase, Surface } from './surface';
import { pickTarget, queryString } from './targets';

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
