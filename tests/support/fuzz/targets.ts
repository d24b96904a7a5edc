/**
 * Request targets an attacker would try: the server's own paths mutated in every encoding
 * (traversal, `%2f`, `%5c`, double encoding, overlong UTF-8, malformed `%`), protocol-relative and
 * backslash forms that browsers read as another host, absolute-form and asterisk targets, raw
 * control bytes and unicode, very long paths, query strings.
 */
import type { Random } from './random';

export interface TargetPlan {
  target: string;
  /** Bytes HTTP does not allow in a target (controls, raw non-ASCII): a server may drop these. */
  forbiddenBytes: boolean;
}

const EVIL = 'evil.example';

/** Whole targets that are trouble on their own, whatever the server's paths. */
function specialTargets(port: number): string[] {
  return [
    '*',
    `http://${EVIL}/`,
    `http://${EVIL}`,
    `https://${EVIL}/about`,
    `http://localhost:${port}/about`,
    `http://127.0.0.1:${port}/`,
    `HTTP://LOCALHOST:${port}/`,
    'http://x:99999/',
    'http://[/',
    'http://@/',
    'ftp://x/',
    'javascript:alert(1)',
    '//x:99999/',
    '//[',
    '//%5B',
    '//[::1]/',
    `//${EVIL}/`,
    `//${EVIL}:80/about`,
    `///${EVIL}/`,
    `/\\${EVIL}/`,
    `\\\\${EVIL}/`,
    `/.//${EVIL}/`,
    `/%2e//${EVIL}/`,
    `/%2E//${EVIL}/`,
    `/./\\${EVIL}/`,
    `/.%2f/${EVIL}/`,
    `/%2f%2f${EVIL}/`,
    `/%5c%5c${EVIL}/`,
    `/%5C${EVIL}/`,
    `/%09/${EVIL}/`,
    `/..//${EVIL}/`,
    `/.../${EVIL}/`,
    `/%2e%2e//${EVIL}/`,
    `/about//${EVIL}/`,
    `/about/.//${EVIL}/`,
    EVIL,
    `localhost:${port}`,
    '?',
    '/?',
    '/#',
    '/%',
    '/%%',
    '/%zz',
    '/%E0%A4%A',
    '/%c0%ae%c0%ae/',
    '/%u002e%u002e/',
    '/..;/',
    '/;/',
    '/.',
    '/..',
    '/./',
    '/../',
  ];
}

const TRAVERSALS = [
  '../',
  '..%2f',
  '..%2F',
  '%2e%2e/',
  '%2e%2e%2f',
  '%2E%2E%2F',
  '.%2e/',
  '%2e./',
  '..\\',
  '..%5c',
  '%2e%2e%5c',
  '%252e%252e%252f',
  '..%252f',
  '%c0%ae%c0%ae/',
  '%c0%ae%c0%ae%c0%af',
  '%e0%80%ae%e0%80%ae/',
  '..%c0%af',
  '..%c1%9c',
  '....//',
  '..;/',
  '%2e%2e;/',
  '.%00./',
];

const MALFORMED_PERCENT = [
  '%',
  '%%',
  '%A',
  '%G0',
  '%0G',
  '%E0%A4%A',
  '%E0%A4',
  '%C0',
  '%FF',
  '%FE%FF',
  '%ED%A0%80',
  '%uFFFF',
  '%00',
  '%25',
  '%2',
];

const INSERTS = [
  './',
  '//',
  '/\\',
  '\\',
  '%5c',
  '%2f',
  '%2F',
  '%2e/',
  '/.',
  ';',
  ';x=1',
  '%3b',
  '~',
  '%7e',
];

const SUFFIXES = [
  '/',
  '//',
  '/.',
  '/..',
  '%2f',
  '%2e',
  '.',
  '..',
  '~',
  '.bak',
  '.swp',
  '%00.html',
  '%00',
  ';',
  '::$DATA',
  '/index.html',
  '%20',
  '+',
];

/** Raw bytes no target may carry. */
const CONTROL = ['\u0000', '\u0001', '\u0007', '\u0008', '\u001b', '\u007f', '\t', ' ', '\u000b'];

/** Unicode look-alikes of dot and slash, and other code points, sent raw (as UTF-8). */
const UNICODE_RAW = [
  'é',
  '\u2024',
  '\uff0e',
  '\u2215',
  '\u2044',
  '\uff0f',
  '\u2025',
  '😀',
  '\u202e',
  'İ',
];

/** The same look-alikes percent-encoded as UTF-8. */
const UNICODE_ENCODED = [
  '%C3%A9',
  '%E2%80%A4',
  '%EF%BC%8E',
  '%E2%88%95',
  '%EF%BC%8F',
  '%F0%9F%98%80',
  '%E2%80%AE',
  '%C4%B0',
];

const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(2, '0');

function encodeOne(r: Random, path: string): string {
  const positions = [...path].map((c, i) => [c, i] as const).filter(([c]) => c !== '%');
  if (!positions.length) return path;
  const [c, i] = r.pick(positions);
  if (c.charCodeAt(0) > 0x7f) return path;
  const code = hex(c);
  const encoded = `%${r.chance(0.5) ? code.toUpperCase() : code}`;
  return path.slice(0, i) + encoded + path.slice(i + 1);
}

function doubleEncode(r: Random, path: string): string {
  if (path.includes('%') && r.chance(0.6)) return path.replace('%', '%25');
  const dot = path.lastIndexOf('.');
  const slash = path.lastIndexOf('/');
  const at = r.chance(0.5) && dot > 0 ? dot : slash;
  if (at < 0) return path;
  return `${path.slice(0, at)}%25${hex(path[at] as string)}${path.slice(at + 1)}`;
}

function overlong(r: Random, path: string): string {
  const forms: Record<string, string[]> = {
    '.': ['%c0%ae', '%C0%AE', '%e0%80%ae', '%f0%80%80%ae'],
    '/': ['%c0%af', '%C0%AF', '%e0%80%af', '%c1%9c'],
  };
  const at = [...path].map((c, i) => [c, i] as const).filter(([c]) => c in forms);
  if (!at.length) return path;
  const [c, i] = r.pick(at);
  return path.slice(0, i) + r.pick(forms[c] as string[]) + path.slice(i + 1);
}

/** Inserts `what` after one of the path's slashes. */
function atSlash(r: Random, path: string, what: string): string {
  const slashes = [...path].map((c, i) => [c, i] as const).filter(([c]) => c === '/');
  if (!slashes.length) return what + path;
  const [, i] = r.pick(slashes);
  return path.slice(0, i + 1) + what + path.slice(i + 1);
}

function changeCase(r: Random, path: string): string {
  const letters = [...path].map((c, i) => [c, i] as const).filter(([c]) => /[a-z]/i.test(c));
  if (!letters.length) return path;
  if (r.chance(0.3)) return r.chance(0.5) ? path.toUpperCase() : path.toLowerCase();
  const [c, i] = r.pick(letters);
  const swapped = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
  return path.slice(0, i) + swapped + path.slice(i + 1);
}

function lengthen(r: Random, path: string): string {
  const unit = r.pick(['a', 'a/', '../', './', '%2e%2e%2f', '/', 'x'.repeat(200) + '/', '%41']);
  const target = r.pick([1000, 4000, 7000]);
  return path + unit.repeat(Math.ceil(target / unit.length));
}

export function queryString(r: Random): string {
  const values = [
    'x=1',
    'a=b&a=c',
    '',
    '=',
    '&&&',
    'q=%',
    'q=%E0%A4%A',
    'next=//evil.example/',
    'redirect=http://evil.example/',
    'url=/\\evil.example',
    'remote=data',
    'remote=%00',
    '__proto__[x]=1',
    'constructor=1',
    'callback=alert',
    `v=${'x'.repeat(2000)}`,
    '?',
    '#frag',
    'a=%2f..%2f..%2f',
    'utm_source=x&utm_medium=y',
  ];
  return `?${r.pick(values)}`;
}

/** Applies 1 to 4 mutations to a path. */
export function mutate(r: Random, path: string): TargetPlan {
  let out = path;
  let forbiddenBytes = false;
  const count = r.weighted([
    [4, 1],
    [3, 2],
    [2, 3],
    [1, 4],
  ] as const);
  for (let n = 0; n < count; n++) {
    const kind = r.weighted([
      [10, 'encode'],
      [5, 'double'],
      [4, 'overlong'],
      [10, 'traverse'],
      [5, 'prefix-traverse'],
      [6, 'malformed'],
      [7, 'insert'],
      [4, 'case'],
      [7, 'suffix'],
      [2, 'control'],
      [2, 'unicode-raw'],
      [3, 'unicode-encoded'],
      [2, 'long'],
      [5, 'query'],
    ] as const);
    switch (kind) {
      case 'encode':
        out = encodeOne(r, out);
        break;
      case 'double':
        out = doubleEncode(r, out);
        break;
      case 'overlong':
        out = overlong(r, out);
        break;
      case 'traverse':
        out = atSlash(r, out, r.pick(TRAVERSALS).repeat(r.int(1, 6)));
        break;
      case 'prefix-traverse':
        out = `/${r.pick(TRAVERSALS).repeat(r.int(1, 8))}${out.replace(/^\//, '')}`;
        break;
      case 'malformed':
        out = r.chance(0.5)
          ? atSlash(r, out, r.pick(MALFORMED_PERCENT))
          : out + r.pick(MALFORMED_PERCENT);
        break;
      case 'insert':
        out = atSlash(r, out, r.pick(INSERTS));
        break;
      case 'case':
        out = changeCase(r, out);
        break;
      case 'suffix':
        out += r.pick(SUFFIXES);
        break;
      case 'control':
        out = atSlash(r, out, r.pick(CONTROL));
        forbiddenBytes = true;
        break;
      case 'unicode-raw':
        out = atSlash(r, out, r.pick(UNICODE_RAW));
        forbiddenBytes = true;
        break;
      case 'unicode-encoded':
        out = atSlash(r, out, r.pick(UNICODE_ENCODED));
        break;
      case 'long':
        out = lengthen(r, out);
        break;
      case 'query':
        out += queryString(r);
        break;
    }
  }
  return { target: out, forbiddenBytes };
}

/** A target: one of the special ones, or one of `paths` as it is or mutated. */
export function pickTarget(r: Random, port: number, paths: readonly string[]): TargetPlan {
  const shape = r.weighted([
    [12, 'special'],
    [6, 'special+path'],
    [22, 'plain'],
    [60, 'mutated'],
  ] as const);
  if (shape === 'special') return { target: r.pick(specialTargets(port)), forbiddenBytes: false };
  const path = r.pick(paths);
  if (shape === 'special+path') {
    const prefix = r.pick([
      `//${EVIL}`,
      `/.//${EVIL}`,
      `/%2e//${EVIL}`,
      `/\\${EVIL}`,
      `http://${EVIL}`,
      `http://localhost:${port}`,
      '//x:99999',
      '//[',
    ]);
    return { target: prefix + path + (r.chance(0.5) ? '/' : ''), forbiddenBytes: false };
  }
  if (shape === 'plain')
    return { target: path + (r.chance(0.3) ? queryString(r) : ''), forbiddenBytes: false };
  return mutate(r, path);
}
