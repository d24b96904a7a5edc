import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DeleteObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { describeBucket, objectHeaders, parseBucket, uploadFolder } from '../lib/bucket';

/**
 * A version folder uploaded to a real S3-compatible server (s3rver, on an ephemeral port), read
 * back over plain HTTP as a CDN would read it.
 */

let tmp: string;
let server: S3rver;
let endpoint: string;
const BUCKET = 'site-groups';

beforeAll(async () => {
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bucket-'));
  server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: path.join(tmp, 's3'),
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await server.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A version folder as a build leaves it: scripts, their compressed copies, styles, its record. */
function folder(version: string, entry = 'var data;\n'): string {
  const dir = path.join(tmp, 'dist', version);
  fs.mkdirSync(path.join(dir, 'server'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'remoteEntry.js'), entry);
  fs.writeFileSync(path.join(dir, '540.3bfef0e15d.js'), 'console.log("chunk");\n');
  fs.writeFileSync(path.join(dir, '540.3bfef0e15d.js.br'), Buffer.from([0x0b, 0x01, 0x80]));
  fs.writeFileSync(path.join(dir, '540.3bfef0e15d.js.gz'), Buffer.from([0x1f, 0x8b, 0x08]));
  fs.writeFileSync(path.join(dir, 'main.0123456789.css'), '.a{color:red}\n');
  fs.writeFileSync(path.join(dir, 'mf-manifest.json'), '{}\n');
  fs.writeFileSync(path.join(dir, 'server', 'pages.js'), 'exports.pages = {};\n');
  fs.writeFileSync(path.join(dir, 'build.json'), `{"version":"${version}"}\n`);
  return dir;
}

const settings = (prefix: string) => ({ bucket: BUCKET, prefix, endpoint });
const get = (key: string) => fetch(`${endpoint}/${BUCKET}/${key}`);

describe('DEPLOY_BUCKET and DEPLOY_S3_ENDPOINT', () => {
  it('read a bucket, a prefix and an endpoint', () => {
    expect(parseBucket('s3://my-site-cdn/groups/data/', undefined)).toEqual({
      bucket: 'my-site-cdn',
      prefix: 'groups/data',
    });
    expect(parseBucket('s3://my-site-cdn', 'http://127.0.0.1:9000/')).toEqual({
      bucket: 'my-site-cdn',
      prefix: '',
      endpoint: 'http://127.0.0.1:9000',
    });
    expect(describeBucket({ bucket: 'b12', prefix: 'x/y' })).toBe('s3://b12/x/y');
  });

  it.each([
    ['https://my-site-cdn/data', 'takes s3://<bucket>'],
    ['s3://My_Bucket/data', 'takes s3://<bucket>'],
    ['s3://ab', 'takes s3://<bucket>'],
    ['my-site-cdn', 'takes s3://<bucket>'],
    ['s3://my-site-cdn/data?x=1', 'no port, user, query'],
    ['s3://my-site-cdn/a/%2e%2e/b', '"." or ".."'],
    ['s3://my-site-cdn/a%00b%E2%80%A8', 'control characters'],
    ['s3://my-site-cdn/%E0%A4%A', 'takes s3://<bucket>'],
    [`s3://${'\u2028'.repeat(10)}`, 'takes s3://<bucket>'],
  ])('refuse %j with a reason', (value, reason) => {
    const parsed = parseBucket(value, undefined);
    expect(parsed).toHaveProperty('problem');
    expect((parsed as { problem: string }).problem).toContain(reason);
  });

  it('refuse an endpoint that is not http(s), showing at most 60 characters of it', () => {
    const parsed = parseBucket('s3://my-site-cdn', `ftp://${'x'.repeat(1000)}`) as {
      problem: string;
    };
    expect(parsed.problem).toMatch(/^DEPLOY_S3_ENDPOINT takes an http\(s\) URL/);
    expect(parsed.problem.length).toBeLessThan(140);
  });
});

describe('uploading a version folder', () => {
  it('sends every file with its type, cache policy and, for compressed copies, its encoding', async () => {
    const dir = folder('1.0.0');
    const lines: string[] = [];
    const done = await uploadFolder(settings('data'), dir, '1.0.0', (l) => lines.push(l));
    expect(done).toMatchObject({ uploaded: 8, kept: 0 });
    expect(lines[0]).toMatch(
      /^uploading 8 of 8 files \(\d+ KB\) to s3:\/\/site-groups\/data\/1.0.0\/$/,
    );

    const chunk = await get('data/1.0.0/540.3bfef0e15d.js');
    expect(chunk.status).toBe(200);
    expect(chunk.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(chunk.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await chunk.text()).toBe('console.log("chunk");\n');

    const br = await get('data/1.0.0/540.3bfef0e15d.js.br');
    expect(br.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(br.headers.get('content-encoding')).toBe('br');
    await br.body?.cancel();
    const gz = await get('data/1.0.0/540.3bfef0e15d.js.gz');
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    await gz.body?.cancel();

    const css = await get('data/1.0.0/main.0123456789.css');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    await css.body?.cancel();
    // Names without a content hash are revalidated, as the local host serves them.
    const entry = await get('data/1.0.0/remoteEntry.js');
    expect(entry.headers.get('cache-control')).toBe('no-cache');
    expect(await entry.text()).toBe('var data;\n');
    const pages = await get('data/1.0.0/server/pages.js');
    expect(await pages.text()).toBe('exports.pages = {};\n');
  });

  it('sends again only what the bucket lacks or holds with other bytes', async () => {
    const dir = folder('2.0.0');
    await uploadFolder(settings('resume'), dir, '2.0.0', () => {});
    // Again, with nothing changed: nothing is sent.
    const again = await uploadFolder(settings('resume'), dir, '2.0.0', () => {});
    expect(again).toEqual({ uploaded: 0, kept: 8, bytes: 0 });

    // As a stopped upload leaves it: two objects never arrived; and the local entry has changed.
    const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true });
    for (const key of ['mf-manifest.json', 'server/pages.js']) {
      await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: `resume/2.0.0/${key}` }));
    }
    client.destroy();
    const changed = folder('2.0.0', 'var data; /* longer */\n');
    const lines: string[] = [];
    const done = await uploadFolder(settings('resume'), changed, '2.0.0', (l) => lines.push(l));
    expect(done).toMatchObject({ uploaded: 3, kept: 5 });
    expect(lines[0]).toMatch(/^uploading 3 of 8 files .*; 5 already there with the same bytes$/);
    expect(await (await get('resume/2.0.0/remoteEntry.js')).text()).toBe(
      'var data; /* longer */\n',
    );
    expect(await (await get('resume/2.0.0/server/pages.js')).text()).toBe('exports.pages = {};\n');
  });

  it('fails with the store’s reason when the bucket does not exist, sending nothing', async () => {
    const dir = folder('3.0.0');
    await expect(
      uploadFolder({ bucket: 'no-such-bucket', prefix: '', endpoint }, dir, '3.0.0', () => {}),
    ).rejects.toThrow(/bucket does not exist/i);
  });

  it('reads a file’s type from the name without its compressed suffix', () => {
    expect(objectHeaders('a/b.svg.br')).toEqual({
      ContentType: 'image/svg+xml',
      CacheControl: 'no-cache',
      ContentEncoding: 'br',
    });
    expect(objectHeaders('x.0123456789.woff2').ContentType).toBe('font/woff2');
    expect(objectHeaders('LICENSE').ContentType).toBe('application/octet-stream');
  });
});
