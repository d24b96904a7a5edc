import { execFile } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * `npm run status` given bad arguments, and parts that are down or hang: a clear message and exit
 * code, never a wait without end. A real listener that accepts connections and never answers
 * stands for a hung part.
 */
const STATUS = path.join(__dirname, '..', 'status.ts');
const run = (args: string[]) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', STATUS, ...args], {
    env: { ...process.env, DEPLOY_TOKEN: 'operator-token-for-the-status-test' },
  }).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({
      code: e.code,
      out: e.stdout + e.stderr,
    }),
  );

test.each([
  [['--timeout', 'soon'], '--timeout is whole milliseconds from 100 to 60000, not "soon"'],
  [['--timeout', '5'], '--timeout is whole milliseconds from 100 to 60000, not "5"'],
  [['--site', 'ftp://example.test'], '--site must be an http(s) URL'],
  [['--replicas', 'not a url'], '--replicas must be an http(s) URL'],
  [['--nonsense'], "Unknown option '--nonsense'"],
])('%j is refused with exit 2 and the reason', async (args, reason) => {
  const { code, out } = await run(args);
  expect(code).toBe(2);
  expect(out).toContain(reason);
  expect(out).toContain('usage: npm run status');
});

test('a part that hangs and one that is down are named, within the time limit, and the exit code is 1', async () => {
  const hung = net.createServer(() => undefined);
  await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
  const port = (hung.address() as net.AddressInfo).port;
  try {
    const started = Date.now();
    const { code, out } = await run([
      '--site',
      `http://127.0.0.1:${port}`,
      '--replicas',
      `http://127.0.0.1:${port},http://127.0.0.1:9`,
      '--mail',
      'http://127.0.0.1:9',
      '--timeout',
      '500',
    ]);
    expect(code).toBe(1);
    expect(out).toContain(
      `http://127.0.0.1:${port}  NOT ANSWERING (no answer within 500 ms: hung)`,
    );
    expect(out).toContain('http://127.0.0.1:9  NOT ANSWERING (not answering: down)');
    expect(out).toContain('Live manifest: unknown (no answer within 500 ms: hung)');
    expect(Date.now() - started).toBeLessThan(15_000);
  } finally {
    hung.close();
  }
});

test("a site server serving a group's pages from their last good composition says so", async () => {
  const lastAt = '2026-11-29T03:40:00.000Z';
  const site = http.createServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    if (request.url !== '/_ready') {
      response.writeHead(404).end('{"error":"not here"}');
      return;
    }
    response.end(
      JSON.stringify({
        status: 'ready',
        manifest: '0123456789ab',
        problems: [],
        lastGood: [{ group: 'data', served: 12, lastAt }],
      }),
    );
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(site.address() as net.AddressInfo).port}`;
  try {
    const { out } = await run(['--site', url, '--replicas', url, '--mail', 'http://127.0.0.1:9']);
    expect(out).toContain(`${url}  ready, manifest 0123456789ab`);
    expect(out).toContain(
      `    data: its render fails; 12 page view(s) served from their last good composition, the last at ${lastAt}`,
    );
  } finally {
    site.close();
  }
});

test('a manifest the site server could not confirm with the control plane is marked unconfirmed, with the reason', async () => {
  const why = 'the control-plane database is unreachable: this is the manifest this server serves';
  const site = http.createServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    if (request.url === '/_ready') {
      response.end(JSON.stringify({ status: 'ready', manifest: '0123456789ab', problems: [] }));
    } else if (request.url === '/_deploy/manifest') {
      response.end(
        JSON.stringify({
          version: '0123456789ab',
          manifest: { schemaVersion: 1, remotes: [{ name: 'data', version: '1.0.0' }] },
          unconfirmed: why,
        }),
      );
    } else {
      response.writeHead(404).end('{"error":"not here"}');
    }
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(site.address() as net.AddressInfo).port}`;
  try {
    const { out } = await run(['--site', url, '--replicas', url, '--mail', 'http://127.0.0.1:9']);
    expect(out).toContain('Live manifest 0123456789ab: data@1.0.0');
    expect(out).toContain(`  UNCONFIRMED: ${why}`);
  } finally {
    site.close();
  }
});
