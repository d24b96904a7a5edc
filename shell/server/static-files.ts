/**
 * A small static file server for the local run and the tests: the stand-in for the CDN or static
 * host each deployable lives on. It sends what a CDN would: brotli or gzip when the client accepts
 * it, immutable caching for content-hashed files, revalidation for everything that can change in
 * place (HTML, remoteEntry.js, manifests, route tables).
 */
import { createReadStream, promises as fs, type Stats } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';

export const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

const COMPRESSIBLE = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.svg',
  '.txt',
  '.xml',
  '.map',
]);
/** A 10-hex-digit content hash in the file name, as the webpack builds write them. */
const HASHED = /\.[0-9a-f]{10}\.[a-z0-9]+$/;

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/** Compressed bodies by file, kept while the file is unchanged (size and mtime). */
const cache = new Map<string, Buffer>();

export type Encoding = 'br' | 'gzip';

export function encodingFor(req: IncomingMessage): Encoding | null {
  const accept = String(req.headers['accept-encoding'] ?? '');
  if (/\bbr\b/.test(accept)) return 'br';
  if (/\bgzip\b/.test(accept)) return 'gzip';
  return null;
}

export function compress(buffer: Buffer, encoding: Encoding): Buffer {
  return encoding === 'br'
    ? zlib.brotliCompressSync(buffer, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: buffer.length,
        },
      })
    : zlib.gzipSync(buffer, { level: 9 });
}

export interface BodyOptions {
  status?: number;
  body: Buffer | string;
  type?: string;
  cacheControl?: string;
  headers?: Record<string, string | number>;
  /** Keeps the compressed body for the next answer with the same key. */
  key?: string;
}

/** Sends a body (Buffer or string) with compression when it pays. */
export function sendBody(
  req: IncomingMessage,
  res: ServerResponse,
  { status = 200, body, type, cacheControl, headers = {}, key }: BodyOptions,
): void {
  const buffer = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const encoding =
    buffer.length > 512 && type && /text|json|xml|svg/.test(type) ? encodingFor(req) : null;
  let payload = buffer;
  if (encoding) {
    const cacheKey = key ? `${key}:${encoding}` : null;
    payload = (cacheKey && cache.get(cacheKey)) || compress(buffer, encoding);
    if (cacheKey) cache.set(cacheKey, payload);
  }
  res.writeHead(status, {
    'Content-Type': type ?? 'application/octet-stream',
    'Content-Length': payload.length,
    'Cache-Control': cacheControl ?? REVALIDATE,
    'X-Content-Type-Options': 'nosniff',
    Vary: 'Accept-Encoding',
    ...(encoding ? { 'Content-Encoding': encoding } : {}),
    ...headers,
  });
  res.end(req.method === 'HEAD' ? undefined : payload);
}

/** Resolves a URL path to a file inside `root`, refusing anything that escapes it. */
export interface FoundFile {
  file: string;
  stat: Stats;
}

export async function resolveFile(root: string, urlPath: string): Promise<FoundFile | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0] ?? '');
  } catch {
    return null;
  }
  const file = path.join(root, path.normalize(decoded));
  if (!file.startsWith(root)) return null;
  try {
    const stat = await fs.stat(file);
    return stat.isFile() ? { file, stat } : null;
  } catch {
    return null;
  }
}

/** Serves one file, compressed and with the right cache policy. */
export async function sendFile(
  req: IncomingMessage,
  res: ServerResponse,
  { file, stat }: FoundFile,
  {
    headers = {},
    status = 200,
    cacheControl,
  }: { headers?: Record<string, string>; status?: number; cacheControl?: string } = {},
): Promise<void> {
  const ext = path.extname(file);
  const type = MIME[ext] ?? 'application/octet-stream';
  const policy = cacheControl ?? (HASHED.test(path.basename(file)) ? IMMUTABLE : REVALIDATE);
  const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
  if (req.headers['if-none-match'] === etag && status === 200) {
    res.writeHead(304, { ETag: etag, 'Cache-Control': policy, ...headers });
    res.end();
    return;
  }
  const key = `${file}:${stat.size}:${stat.mtimeMs}`;
  if (COMPRESSIBLE.has(ext)) {
    const body = await fs.readFile(file);
    sendBody(req, res, {
      status,
      body,
      type,
      cacheControl: policy,
      headers: { ETag: etag, ...headers },
      key,
    });
    return;
  }
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': stat.size,
    'Cache-Control': policy,
    'X-Content-Type-Options': 'nosniff',
    ETag: etag,
    ...headers,
  });
  if (req.method === 'HEAD') res.end();
  else createReadStream(file).pipe(res);
}
