/**
 * The site server and a remote server, tried from outside as an attacker would: first the attacks
 * known to have worked, one by one, then thousands of generated requests sent on raw sockets.
 * Whatever is asked, a server keeps running, answers below 500, never redirects off the site,
 * never hands out a secret, never sends a content coding the client refused, and answers 304 to a
 * request that lists the current ETag.
 *
 *   FUZZ_SEED=<n>       replays a run (the seed is printed with every run and every failure)
 *   FUZZ_REQUESTS=<n>   requests to the site server (10,000; the remote server gets 4 in 10 of that)
 */
import { expect, test } from '@playwright/test';
import { FuzzBed } from '../support/fuzz/bed';
import type { Expectations } from '../support/fuzz/oracle';
import { Random, seedFromEnv } from '../support/fuzz/random';
import { fixedCase, makeCase } from '../support/fuzz/requests';
import type { FuzzCase, Surface } from '../support/fuzz/surface';
import { describeFindings, runCases, send, type Finding } from '../support/fuzz/run';

const SITE_REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_000);
if (!Number.isInteger(SITE_REQUESTS) || SITE_REQUESTS < 1)
  throw new Error(`FUZZ_REQUESTS must be a positive integer, not "${process.env.FUZZ_REQUESTS}"`);
const REMOTE_REQUESTS = Math.round(SITE_REQUESTS * 0.4);

let bed: FuzzBed;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  bed = await FuzzBed.start();
});

test.afterAll(async () => {
  await bed?.close();
});

function expectations(surface: Surface): Expectations {
  return surface.name === 'site'
    ? {
        origins: bed.siteOrigins,
        canaries: bed.siteCanaries,
        publicOnlyAt: {
          bytes: bed.manifest,
          publicPath: '/remotes.json',
          what: "the deploy folder's remotes.json",
        },
      }
    : { origins: bed.remoteOrigins, canaries: bed.remoteCanaries };
}

/** Sends each request in turn and expects nothing wrong with any answer. */
async function expectAnsweredWell(surface: Surface, requests: FuzzCase[]): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const [index, c] of requests.entries()) {
    findings.push(await send(surface.port, { ...c, index }, expectations(surface)));
  }
  const wrong = findings.filter((f) => f.problems.length);
  expect(wrong.length, describeFindings(wrong)).toBe(0);
  return findings;
}

/** Both servers still run and still serve a page and a file. */
async function expectStillServing(): Promise<void> {
  // A process that crashed on the last request may take a moment to be seen exiting.
  await new Promise((r) => setTimeout(r, 200));
  expect(bed.stopped(), `a server stopped; its last words:\n${bed.logTail()}`).toEqual([]);
  const about = await fetch(`http://localhost:${bed.site.port}/about`);
  expect(about.status, 'GET /about on the site').toBe(200);
  const entry = await fetch(`http://localhost:${bed.remote.port}${bed.remote.routes[0]}`);
  expect(entry.status, `GET ${bed.remote.routes[0]} on the remote`).toBe(200);
}

test.describe('attacks known to have worked', () => {
  test('a protocol-relative target with a port out of range (//x:99999/) is answered and the site server keeps running', async () => {
    await expectAnsweredWell(bed.site, [
      fixedCase(bed.site, 'GET', '//x:99999/'),
      fixedCase(bed.site, 'GET', '//x:99999/about'),
      fixedCase(bed.site, 'HEAD', 'http://x:99999/'),
    ]);
    await expectStillServing();
  });

  test('targets the URL parser refuses (//[, //%5B) are answered and the remote server keeps running', async () => {
    await expectAnsweredWell(bed.remote, [
      fixedCase(bed.remote, 'GET', '//%5B'),
      fixedCase(bed.remote, 'GET', '//['),
      fixedCase(bed.remote, 'GET', '//x:99999/'),
    ]);
    await expectAnsweredWell(bed.site, [
      fixedCase(bed.site, 'GET', '//['),
      fixedCase(bed.site, 'GET', '//%5B'),
    ]);
    await expectStillServing();
  });

  test('no redirect leads off the site (/.//evil.example/, /%2e//evil.example/, /./\\evil.example/)', async () => {
    const targets = [
      '/.//evil.example/',
      '/%2e//evil.example/',
      '/./\\evil.example/',
      '/.//evil.example/about/',
      '//evil.example/',
      '/\\evil.example/',
      '/%5cevil.example/',
    ];
    await expectAnsweredWell(
      bed.site,
      targets.map((t) => fixedCase(bed.site, 'GET', t)),
    );
    await expectAnsweredWell(
      bed.remote,
      targets.map((t) => fixedCase(bed.remote, 'GET', t)),
    );
    await expectStillServing();
  });

  test("the shell's Node build is never served (/%73erver/render.js, /server%2fchunks.json)", async () => {
    const findings = await expectAnsweredWell(
      bed.site,
      [
        '/server/render.js',
        '/server/chunks.json',
        '/%73erver/render.js',
        '/server%2fchunks.json',
        '/server%2Frender.js',
        '/./server/render.js',
        '/Server/../server/chunks.json',
      ].map((t) => fixedCase(bed.site, 'GET', t)),
    );
    for (const f of findings) {
      const status = f.outcome.kind === 'answer' ? f.outcome.answer.status : 0;
      expect(status >= 400 && status < 500, `${f.case.target}: ${status}`).toBe(true);
    }
    await expectStillServing();
  });

  test("dotfiles, the deploy folder and files beside a remote's folder are never served", async () => {
    const remoteTargets = [
      '/.git/config',
      '/.env',
      '/.private/notes.txt',
      `${bed.remote.routes[0]?.replace(/[^/]+$/, '')}.env`,
      '/%2egit/config',
      '/.git%2fconfig',
      '/../secret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e/dist-backup/secret.txt',
      '/..%2fdist-backup%2fsecret.txt',
    ];
    await expectAnsweredWell(
      bed.remote,
      remoteTargets.map((t) => fixedCase(bed.remote, 'GET', t)),
    );
    await expectAnsweredWell(
      bed.site,
      bed.site.secrets.map((t) => fixedCase(bed.site, 'GET', t)),
    );
    await expectStillServing();
  });

  test('an Accept-Encoding that refuses brotli (br;q=0) or gzip never gets it', async () => {
    const refusals = ['br;q=0, gzip', 'gzip;q=0, br', '*;q=0', 'gzip, *;q=0', 'identity'];
    const sitePaths = ['/', '/about', ...bed.site.etags.map((e) => e.path)];
    await expectAnsweredWell(
      bed.site,
      refusals.flatMap((ae) =>
        [...new Set(sitePaths)].map((p) =>
          fixedCase(bed.site, 'GET', p, { 'Accept-Encoding': ae }),
        ),
      ),
    );
    await expectAnsweredWell(
      bed.remote,
      refusals.flatMap((ae) =>
        bed.remote.routes.map((p) => fixedCase(bed.remote, 'GET', p, { 'Accept-Encoding': ae })),
      ),
    );
    await expectStillServing();
  });

  test('an If-None-Match that lists the current ETag, weak or strong, alone or in a list, gets 304', async () => {
    const tagged = (surface: Surface, p: string) =>
      surface.etags.find((e) => e.path === p && e.acceptEncoding === 'gzip, deflate, br');
    for (const p of ['/', '/about', '/favicon.svg'])
      expect(tagged(bed.site, p), `GET ${p} on the site carries an ETag`).toBeTruthy();
    for (const p of bed.remote.routes)
      expect(tagged(bed.remote, p), `GET ${p} on the remote carries an ETag`).toBeTruthy();
    for (const surface of [bed.site, bed.remote]) {
      const requests = surface.etags
        .filter((e) => e.acceptEncoding === 'gzip, deflate, br')
        .flatMap(({ path: p, etag }) => {
          const strong = etag.replace(/^W\//, '');
          return [etag, `W/${strong}`, strong, `"stale", ${etag}`, `${etag}, "stale"`].map(
            (inm) => ({
              ...fixedCase(surface, 'GET', p, {
                'Accept-Encoding': 'gzip, deflate, br',
                'If-None-Match': inm,
              }),
              expect304: true,
            }),
          );
        });
      await expectAnsweredWell(surface, requests);
    }
    await expectStillServing();
  });

  test('a malformed % in a deploy API name is refused with a 4xx, not a server error', async () => {
    const auth = { Authorization: `Bearer ${bed.token}`, 'Content-Type': 'application/json' };
    const body = JSON.stringify({
      base: 'x',
      entry: 'http://127.0.0.1:1/x/remoteEntry.js',
      version: '1.0.0',
    });
    const findings = await expectAnsweredWell(bed.site, [
      fixedCase(bed.site, 'POST', '/_deploy/remotes/%E0%A4%A/rollback', auth, body),
      fixedCase(bed.site, 'PUT', '/_deploy/remotes/%E0%A4%A', auth, body),
      fixedCase(bed.site, 'PUT', '/_deploy/remotes/%', auth, body),
      fixedCase(bed.site, 'GET', '/_deploy/history?remote=%E0%A4%A', auth),
    ]);
    for (const f of findings) {
      const status = f.outcome.kind === 'answer' ? f.outcome.answer.status : 0;
      expect(status >= 400 && status < 500, `${f.case.method} ${f.case.target}: ${status}`).toBe(
        true,
      );
    }
    await expectStillServing();
  });
});

/**
 * Sends `count` generated requests to `surface`'s server, `stream` telling the remote's requests
 * from the site's under one seed, and expects every answer to be right.
 */
async function fuzz(surface: Surface, count: number, stream: number): Promise<void> {
  test.setTimeout(120_000);
  const seed = seedFromEnv();
  test.info().annotations.push({ type: 'seed', description: String(seed) });
  const random = new Random((seed ^ stream) >>> 0);
  const cases = Array.from({ length: count }, (_, i) => makeCase(random, surface, i));
  const run = await runCases(surface.port, cases, expectations(surface));
  console.log(
    `${surface.name} server, seed ${seed}: ${count - run.notSent} requests in ${run.ms} ms; answers ${JSON.stringify(run.counts)}`,
  );
  const stopped = run.notSent
    ? `\n\nthe ${surface.name} server stopped taking connections; ${run.notSent} requests were not sent. Its last words:\n${bed.logTail()}`
    : '';
  expect(run.findings.length, describeFindings(run.findings, { seed }) + stopped).toBe(0);
  await expectStillServing();
}

test.describe('generated requests', () => {
  test(`the site server answers ${SITE_REQUESTS} generated requests without an error, a leak or a redirect off the site`, async () => {
    await fuzz(bed.site, SITE_REQUESTS, 0);
  });

  test(`a remote server answers ${REMOTE_REQUESTS} generated requests without an error, a leak or a redirect off its origin`, async () => {
    await fuzz(bed.remote, REMOTE_REQUESTS, 0x5bd1e995);
  });
});
