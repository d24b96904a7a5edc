import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect } from '@playwright/test';
import { SITE_REMOTES } from '@site/contracts/site';
import { ROOT, test } from '../support/deployment';

/**
 * A team's code is trusted to render its pages and nothing else, and the deploy API fetches only
 * from allowed origins. Each test runs a site of its own with a deploy token (ports 3141-3148,
 * 3155-3159, 3186-3189).
 */
const TOKEN = 'test-deploy-token-remote-code-0123';
const LOCAL_REMOTES = SITE_REMOTES.map((r) => `http://localhost:${r.port}`);
const PUBLIC_HEALTH = SITE_REMOTES.find((r) => r.name === 'public_health')!;
const version = (folder: string): string =>
  (JSON.parse(readFileSync(path.join(ROOT, folder, 'package.json'), 'utf8')) as { version: string })
    .version;

async function api(site: string, method: string, route: string, body?: unknown) {
  const response = await fetch(`${site}${route}`, {
    method,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TOKEN}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

/** A server that records every request it gets and answers `answer`. */
async function recorder(
  port: number,
  answer: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_, res) =>
    res.end('{"status":"ok"}'),
) {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { seen, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** A copy of the public-health group's built version folder, as `version`, in a host folder. */
function copyVersion(to: string): string {
  const host = mkdtempSync(path.join(os.tmpdir(), 'remote-host-'));
  cpSync(
    path.join(ROOT, PUBLIC_HEALTH.folder, 'dist', version(PUBLIC_HEALTH.folder)),
    path.join(host, to),
    { recursive: true },
  );
  return host;
}

test.describe('the deploy API follows no redirect off the allowed origins', () => {
  test('an allowed origin that redirects elsewhere: refused, and nothing is fetched from elsewhere', async ({
    deployment,
  }) => {
    const elsewhere = await recorder(3142);
    // The allowed origin sends every request on to another host (here: another port).
    const redirecting = await recorder(3143, (req, res) => {
      res.writeHead(302, { Location: `http://127.0.0.1:3142${req.url ?? '/'}` });
      res.end();
    });
    try {
      const site = await deployment.startSite(3141, {
        deploy: { token: TOKEN, allowedOrigins: [...LOCAL_REMOTES, 'http://localhost:3143'] },
      });
      await deployment.writeManifest({});
      const { version: base } = (await api(site, 'GET', '/_deploy/manifest')).body;
      const refused = await api(site, 'PUT', '/_deploy/remotes/public_health', {
        base,
        entry: 'http://localhost:3143/2.0.0/remoteEntry.js',
        version: '2.0.0',
      });
      expect(refused.status).toBe(422);
      expect(refused.body.error).toBe('redirected');
      expect(refused.body.message).toContain('redirects are not followed');
      expect(redirecting.seen.length).toBeGreaterThan(0);
      expect(elsewhere.seen).toEqual([]);
      expect((await api(site, 'GET', '/_deploy/manifest')).body.version).toBe(base);
    } finally {
      await elsewhere.close();
      await redirecting.close();
    }
  });
});

test.describe("a team's server code runs with no secrets and no privileges", () => {
  test('a version whose pages.js reaches for secrets, files, processes and the network is refused, and reached none of them', async ({
    deployment,
  }) => {
    test.setTimeout(90_000);
    const internal = await recorder(3145);
    const host = copyVersion('6.6.6');
    try {
      const site = await deployment.startSite(3144, {
        deploy: { token: TOKEN, allowedOrigins: [...LOCAL_REMOTES, 'http://localhost:3146'] },
      });
      await deployment.writeManifest({});
      // The token as `npm start` keeps it, beside the live manifest.
      const tokenFile = path.join(deployment.deployDir, '.deploy-token');
      writeFileSync(tokenFile, `${TOKEN}\n`);
      const written = path.join(os.tmpdir(), `remote-code-probe-${process.pid}`);
      rmSync(written, { force: true });
      const routes = (
        JSON.parse(readFileSync(path.join(host, '6.6.6', 'routes.json'), 'utf8')) as {
          routes: { path: string }[];
        }
      ).routes;
      // Every page of this version tries each thing and reports what it got.
      writeFileSync(
        path.join(host, '6.6.6', 'server', 'pages.js'),
        `const get = (name) => globalThis.process.getBuiltinModule(name);
const attempt = async (what, act) => {
  try { return what + ': ' + String(await act()); }
  catch (error) { return what + ': ' + (error.code || error.name || 'error'); }
};
async function probe() {
  return [
    await attempt('env', () => globalThis.process.env.DEPLOY_TOKEN),
    await attempt('read', () => get('fs').readFileSync(${JSON.stringify(tokenFile)}, 'utf8')),
    await attempt('write', () => (get('fs').writeFileSync(${JSON.stringify(written)}, 'x'), 'written')),
    await attempt('spawn', () => get('child_process').execFileSync('id', { encoding: 'utf8' })),
    await attempt('fetch', () => fetch('http://127.0.0.1:3145/fetched').then((r) => r.status)),
    await attempt('socket', () => new Promise((resolve, reject) => {
      const socket = get('net').connect(3145, '127.0.0.1', () => resolve('connected'));
      socket.on('error', reject);
    })),
  ].join('; ');
}
exports.pages = Object.fromEntries(${JSON.stringify(routes.map((r) => r.path))}.map((p) => [
  p,
  async () => { throw new Error('probe: ' + (await probe())); },
]));
`,
      );
      await deployment.startRemote(host, 3146);
      const { version: base } = (await api(site, 'GET', '/_deploy/manifest')).body;
      const refused = await api(site, 'PUT', '/_deploy/remotes/public_health', {
        base,
        entry: 'http://localhost:3146/6.6.6/remoteEntry.js',
        version: '6.6.6',
      });
      expect(refused.status).toBe(422);
      expect(refused.body.error).toBe('render_failed');
      const { message } = refused.body;
      expect(message).toContain('env: undefined');
      expect(message).toContain('read: ERR_BUILTIN_DENIED');
      expect(message).toContain('write: ERR_BUILTIN_DENIED');
      expect(message).toContain('spawn: ERR_BUILTIN_DENIED');
      expect(message).toMatch(/fetch: (?!200)/);
      expect(message).not.toContain('socket: connected');
      expect(message).not.toContain(TOKEN);
      expect(deployment.siteLog).not.toContain(TOKEN);
      expect(internal.seen).toEqual([]);
      expect(existsSync(written)).toBe(false);
      expect((await api(site, 'GET', '/_deploy/manifest')).body.version).toBe(base);
    } finally {
      await internal.close();
      rmSync(host, { recursive: true, force: true });
    }
  });

  test("a live version folder whose pages.js is replaced after its deploy: that group's pages 503, the rest of the site 200", async ({
    deployment,
  }) => {
    test.setTimeout(90_000);
    const current = version(PUBLIC_HEALTH.folder);
    const host = copyVersion(current);
    try {
      await deployment.startRemote(host, 3148);
      await deployment.writeManifest({ urls: { public_health: 'http://localhost:3148' } });
      // Someone with write access to the bucket swaps the file after it was pinned.
      const file = path.join(host, current, 'server', 'pages.js');
      writeFileSync(file, `${readFileSync(file, 'utf8')}\n// changed after its deploy\n`);
      const site = await deployment.startSite(3147);

      const swapped = await fetch(`${site}/public-health/MandE-tools`);
      expect(swapped.status).toBe(503);
      expect(await swapped.text()).toContain('temporarily unavailable');
      expect(deployment.siteLog).toContain(`${current}/server/pages.js`);
      expect(deployment.siteLog).toMatch(/does not match its pinned SHA-256/);
      for (const other of ['/', '/about', '/services/custom-dev/software-dev']) {
        expect((await fetch(`${site}${other}`)).status).toBe(200);
      }
    } finally {
      rmSync(host, { recursive: true, force: true });
    }
  });
});
