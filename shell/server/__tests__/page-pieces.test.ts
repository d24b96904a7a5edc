/**
 * @jest-environment node
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { sha256Integrity } from '@site/contracts/integrity';
import { testManifest, testRemote } from '@site/build/testing/manifest';
import { ephemeralPort } from '@site/build/testing/ports';
import { HotPages, PageShape, crc32Combine, joinGzip, piece } from '../pages/pieces';
import { createSite, type Site } from '../site';
import { parseSiteSettings } from '../settings';
import { freshDatabase } from './test-postgres';

describe('pieces of a page joined', () => {
  it('are one gzip stream of the pieces in order, as any gzip reader reads it', () => {
    const texts = [
      '<!doctype html><p>before ’ the manifest</p>',
      '{"remotes":[]}',
      '',
      'x'.repeat(70_000),
    ];
    const joined = joinGzip(texts.map(piece));
    expect(zlib.gunzipSync(joined).toString()).toBe(texts.join(''));
  });

  it('are sent joined for each answer, the pages asked for again kept joined within a bound', () => {
    const hot = new HotPages(100_000);
    const manifest = piece('{"remotes":[]}');
    const pages = Array.from({ length: 5 }, (_, i) => ({
      before: `<p>${i}${randomBytes(30_000).toString('hex')}`,
      after: '</p>',
    }));
    const shapes = pages.map((p) => new PageShape(200, p.before, p.after, {}, hot));
    for (let round = 0; round < 3; round++) {
      shapes.forEach((shape, i) => {
        const sent = shape.with(manifest);
        const text = `${pages[i]!.before}{"remotes":[]}${pages[i]!.after}`;
        expect(zlib.gunzipSync(sent.encode('gzip')).toString()).toBe(text);
        expect(sent.body.toString()).toBe(text);
      });
      expect(hot.bytes).toBeLessThanOrEqual(100_000);
    }
    expect(hot.bytes).toBeGreaterThan(0);
  });

  it('carry the CRC-32 of the whole, combined from each piece’s', () => {
    for (const [a, b] of [
      [0, 0],
      [1, 1],
      [1000, 3],
      [5, 300_000],
    ] as const) {
      const one = randomBytes(a);
      const two = randomBytes(b);
      expect(crc32Combine(zlib.crc32(one), zlib.crc32(two), two.length)).toBe(
        zlib.crc32(Buffer.concat([one, two])),
      );
    }
  });
});

/**
 * A deploy of one group, on a real site (the real shell build, real render processes, two groups
 * served by a real HTTP server): the other group's pages and the shell's stay in the page cache
 * (counted as hits), and every page a visitor gets embeds the new manifest. Its control plane is
 * a database of the run's PostgreSQL; every server listens on a port the system has free.
 */
const SHELL_DIST = path.join(__dirname, '..', '..', 'dist');
const METRICS_TOKEN = 'metrics-token-for-the-pieces-test';
const PAGES_JS = `const React = require('react');
const page = (text) => () => Promise.resolve({ default: () => React.createElement('p', null, text) });
exports.pages = { '/probe/hello': page('Hello from the probe'), '/other/page': page('Another group') };
`;

let work: string;
let remoteServer: http.Server;
let site: Site;
let siteUrl: string;
let origin: string;

const entry = (group: string, version: string) => ({
  ...testRemote(group, `${origin}/${group}`, `/${group}`, [
    group === 'probe' ? '/probe/hello' : '/other/page',
  ]),
  version,
  entry: `${origin}/${group}/${version}/remoteEntry.js`,
  serverIntegrity: sha256Integrity(Buffer.from(PAGES_JS)),
});

const manifest = (probeVersion: string) =>
  testManifest([entry('probe', probeVersion), entry('other', '2.0.0')]);

/** A deploy of `probe` at `version`, as the deploy API makes it: a change of the control plane. */
async function deploy(version: string): Promise<void> {
  const plane = site.app.controlPlane;
  const before = await plane.get();
  const from = before.manifest.remotes.find((r) => r.name === 'probe');
  await plane.publish(manifest(version), before.version, {
    at: new Date().toISOString(),
    by: 'operator',
    action: 'deploy',
    remote: 'probe',
    from: from ? { version: from.version, entry: from.entry } : null,
    to: { version, entry: `${origin}/probe/${version}/remoteEntry.js` },
    reason: `deploy ${version}`,
  });
}

async function lookups(): Promise<{ hit: number; miss: number }> {
  const text = await fetch(`${siteUrl}/_metrics`, {
    headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
  }).then((r) => r.text());
  const count = (result: string) =>
    Number(
      new RegExp(`^site_page_cache_requests_total\\{result="${result}"\\} (\\d+)`, 'm').exec(
        text,
      )?.[1] ?? 0,
    );
  return { hit: count('hit'), miss: count('miss') };
}

/** A page as a browser gets it (gzip), and as a client that asks for no coding gets it. */
async function visit(pagePath: string): Promise<string> {
  const zipped = await fetch(`${siteUrl}${pagePath}`, { headers: { 'Accept-Encoding': 'gzip' } });
  expect(zipped.status).toBe(200);
  expect(zipped.headers.get('content-encoding')).toBe('gzip');
  const html = await zipped.text();
  const plain = await fetch(`${siteUrl}${pagePath}`, {
    headers: { 'Accept-Encoding': 'identity' },
  });
  expect(await plain.text()).toBe(html);
  return html;
}

const embedded = (html: string) =>
  /<script type="application\/json" id="site-manifest">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'site-pieces-'));
  const remotes = path.join(work, 'remotes');
  for (const [group, version] of [
    ['probe', '1.0.0'],
    ['probe', '1.0.1'],
    ['other', '2.0.0'],
  ] as const) {
    const folder = path.join(remotes, group, version);
    mkdirSync(path.join(folder, 'server'), { recursive: true });
    writeFileSync(path.join(folder, 'server', 'pages.js'), PAGES_JS);
    writeFileSync(
      path.join(folder, 'mf-manifest.json'),
      JSON.stringify({ id: group, exposes: [] }),
    );
    writeFileSync(path.join(folder, 'page-assets.json'), JSON.stringify({ pages: {} }));
  }
  remoteServer = http.createServer((req, res) => {
    const file = path.join(remotes, path.normalize(decodeURIComponent(req.url ?? '/')));
    if (!file.startsWith(`${remotes}${path.sep}`) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => remoteServer.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(remoteServer.address() as AddressInfo).port}`;
  // The manifest the site starts from: an empty database takes it as its first.
  const deployDir = path.join(work, 'deploy');
  mkdirSync(deployDir);
  writeFileSync(path.join(deployDir, 'remotes.json'), JSON.stringify(manifest('1.0.0')));
  const port = await ephemeralPort();
  siteUrl = `http://127.0.0.1:${port}`;
  site = await createSite(
    parseSiteSettings({
      SHELL_DIST,
      DEPLOY_DIR: deployDir,
      DATABASE_URL: await freshDatabase(),
      MAIL_SERVICE_URL: 'http://127.0.0.1:9',
      SITE_URL: siteUrl,
      RENDER_WORKERS: '1',
      METRICS_TOKEN,
    }),
    { log: () => undefined },
  );
  await site.listen(port, '127.0.0.1');
}, 180_000);

afterAll(async () => {
  await site?.close();
  await new Promise((resolve) => remoteServer?.close(resolve));
  rmSync(work, { recursive: true, force: true });
});

test('a deploy of one group leaves the other pages cached, each with the new manifest in it', async () => {
  const before: Record<string, string> = {};
  for (const p of ['/', '/other/page', '/probe/hello']) before[p] = await visit(p);
  expect(before['/other/page']).toContain('Another group');
  expect(embedded(before['/'] ?? '')).toContain('/probe/1.0.0/remoteEntry.js');

  await deploy('1.0.1');
  for (;;) {
    const live = await fetch(`${siteUrl}/remotes.json`).then((r) => r.text());
    if (live.includes('/probe/1.0.1/')) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  const start = await lookups();
  const home = await visit('/');
  const other = await visit('/other/page');
  const afterOthers = await lookups();
  // Two visits each (gzip and none): all four from the cache.
  expect(afterOthers.hit - start.hit).toBe(4);
  expect(afterOthers.miss - start.miss).toBe(0);

  // What a visitor gets is the page as before with the new manifest in it.
  const pairs: [string, string][] = [
    [home, before['/'] ?? ''],
    [other, before['/other/page'] ?? ''],
  ];
  for (const [html, was] of pairs) {
    expect(embedded(html)).toContain('/probe/1.0.1/remoteEntry.js');
    expect(embedded(html)).not.toContain('/probe/1.0.0/');
    expect(html.replace(embedded(html), '')).toBe(was.replace(embedded(was), ''));
  }

  // The deployed group's page is composed again, from its new version.
  await visit('/probe/hello');
  expect((await lookups()).miss - afterOthers.miss).toBe(1);
}, 60_000);
