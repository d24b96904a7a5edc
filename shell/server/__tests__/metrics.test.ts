/**
 * @jest-environment node
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sha256Integrity } from '@site/contracts/integrity';
import { testManifest, testRemote } from '@site/build/testing/manifest';
import { ephemeralPort } from '@site/build/testing/ports';
import { createSite, type Site } from '../site';
import { parseSiteSettings } from '../settings';
import { freshDatabase } from './test-postgres';

/**
 * The site server's metrics and error beacon, on a real site (the real shell build, real render
 * processes, two groups served by a real HTTP server): after known traffic the scrape shows it,
 * per group and version. Its control plane is a database of the run's PostgreSQL; every server
 * listens on a port the system has free.
 */
const SHELL_DIST = path.join(__dirname, '..', '..', 'dist');
const METRICS_TOKEN = 'metrics-token-for-the-test-0123';
const DEPLOY_TOKEN = 'deploy-token-for-the-metrics-test';
const RATE_LIMIT = 10;

/** A group's Node build: a page that renders, one whose code throws, one that never finishes in time. */
const PAGES_JS = `const React = require('react');
const page = (text) => () => Promise.resolve({ default: () => React.createElement('p', null, text) });
exports.pages = {
  '/probe/hello': page('Hello from the probe'),
  '/probe/broken': () => Promise.reject(new Error('the probe page is broken')),
  '/probe/slow': () => new Promise((resolve) => setTimeout(() => resolve(page('too late')()), 5000)),
  '/other/page': page('Another group'),
};
`;

/** One sample of a scrape: `name{labels}` must match every label given. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  let found = false;
  for (const line of text.split('\n')) {
    const m = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries(
      [...(m[2] ?? '').matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) {
      total += Number(m[3]);
      found = true;
    }
  }
  return found ? total : 0;
}

let work: string;
let remoteServer: http.Server;
let origin: string;
let site: Site;
let siteUrl: string;

async function scrape(): Promise<string> {
  const response = await fetch(`${siteUrl}/_metrics`, {
    headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text();
}

function beacon(body: unknown, client: string, type = 'text/plain;charset=UTF-8') {
  return fetch(`${siteUrl}/_beacon`, {
    method: 'POST',
    headers: { 'Content-Type': type, 'X-Forwarded-For': client },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'site-metrics-'));
  const remotes = path.join(work, 'remotes');
  for (const [group, version] of [
    ['probe', '1.0.0'],
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

  const deployDir = path.join(work, 'deploy');
  mkdirSync(deployDir);
  const other = testRemote('other', `${origin}/other`, '/other', ['/other/page']);
  writeFileSync(
    path.join(deployDir, 'remotes.json'),
    JSON.stringify(
      testManifest([
        {
          ...testRemote('probe', `${origin}/probe`, '/probe', [
            '/probe/hello',
            '/probe/broken',
            '/probe/slow',
          ]),
          serverIntegrity: sha256Integrity(Buffer.from(PAGES_JS)),
        },
        {
          ...other,
          version: '2.0.0',
          entry: `${origin}/other/2.0.0/remoteEntry.js`,
          serverIntegrity: sha256Integrity(Buffer.from(PAGES_JS)),
        },
      ]),
    ),
  );
  const port = await ephemeralPort();
  siteUrl = `http://127.0.0.1:${port}`;
  site = await createSite(
    parseSiteSettings({
      SHELL_DIST,
      DEPLOY_DIR: deployDir,
      DATABASE_URL: await freshDatabase(),
      MAIL_SERVICE_URL: 'http://127.0.0.1:9',
      SITE_URL: siteUrl,
      RENDER_TIMEOUT_MS: '1000',
      RENDER_WORKERS: '1',
      METRICS_TOKEN,
      BEACON_RATE_LIMIT: String(RATE_LIMIT),
      DEPLOY_TOKEN,
      DEPLOY_ALLOWED_ORIGINS: origin,
      TRUST_PROXY: 'loopback',
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

describe('GET /_metrics', () => {
  test('answers only with the token: 401 without it or with a wrong one', async () => {
    const none = await fetch(`${siteUrl}/_metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(await none.text()).toContain('METRICS_TOKEN');
    const wrong = await fetch(`${siteUrl}/_metrics`, {
      headers: { Authorization: `Bearer ${METRICS_TOKEN}x` },
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain('site_http_requests_total');
  });

  test('is off (404, with the reason) on a site without METRICS_TOKEN', async () => {
    const deployDir = path.join(work, 'deploy-off');
    mkdirSync(deployDir);
    const off = await createSite(
      parseSiteSettings({
        SHELL_DIST,
        DEPLOY_DIR: deployDir,
        DATABASE_URL: await freshDatabase(),
        MAIL_SERVICE_URL: 'http://127.0.0.1:9',
        SITE_URL: 'http://localhost',
        RENDER_WORKERS: '1',
      }),
      { processMetrics: false, log: () => undefined },
    );
    try {
      const answer = await off.app.inject({
        url: '/_metrics',
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(answer.statusCode).toBe(404);
      expect(answer.body).toBe('The metrics are off: they need METRICS_TOKEN.\n');
    } finally {
      await off.close();
    }
  });
});

describe('after known traffic', () => {
  test('requests by kind and status, compositions and render failures by group and version, the page cache', async () => {
    // The pages composed before the first request (the home page, each group's first) are done:
    // on a busy machine the start may have stopped waiting for them.
    for (const urlPath of ['/', '/probe/hello', '/other/page']) {
      const settled = await fetch(`${siteUrl}${urlPath}`);
      await settled.arrayBuffer();
    }
    const before = await scrape();
    const get = async (urlPath: string, status: number) => {
      const response = await fetch(`${siteUrl}${urlPath}`);
      await response.arrayBuffer();
      expect(response.status).toBe(status);
    };
    for (let i = 0; i < 5; i++) await get('/probe/hello', 200);
    for (let i = 0; i < 3; i++) await get('/other/page', 200);
    for (let i = 0; i < 4; i++) await get(`/no-such-page-${i}`, 404);
    await get('/probe/broken', 503);
    await get('/probe/broken', 503);
    await get('/probe/slow', 503);
    await get('/favicon.svg', 200);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) =>
      sample(after, name, labels) - sample(before, name, labels);

    // 8 pages, 4 not-found pages, 3 notices; one file. The scrape itself is "other".
    expect(delta('site_http_requests_total', { kind: 'page', status: '2xx' })).toBe(8);
    expect(delta('site_http_requests_total', { kind: 'page', status: '4xx' })).toBe(4);
    expect(delta('site_http_requests_total', { kind: 'page', status: '5xx' })).toBe(3);
    expect(delta('site_http_requests_total', { kind: 'asset', status: '2xx' })).toBe(1);
    expect(delta('site_http_requests_total', { kind: 'other', status: '2xx' })).toBe(1);
    // No raw path ever becomes a label.
    expect(after).not.toContain('no-such-page');

    // Composed once per page (then cached): the 404 page, broken (kept 5 s), slow. Hello and page,
    // each its group's first, composed before the server took its first request.
    const compositions = (group: string, version: string) =>
      delta('site_page_composition_seconds_count', { group, version });
    expect(compositions('probe', '1.0.0')).toBe(2);
    expect(compositions('other', '2.0.0')).toBe(0);
    expect(sample(after, 'site_page_composition_seconds_count', { group: 'other' })).toBe(1);
    expect(delta('site_page_composition_seconds_count', { group: 'shell' })).toBe(1);
    expect(
      sample(after, 'site_page_composition_seconds_bucket', {
        group: 'other',
        version: '2.0.0',
        le: '+Inf',
      }),
    ).toBe(1);
    expect(
      delta('site_render_failures_total', { group: 'probe', version: '1.0.0', reason: 'error' }),
    ).toBe(1);
    expect(
      delta('site_render_failures_total', { group: 'probe', version: '1.0.0', reason: 'timeout' }),
    ).toBe(1);
    expect(delta('site_render_failures_total', { group: 'other' })).toBe(0);
    expect(site.metrics.renderFailuresIn('probe', '1.0.0', 60_000)).toBe(2);

    // 15 page look-ups: 3 compositions, 12 from the cache.
    expect(delta('site_page_cache_requests_total', { result: 'miss' })).toBe(3);
    expect(delta('site_page_cache_requests_total', { result: 'hit' })).toBe(12);
    expect(sample(after, 'site_page_cache_entries')).toBeGreaterThanOrEqual(5);
    expect(sample(after, 'site_page_cache_bytes')).toBeGreaterThan(10_000);
    // Standard error was taken in all along: no log line was lost.
    expect(after).toMatch(/^site_log_lines_dropped_total 0$/m);

    const live = await site.manifest();
    expect(sample(after, 'site_manifest_info', { version: live.version })).toBe(1);
    expect(sample(after, 'site_remote_info', { group: 'probe', version: '1.0.0' })).toBe(1);
    expect(sample(after, 'site_remote_info', { group: 'other', version: '2.0.0' })).toBe(1);
    // Node's own figures come with them.
    expect(after).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(after).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
  }, 60_000);

  test('deploy calls by action and outcome', async () => {
    const before = await scrape();
    const call = (route: string, body: unknown, token = DEPLOY_TOKEN) =>
      fetch(`${siteUrl}/_deploy${route}`, {
        method: route.endsWith('/rollback') ? 'POST' : 'PUT',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      }).then((r) => r.status);
    const version = { entry: `${origin}/probe/1.1.0/remoteEntry.js`, version: '1.1.0' };
    expect(await call('/remotes/probe', { base: 'stale', ...version })).toBe(409);
    expect(await call('/remotes/probe', version)).toBe(428);
    expect(await call('/remotes/probe', { base: 'x', ...version }, 'not-the-deploy-token')).toBe(
      401,
    );
    expect(await call('/remotes/probe/rollback', { base: 'x', to: 1 })).toBe(400);
    // A preview changes nothing live; a stale one is refused like a deploy.
    expect(await call('/remotes/probe', { base: 'stale', ...version, preview: true })).toBe(409);
    const after = await scrape();
    const delta = (labels: Record<string, string>) =>
      sample(after, 'site_deploys_total', labels) - sample(before, 'site_deploys_total', labels);
    expect(delta({ action: 'deploy', outcome: 'conflict' })).toBe(2);
    expect(delta({ action: 'deploy', outcome: 'unauthorized' })).toBe(1);
    expect(delta({ action: 'rollback', outcome: 'refused' })).toBe(1);
    expect(delta({ action: 'deploy', outcome: 'ok' })).toBe(0);
    expect(delta({ action: 'preview', outcome: 'conflict' })).toBe(1);
    expect(sample(after, 'site_http_requests_total', { kind: 'deploy', status: '4xx' })).toBe(5);
  });
});

describe('POST /_beacon', () => {
  test('a report without a view token is answered 204 and counted as refused, never as an error', async () => {
    const before = await scrape();
    const client = '198.51.100.1';
    const reports = [
      { kind: 'page-error', group: 'probe', version: '1.0.0', message: 'TypeError 0' },
      { kind: 'page-error', group: 'probe', version: '1.0.0' },
      { kind: 'page-error', group: 'probe', version: '9.9.9' },
      { kind: 'page-error', group: 'nobody', version: '1.0.0' },
    ];
    for (const body of reports) expect((await beacon(body, client)).status).toBe(204);
    const json = await beacon(
      { kind: 'remote-load-failed', group: 'other', version: '2.0.0' },
      client,
      'application/json',
    );
    expect(json.status).toBe(204);
    // A cohort and a token written by hand are no token.
    const forged = await fetch(`${siteUrl}/_beacon`, {
      method: 'POST',
      headers: {
        'Content-Type': 'text/plain;charset=UTF-8',
        'X-Forwarded-For': client,
        Cookie: 'site_cohort=0; site_view=eyJ9.AAAA',
      },
      body: JSON.stringify({ kind: 'page-error', group: 'probe', version: '1.0.0' }),
    });
    expect(forged.status).toBe(204);
    const after = await scrape();
    expect(after).not.toMatch(/^site_beacon_errors_total\{/m);
    expect(
      sample(after, 'site_beacons_refused_total', { reason: 'no_token' }) -
        sample(before, 'site_beacons_refused_total', { reason: 'no_token' }),
    ).toBe(6);
    expect(after).not.toContain('9.9.9');
    expect(after).not.toContain('nobody');
    expect(site.metrics.beaconErrors('probe', '1.0.0', 60_000)).toBe(0);
  });

  test('refuses what is not a report with a 4xx and its reason, never a 500', async () => {
    const client = '198.51.100.2';
    const refusals: [unknown, number, RegExp, string?][] = [
      ['{"kind":', 400, /not valid JSON/],
      ['', 400, /not valid JSON/],
      [{ group: 'probe', version: '1.0.0' }, 400, /kind/],
      [{ kind: 'boom', group: 'probe', version: '1.0.0' }, 400, /kind/],
      [{ kind: 'page-error', group: 'Probe!', version: '1.0.0' }, 400, /group/],
      [{ kind: 'page-error', group: 'probe', version: '1.0.0', extra: 1 }, 400, /additional/],
      [
        { kind: 'page-error', group: 'probe', version: '1.0.0', message: 'x'.repeat(5000) },
        413,
        /4096 bytes/,
      ],
      [
        { kind: 'page-error', group: 'probe', version: '1.0.0' },
        415,
        /JSON/,
        'application/x-www-form-urlencoded',
      ],
    ];
    for (const [body, status, reason, type] of refusals) {
      const answer = await beacon(body, client, type);
      expect([body, answer.status]).toEqual([body, status]);
      expect(await answer.text()).toMatch(reason);
    }
    const refused = await scrape();
    expect(sample(refused, 'site_beacons_refused_total', { reason: 'too_large' })).toBe(1);
    expect(sample(refused, 'site_beacons_refused_total', { reason: 'invalid' })).toBe(7);
  });

  test(`a flood from one address is refused with 429 after ${RATE_LIMIT} a minute; other visitors and the site carry on`, async () => {
    const flooder = '203.0.113.7';
    const statuses: number[] = [];
    const answers = await Promise.all(
      Array.from({ length: 200 }, () =>
        beacon({ kind: 'page-error', group: 'probe', version: '1.0.0' }, flooder),
      ),
    );
    for (const answer of answers) statuses.push(answer.status);
    expect(statuses.filter((s) => s === 204)).toHaveLength(RATE_LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(200 - RATE_LIMIT);
    const limited = answers.find((a) => a.status === 429)!;
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.text()).toContain(`at most ${RATE_LIMIT} a minute`);

    expect(
      (await beacon({ kind: 'page-error', group: 'other', version: '2.0.0' }, '198.51.100.3'))
        .status,
    ).toBe(204);
    expect((await fetch(`${siteUrl}/probe/hello`)).status).toBe(200);
    const after = await scrape();
    expect(sample(after, 'site_beacons_refused_total', { reason: 'rate_limited' })).toBe(
      200 - RATE_LIMIT,
    );
    expect(sample(after, 'site_http_requests_total', { status: '5xx', kind: 'other' })).toBe(0);
  }, 30_000);
});
