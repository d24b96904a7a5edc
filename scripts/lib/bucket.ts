/**
 * A version folder uploaded to a bucket (S3's API, or any store that speaks it) that a CDN serves
 * as the group's origin. Every file goes with the content type and cache policy the local host
 * would send, a build's brotli and gzip copies with their content encoding beside the file, so a
 * CDN can hand out whichever a browser accepts.
 *
 * An upload that stops part way (a killed command, a lost connection) is resumed by the next
 * deploy: what the bucket already holds with the same bytes (its ETag is the MD5 of a single-part
 * object) is not sent again. The build record goes first, so a half-uploaded folder reads as this
 * build to the next deploy, never as other contents; and nothing is published until every file is
 * there (scripts/lib/deploy-build.ts checks the origin, the deploy API pins each file).
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { lookup } from 'mime-types';
import { filePolicy } from '@site/serving';
import { RECORD_FILE } from '@site/build/webpack/build-record';

/** Where version folders go: `s3://<bucket>[/<prefix>]`, and the endpoint of a store that is not AWS. */
export interface BucketSettings {
  bucket: string;
  /** Key prefix without slashes at either end; '' for the bucket's root. */
  prefix: string;
  /** An S3-compatible store's URL; undefined: AWS, by AWS_REGION. */
  endpoint?: string;
}

/** Files uploaded at once. */
const PARALLEL = 8;

/** A DEPLOY_BUCKET value, or why it cannot be used. */
export function parseBucket(
  value: string,
  endpoint: string | undefined,
): BucketSettings | { problem: string } {
  const refused = {
    problem: `DEPLOY_BUCKET takes s3://<bucket>[/<prefix>], not "${value.slice(0, 60)}"`,
  };
  // Read as written, not through URL, which would resolve "a/../b" to "b" without a word.
  const match = /^s3:\/\/([^/?#@:]+)(\/[^?#]*)?$/.exec(value.trim());
  if (!match) {
    return /^s3:\/\/[^/]*[?#@:]|^s3:\/\/[^?#]*[?#]/.test(value.trim())
      ? { problem: 'DEPLOY_BUCKET takes no port, user, query or fragment' }
      : refused;
  }
  const bucket = match[1]!;
  // S3's own rules for a bucket name: 3-63 of a-z, 0-9, '.', '-', starting and ending with a letter or digit.
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) return refused;
  let prefix: string;
  try {
    prefix = decodeURIComponent(match[2] ?? '').replace(/^\/+|\/+$/g, '');
  } catch {
    return refused;
  }
  if (prefix.split('/').some((part) => part === '.' || part === '..')) {
    return { problem: 'DEPLOY_BUCKET: its prefix may not hold "." or ".." segments' };
  }
  if (/\p{Cc}/u.test(prefix)) {
    return { problem: 'DEPLOY_BUCKET: its prefix may not hold control characters' };
  }
  if (endpoint !== undefined) {
    let end: URL;
    try {
      end = new URL(endpoint.trim());
    } catch {
      return { problem: `DEPLOY_S3_ENDPOINT takes an http(s) URL, not "${endpoint.slice(0, 60)}"` };
    }
    if (end.protocol !== 'http:' && end.protocol !== 'https:') {
      return { problem: `DEPLOY_S3_ENDPOINT takes an http(s) URL, not "${endpoint.slice(0, 60)}"` };
    }
    return { bucket, prefix, endpoint: end.href.replace(/\/$/, '') };
  }
  return { bucket, prefix };
}

export const describeBucket = ({ bucket, prefix }: BucketSettings): string =>
  `s3://${bucket}${prefix ? `/${prefix}` : ''}`;

/** Every file under `dir`, as paths relative to it with forward slashes, sorted. */
function filesUnder(dir: string, base = ''): string[] {
  return readdirSync(path.join(dir, base), { withFileTypes: true })
    .flatMap((entry) => {
      const rel = base ? `${base}/${entry.name}` : entry.name;
      return entry.isDirectory() ? filesUnder(dir, rel) : entry.isFile() ? [rel] : [];
    })
    .sort();
}

const ENCODINGS = { '.br': 'br', '.gz': 'gzip' } as const;

/** What a file is sent with: the type of what it holds, its encoding if it is a compressed copy. */
export function objectHeaders(rel: string): {
  ContentType: string;
  CacheControl: string;
  ContentEncoding?: string;
} {
  const ext = path.extname(rel) as keyof typeof ENCODINGS;
  const encoding = ENCODINGS[ext];
  const plain = encoding ? rel.slice(0, -ext.length) : rel;
  const type = lookup(plain) || 'application/octet-stream';
  const ContentType = /^(text\/|application\/(javascript|json))/.test(type)
    ? `${type}; charset=utf-8`
    : type;
  return {
    ContentType,
    CacheControl: filePolicy(rel),
    ...(encoding ? { ContentEncoding: encoding } : {}),
  };
}

export interface UploadResult {
  uploaded: number;
  /** Files the bucket already held with the same bytes. */
  kept: number;
  bytes: number;
}

/**
 * Uploads `folder` (a version folder) to `<prefix>/<version>/` in the bucket, sending only what
 * the bucket does not hold with the same bytes; the build record first.
 */
export async function uploadFolder(
  settings: BucketSettings,
  folder: string,
  version: string,
  log: (line: string) => void = console.log,
): Promise<UploadResult> {
  const client = new S3Client({
    ...(settings.endpoint ? { endpoint: settings.endpoint, forcePathStyle: true } : {}),
    region: process.env.AWS_REGION || 'us-east-1',
  });
  const base = `${settings.prefix ? `${settings.prefix}/` : ''}${version}/`;
  try {
    const held = new Map<string, string>();
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({
          Bucket: settings.bucket,
          Prefix: base,
          ContinuationToken: token,
        }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key && object.ETag) held.set(object.Key, object.ETag.replaceAll('"', ''));
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);

    const files = filesUnder(folder);
    const ordered = [
      ...files.filter((f) => f === RECORD_FILE),
      ...files.filter((f) => f !== RECORD_FILE),
    ];
    const todo: { rel: string; body: Buffer; md5: string }[] = [];
    let kept = 0;
    for (const rel of ordered) {
      const body = readFileSync(path.join(folder, rel));
      const md5 = createHash('md5').update(body).digest('hex');
      if (held.get(base + rel) === md5) kept += 1;
      else todo.push({ rel, body, md5 });
    }
    const bytes = todo.reduce((sum, f) => sum + f.body.length, 0);
    log(
      `uploading ${todo.length} of ${files.length} files (${(bytes / 1024).toFixed(0)} KB) to ${describeBucket(settings)}/${version}/` +
        (kept ? `; ${kept} already there with the same bytes` : ''),
    );
    const send = async ({ rel, body, md5 }: (typeof todo)[number]) => {
      await client.send(
        new PutObjectCommand({
          Bucket: settings.bucket,
          Key: base + rel,
          Body: body,
          ContentMD5: Buffer.from(md5, 'hex').toString('base64'),
          ...objectHeaders(rel),
        }),
      );
    };
    // The record alone first; then the rest, a few at a time.
    const [first, ...rest] = todo;
    if (first) await send(first);
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(PARALLEL, rest.length) }, async () => {
        while (next < rest.length) await send(rest[next++]!);
      }),
    );
    return { uploaded: todo.length, kept, bytes };
  } finally {
    client.destroy();
  }
}
