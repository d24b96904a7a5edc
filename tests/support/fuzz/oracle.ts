/**
 * What every answer must satisfy, whatever was asked: no server error, no redirect off the site,
 * no secret in the answer, no content coding the client refused, 304 for a request that lists the
 * current ETag.
 */
import zlib from 'node:zlib';
import { escapeBytes, header, type Outcome } from './raw-http';
import type { FuzzCase } from './surface';

/** Bytes that must never appear in an answer, and where they come from. */
export interface Canary {
  what: string;
  bytes: Buffer;
}

export interface Expectations {
  /** The origins the server's redirects may point at (its own). */
  origins: string[];
  canaries: Canary[];
  /** A file the server may send only at `publicPath` (and its equivalents). */
  publicOnlyAt?: { bytes: Buffer; publicPath: string; what: string };
}

/** Codings the Accept-Encoding field refuses; null when it does not parse, so nothing is said. */
export function refusedCodings(field: string): Set<string> | null {
  const q = new Map<string, number>();
  for (const element of field.split(',')) {
    const trimmed = element.trim();
    if (!trimmed) continue;
    const [coding = '', ...params] = trimmed.split(';').map((s) => s.trim());
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(coding)) return null;
    // One weight at most: `br;q=0;q=1` says nothing clear.
    if (params.length > 1) return null;
    let weight = 1;
    for (const param of params) {
      const m = /^q=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i.exec(param);
      if (!m) return null;
      weight = Number(m[1]);
    }
    const name = coding.toLowerCase();
    // x-gzip is gzip to some servers and another coding to others: nothing is said then.
    if (q.has(name) || name === 'x-gzip') return null;
    q.set(name, weight);
  }
  const refused = new Set<string>();
  for (const coding of ['br', 'gzip']) {
    // A coding not listed is refused unless `*` accepts it (RFC 9110, 12.5.3).
    const weight = q.get(coding) ?? q.get('*') ?? 0;
    if (weight === 0) refused.add(coding);
  }
  return refused;
}

function decode(body: Buffer, contentEncoding: string | undefined): Buffer {
  let out = body;
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== 'identity');
  for (const coding of codings.reverse()) {
    if (coding === 'br') out = zlib.brotliDecompressSync(out);
    else if (coding === 'gzip' || coding === 'x-gzip') out = zlib.gunzipSync(out);
    else if (coding === 'deflate') out = zlib.inflateSync(out);
    else throw new Error(`unknown content coding ${coding}`);
  }
  return out;
}

/** The path a target names once dot-segments are resolved and it is decoded; null if it has none. */
function namedPath(target: string): string | null {
  try {
    const pathname = new URL(target, 'http://site.invalid').pathname;
    try {
      return decodeURIComponent(pathname);
    } catch {
      return pathname;
    }
  } catch {
    return null;
  }
}

/** What is wrong with the outcome of `c`, if anything. */
export function judge(c: FuzzCase, outcome: Outcome, expect: Expectations): string[] {
  if (outcome.kind === 'timeout') {
    return c.mustAnswer && !c.incomplete ? ['no answer in time'] : [];
  }
  if (outcome.kind === 'closed') {
    return c.mustAnswer ? [`no answer: connection ${outcome.error}`] : [];
  }
  if (outcome.kind === 'garbled') {
    return [`the answer is not HTTP (${outcome.error}): ${escapeBytes(outcome.received, 120)}`];
  }
  const { answer } = outcome;
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`server error: ${answer.statusLine}`);

  for (const [name, value] of answer.headers) {
    if (name !== 'location') continue;
    let url: URL;
    try {
      url = new URL(value, `${expect.origins[0]}/`);
    } catch {
      problems.push(`Location "${value}" is not a URL`);
      continue;
    }
    // Resolved as a browser resolves it: `//host`, `/\host` and tabs all lead elsewhere.
    if (!expect.origins.includes(url.origin))
      problems.push(`redirect off the site: Location "${value}" (${url.origin})`);
  }

  let body = answer.body;
  const contentEncoding = header(answer, 'content-encoding');
  if (body.length && contentEncoding) {
    try {
      body = decode(body, contentEncoding);
    } catch (error) {
      if (answer.status === 200)
        problems.push(`the body is not ${contentEncoding}: ${(error as Error).message}`);
    }
  }
  for (const canary of expect.canaries) {
    if (
      answer.head.includes(canary.bytes) ||
      body.includes(canary.bytes) ||
      answer.body.includes(canary.bytes)
    )
      problems.push(`leak: the answer (${answer.status}) carries ${canary.what}`);
  }
  const only = expect.publicOnlyAt;
  if (only && answer.status < 300 && body.equals(only.bytes)) {
    const named = namedPath(c.target);
    const segments = (named ?? '').split('/').filter(Boolean);
    if (segments.length > 1 || (segments.length === 1 && `/${segments[0]}` !== only.publicPath))
      problems.push(`leak: ${only.what} is served at ${c.target}`);
  }

  if (contentEncoding && c.acceptEncoding !== null) {
    const refused = refusedCodings(c.acceptEncoding);
    for (const coding of contentEncoding.split(',').map((s) => s.trim().toLowerCase())) {
      const base = coding === 'x-gzip' ? 'gzip' : coding;
      if (refused?.has(base))
        problems.push(
          `Content-Encoding ${coding}, which "Accept-Encoding: ${c.acceptEncoding}" refuses`,
        );
    }
  }

  if (c.expect304 && answer.status !== 304)
    problems.push(
      `If-None-Match lists the current ETag, yet the answer is ${answer.status}, not 304`,
    );
  return problems;
}
