/**
 * @jest-environment node
 */
/**
 * A site server that (re)starts while a group's host is stopped or gone: the group's pages any
 * server composed before are served from their last good composition (kept in the control plane,
 * beside the live manifest), the other groups' pages as always, and the notice shows only for a
 * page no server ever composed, or one whose last good composition is older than the stated time.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testManifest } from '@site/build/testing/manifest';
import { createSite, type Site, type SiteHooks } from '../site';
import { parseSiteSettings } from '../settings';
import { freshDatabase } from './test-postgres';
import { drawn, heading, startGroupHost, type GroupHost } from './last-good-hosts';

// Site servers start and stop several times a test, on a machine other tests share.
jest.setTimeout(30_000);

const SHELL_DIST = path.join(__dirname, '..', '..', 'dist');
const METRICS_TOKEN = 'metrics-token-of-the-last-good-tests';
const PROBE = ['/probe/hello', '/probe/second'];
const OTHER = ['/other/page'];

let work: string;
let deployDir: string;
let probeHost: GroupHost;
let otherHost: GroupHost;
const sites: Site[] = [];
/** The control plane's database: a new one on the run's PostgreSQL for each test. */
let databaseUrl: string;

async function startSite(hooks: SiteHooks = {}): Promise<Site> {
  const site = await createSite(
    parseSiteSettings({
      SHELL_DIST,
      DEPLOY_DIR: deployDir,
      MAIL_SERVICE_URL: 'http://127.0.0.1:9',
      SITE_URL: 'https://www.example.test',
      RENDER_WORKERS: '1',
      GROUP_RENDER_WORKERS: '1',
      METRICS_TOKEN,
      FETCH_TIMEOUT_MS: '1000',
      DATABASE_URL: databaseUrl,
    }),
    { processMetrics: false, log: () => undefined, ...hooks },
  );
  sites.push(site);
  await site.app.ready();
  return site;
}

const get = (site: Site, url: string) => site.app.inject({ method: 'GET', url });

async function lastGoodServed(site: Site, group: string): Promise<number> {
  const metrics = await site.app.inject({
    method: 'GET',
    url: '/_metrics',
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const line = metrics.body
    .split('\n')
    .find((l) => l.startsWith(`site_pages_last_good_served_total{group="${group}"}`));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

/** A site server that (re)starts, and a group host stopped or killed. */
describe('a site server and a group host that went away', () => {
  beforeEach(async () => {
    databaseUrl = await freshDatabase();
    work = mkdtempSync(path.join(os.tmpdir(), 'site-last-good-'));
    deployDir = path.join(work, 'deploy');
    mkdirSync(deployDir);
    probeHost = await startGroupHost(path.join(work, 'probe-host'));
    otherHost = await startGroupHost(path.join(work, 'other-host'));
    writeFileSync(
      path.join(deployDir, 'remotes.json'),
      JSON.stringify(
        testManifest([
          probeHost.version('probe', '1.0.0', '/probe', PROBE),
          otherHost.version('other', '1.0.0', '/other', OTHER),
        ]),
      ),
    );
    // A server composes the group's first page while its host answers, and is gone.
    const first = await startSite();
    const page = await get(first, '/probe/hello');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(drawn('probe', '1.0.0', '/probe/hello'));
    await first.close();
  });

  afterEach(async () => {
    for (const site of sites.splice(0)) await site.close();
    await probeHost.kill();
    await otherHost.kill();
    rmSync(work, { recursive: true, force: true });
  });

  describe.each([
    ['stopped (it accepts and never answers)', () => probeHost.stop()],
    ['killed', () => probeHost.kill()],
  ])('a site server started while a group host is %s', (_, outage) => {
    it("serves the group's pages from their last good composition, and the others' as always", async () => {
      await outage();
      const site = await startSite();

      const page = await get(site, '/probe/hello');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(drawn('probe', '1.0.0', '/probe/hello'));
      expect(page.body).toContain('<title>Title of /probe/hello');
      expect(await lastGoodServed(site, 'probe')).toBeGreaterThanOrEqual(1);
      // The operator sees it in the server's readiness (and so in `npm run status`).
      const ready = await get(site, '/_ready');
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toMatchObject({ lastGood: [{ group: 'probe', served: 1 }] });

      // The other group's page, its heading and the stopped group's in the navbar (the manifest's).
      const other = await get(site, '/other/page');
      expect(other.statusCode).toBe(200);
      expect(other.body).toContain(drawn('other', '1.0.0', '/other/page'));
      expect(other.body).toContain(heading('probe'));
      expect(other.body).toContain(heading('other'));
      expect(await lastGoodServed(site, 'other')).toBe(0);

      // A page no server ever composed has nothing to fall back on.
      const never = await get(site, '/probe/second');
      expect(never.statusCode).toBe(503);
      expect(never.body).not.toContain(drawn('probe', '1.0.0', '/probe/second'));
    });

    it('shows the notice once the last good composition is older than the stated time', async () => {
      await outage();
      const site = await startSite({ lastGoodMaxAgeMs: 1 });

      const page = await get(site, '/probe/hello');
      expect(page.statusCode).toBe(503);
      expect(page.body).not.toContain(drawn('probe', '1.0.0', '/probe/hello'));
      expect(await lastGoodServed(site, 'probe')).toBe(0);
    });
  });
});

describe('a group page that throws while rendering, after it was good', () => {
  afterEach(async () => {
    for (const site of sites.splice(0)) await site.close();
    await probeHost.kill();
    rmSync(work, { recursive: true, force: true });
  });

  it('is served from its last good composition, on a server started afterwards too', async () => {
    databaseUrl = await freshDatabase();
    work = mkdtempSync(path.join(os.tmpdir(), 'site-last-good-'));
    deployDir = path.join(work, 'deploy');
    mkdirSync(deployDir);
    probeHost = await startGroupHost(path.join(work, 'probe-host'));
    // Its pages render for the next few seconds, then throw (a bug that a date, or data, sets off).
    const breaksAt = Date.now() + 6000;
    writeFileSync(
      path.join(deployDir, 'remotes.json'),
      JSON.stringify(
        testManifest([probeHost.version('probe', '1.0.0', '/probe', PROBE, breaksAt)]),
      ),
    );
    const first = await startSite();
    const good = await get(first, '/probe/hello');
    expect(good.body).toContain(drawn('probe', '1.0.0', '/probe/hello'));
    await first.close();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, breaksAt - Date.now())));

    const site = await startSite();
    const page = await get(site, '/probe/hello');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(drawn('probe', '1.0.0', '/probe/hello'));
    expect(await lastGoodServed(site, 'probe')).toBeGreaterThanOrEqual(1);
    // A page it never drew well has only the notice.
    const never = await get(site, '/probe/second');
    expect(never.statusCode).toBe(503);
  });
});
