import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from '@playwright/test';
import { SITE_REMOTES } from '@site/contracts/site';
import { startPostgres } from '@site/build/testing/postgres';
import { findNginx, writeBalancerConfig } from '../../scripts/lib/cluster';
import { ROOT, endProcess, test } from '../support/deployment';

/**
 * What the load balancer keeps for a second, as visitors see it: a public page is answered by
 * nginx while every replica is stopped, each encoding only to those who asked for it, a deploy
 * within about a second, and a preview's or a canary cohort's answers only to their own visitor.
 * Ports: nginx 3510, site servers 3511-3512, a second origin of the public-health group 3514,
 * PostgreSQL 3518; the suite's remotes and mail-service (3001-3005).
 */
const TOKEN = 'cluster-cache-token-0123456789';
const LB = 'http://localhost:3510';
const PORTS = [3511, 3512];
const SECOND_ORIGIN = 'http://localhost:3514';
const FIRST_ENTRY = 'http://localhost:3004/1.0.0/remoteEntry.js';
const SECOND_ENTRY = `${SECOND_ORIGIN}/1.0.0/remoteEntry.js`;
const ALLOWED = [...SITE_REMOTES.map((r) => `http://localhost:${r.port}`), SECOND_ORIGIN];

interface Answer {
  status: number;
  cache: string | null;
  headers: Headers;
  text: string;
}

/**
 * A kept-alive connection the other side closes just as a request goes out on it ("other side
 * closed") is a race of HTTP/1.1 itself: a browser sends a GET or HEAD again on a new connection
 * (RFC 9112, 9.3.1), and so does this visitor, once.
 */
async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const code = ((error as Error).cause as { code?: string } | undefined)?.code;
    const idempotent = !init.method || init.method === 'GET' || init.method === 'HEAD';
    if (idempotent && code === 'UND_ERR_SOCKET') return fetch(url, init);
    throw error;
  }
}

async function ask(url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await send(`${LB}${url}`, { redirect: 'manual', ...init });
  return {
    status: response.status,
    cache: response.headers.get('x-cache-status'),
    headers: response.headers,
    text: await response.text(),
  };
}

/** Where public_health's entry points in a manifest's text. */
const publicHealthEntry = (text: string) =>
  (JSON.parse(text) as { remotes: { name: string; entry: string }[] }).remotes.find(
    (r) => r.name === 'public_health',
  )?.entry;

/** A change through the deploy API (the balancer's `/_deploy/`), from the live manifest. */
async function change(body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const auth = { Authorization: `Bearer ${TOKEN}` };
  const { version: base } = (await (
    await fetch(`${LB}/_deploy/manifest`, { headers: auth })
  ).json()) as {
    version: string;
  };
  const response = await fetch(`${LB}/_deploy/remotes/public_health`, {
    method: 'PUT',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ base, version: '1.0.0', ...body }),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  expect(response.status, JSON.stringify(answer)).toBe(200);
  return answer;
}

/** The cookie `name` an answer sets, as a browser would send it back ('' when none). */
const cookieOf = (answer: Answer, name: string) =>
  answer.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith(`${name}=`)) ?? '';

/** A browser's User-Agent: crawlers are never placed in a canary's cohort. */
const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

test('the balancer keeps public answers for a second and never shares a private one', async ({
  deployment,
}) => {
  test.setTimeout(180_000);
  const postgres = await startPostgres({ port: 3518 });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cluster-cache-'));
  let nginx: ChildProcess | undefined;
  const replicas: ChildProcess[] = [];
  try {
    await deployment.writeManifest({});
    for (const port of PORTS) {
      const before = deployment.children.length;
      await deployment.startSite(port, {
        deploy: { token: TOKEN, allowedOrigins: ALLOWED },
        trustProxy: 'loopback',
        env: { DATABASE_URL: postgres.url, SITE_URL: LB, REPLICA_NAME: `replica-${port}` },
      });
      replicas.push(deployment.children[before]!);
    }
    await deployment.startRemote(path.join(ROOT, 'mfe-public-health', 'dist'), 3514);
    const config = writeBalancerConfig({ dir, port: 3510, sites: PORTS, mailServices: [3005] });
    nginx = spawn(findNginx(), ['-p', dir, '-c', config, '-g', 'daemon off;'], {
      stdio: 'ignore',
    });
    await expect
      .poll(() =>
        ask('/about').then(
          (a) => a.status,
          () => 0,
        ),
      )
      .toBe(200);

    await test.step('a public page is answered by nginx, even while every replica is stopped', async () => {
      const gzip = { headers: { 'Accept-Encoding': 'gzip' } };
      await expect.poll(async () => (await ask('/about', gzip)).cache).toBe('HIT');
      const first = await ask('/about', gzip);
      for (const replica of replicas) replica.kill('SIGSTOP');
      try {
        const kept = await ask('/about', gzip);
        expect(kept).toMatchObject({ status: 200, cache: 'HIT', text: first.text });
        expect(kept.headers.get('cache-control')).toBe('no-cache');
        // A browser revalidating its copy is answered by nginx too.
        const etag = kept.headers.get('etag')!;
        const revalidated = await ask('/about', {
          headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': etag },
        });
        expect(revalidated).toMatchObject({ status: 304, cache: 'HIT' });
      } finally {
        for (const replica of replicas) replica.kill('SIGCONT');
      }
    });

    await test.step('each encoding reaches only those who asked for it', async () => {
      const page = '/services/data-analytics/big-data';
      // Its first render, on a busy machine, may outlast the balancer's read time: asked until it
      // is there, as a visitor's reload would.
      await expect
        .poll(async () => (await ask(page, { headers: { 'Accept-Encoding': 'gzip' } })).status)
        .toBe(200);
      const answers: Record<string, Answer> = {};
      for (const coding of ['gzip', 'br', 'identity']) {
        answers[coding] = await ask(page, { headers: { 'Accept-Encoding': coding } });
      }
      expect(answers.gzip!.headers.get('content-encoding')).toBe('gzip');
      expect(answers.br!.headers.get('content-encoding')).toBe('br');
      expect(answers.identity!.headers.get('content-encoding')).toBeNull();
      expect(new Set(Object.values(answers).map((a) => a.text)).size).toBe(1);
    });

    await test.step('a POST is answered by the site server, never from what is kept', async () => {
      await expect.poll(async () => (await ask('/about')).cache).toBe('HIT');
      const posted = await ask('/about', { method: 'POST', body: 'x=1' });
      expect(posted.status).toBe(405);
      expect(posted.cache).toBeNull();
      expect(posted.text).toBe('Only GET and HEAD are answered here.\n');
    });

    await test.step('a deploy reaches visitors within 2.5 s of the replicas serving it', async () => {
      // Visitors keep the manifest and a page in the balancer's cache all along.
      let watching = true;
      const seen: { at: number; entry: string | undefined }[] = [];
      const watchers = Array.from({ length: 4 }, async () => {
        while (watching) {
          const manifest = await ask('/remotes.json');
          seen.push({ at: Date.now(), entry: publicHealthEntry(manifest.text) });
          await ask('/about');
        }
      });
      await expect
        .poll(() => seen.filter((s) => s.entry === FIRST_ENTRY).length)
        .toBeGreaterThan(20);
      await change({ entry: SECOND_ENTRY, reason: 'the second origin' });
      const answeredAt = Date.now();
      // The replicas hear of the change by notification (cluster.spec.ts times that); the
      // balancer adds at most the second it keeps the manifest.
      await expect
        .poll(
          async () =>
            Promise.all(
              PORTS.map(async (port) =>
                publicHealthEntry(
                  await (await send(`http://localhost:${port}/remotes.json`, {})).text(),
                ),
              ),
            ),
          { intervals: [20], timeout: 5000 },
        )
        .toEqual([SECOND_ENTRY, SECOND_ENTRY]);
      const servedAt = Date.now();
      // Watched for 3 s after that: twice the time the change may take.
      await expect
        .poll(() => seen.some((s) => s.at > servedAt + 3000), { timeout: 15_000 })
        .toBe(true);
      watching = false;
      await Promise.all(watchers);
      const lastOld = Math.max(
        servedAt,
        ...seen.filter((s) => s.entry !== SECOND_ENTRY).map((s) => s.at),
      );
      console.log(
        `cluster cache: every replica served the deploy ${servedAt - answeredAt} ms after its answer, every visitor through the balancer ${lastOld - answeredAt} ms after it (load average ${os.loadavg()[0]!.toFixed(2)})`,
      );
      // nginx counts a kept answer's life in whole seconds: "1 s" lasts 1 to 2 s.
      expect(lastOld - servedAt).toBeLessThan(2500);
      expect(seen.at(-1)!.entry).toBe(SECOND_ENTRY);
    });

    await test.step("a preview's answers reach only the browser that opened it", async () => {
      const { preview } = (await change({ entry: FIRST_ENTRY, preview: true })) as {
        preview: { url: string };
      };
      const opened = await ask(new URL(preview.url).pathname);
      expect(opened.status).toBe(303);
      const previewing = { headers: { Cookie: cookieOf(opened, 'site_preview') } };
      for (let i = 0; i < 3; i++) {
        const own = await ask('/remotes.json', previewing);
        expect(publicHealthEntry(own.text)).toBe(FIRST_ENTRY);
        expect(own.cache).toBe('BYPASS');
        expect(own.headers.get('cache-control')).toBe('private, no-store');
        const other = await ask('/remotes.json');
        expect(publicHealthEntry(other.text)).toBe(SECOND_ENTRY);
      }
      const page = await ask('/public-health/MandE-tools', previewing);
      expect(page.cache).toBe('BYPASS');
    });

    await test.step("while a canary runs, a visitor's pages and manifest are its own", async () => {
      // Crawlers keep asking all along: the kept manifest is fetched again and again meanwhile.
      let crawling = true;
      const crawlers = Array.from({ length: 4 }, async () => {
        while (crawling) await ask('/remotes.json');
      });
      await change({ entry: FIRST_ENTRY, canary: 50, reason: 'a canary' });
      // The kept copy is not served once it may not be kept: every answer is private from then.
      await expect
        .poll(async () => (await ask('/remotes.json')).headers.get('cache-control'))
        .toBe('private, no-cache');
      for (let i = 0; i < 10; i++) {
        expect((await ask('/remotes.json')).headers.get('cache-control')).toBe('private, no-cache');
      }
      crawling = false;
      await Promise.all(crawlers);
      // New visitors each get a cohort of their own with their first answer, never a kept one.
      const visitors: string[] = [];
      for (let i = 0; i < 16; i++) {
        const first = await ask(i % 2 ? '/remotes.json' : '/about', {
          headers: { 'User-Agent': BROWSER },
        });
        expect(first.cache).not.toBe('HIT');
        expect(first.headers.get('cache-control')).toBe('private, no-cache');
        expect(cookieOf(first, 'site_cohort')).toMatch(/^site_cohort=./);
        visitors.push(cookieOf(first, 'site_cohort'));
      }
      // Each visitor sees one version all along, and the visitors between them see both.
      const entries = new Set<string | undefined>();
      for (const cookie of visitors) {
        const own = new Set<string | undefined>();
        for (let i = 0; i < 3; i++) {
          const answer = await ask('/remotes.json', {
            headers: { Cookie: cookie, 'User-Agent': BROWSER },
          });
          expect(answer.cache).toBe('BYPASS');
          own.add(publicHealthEntry(answer.text));
        }
        expect(own.size).toBe(1);
        entries.add([...own][0]);
      }
      expect(entries).toEqual(new Set([FIRST_ENTRY, SECOND_ENTRY]));
    });
  } finally {
    for (const replica of replicas) replica.kill('SIGCONT');
    await endProcess(nginx);
    await deployment.close();
    rmSync(dir, { recursive: true, force: true });
    await postgres.stop();
  }
});
