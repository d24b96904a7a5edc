/**
 * One real site for a test file to ask in-process (`app.inject`, no port of its own): the real shell
 * build, real render processes, two test groups whose version folders a real HTTP server serves,
 * the deploy API and the metrics on. With `mailService`, the real mail-service runs as its own
 * process (as `npm start` starts it) and the site's `/api` and contact form reach it. The site's
 * control plane and the mail-service's outbox each have a new database on the run's PostgreSQL
 * (test-postgres.ts). Every server listens on a port the system has free.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sha256Integrity } from '@site/contracts/integrity';
import { testManifest, testRoute } from '@site/build/testing/manifest';
import { ephemeralPort } from '@site/build/testing/ports';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { createSite, type Site, type SiteHooks } from '../../site';
import { parseSiteSettings, type SiteSettingName } from '../../settings';
import { freshDatabase } from '../test-postgres';

const ROOT = path.join(__dirname, '..', '..', '..', '..');
export const SHELL_DIST = path.join(ROOT, 'shell', 'dist');
export const SITE_URL = 'https://www.example.test';
export const DEPLOY_TOKEN = 'deploy-token-of-the-http-tests';
export const METRICS_TOKEN = 'metrics-token-of-the-http-tests';
export const BEACON_LIMIT = 5;

/** The test groups, their prefixes and pages (`broken` throws while it renders). */
export const GROUPS = {
  probe: { prefix: '/probe', paths: ['/probe/hello', '/probe/second', '/probe/broken'] },
  other: { prefix: '/other', paths: ['/other/page'] },
} as const;
export type Group = keyof typeof GROUPS;

/** The prefixes the fixture's site table grants each test group, `grown` included. */
export const GRANTS = { probe: ['/probe'], other: ['/other'], grown: ['/grown'] };

/** A route of the test groups: its title and description name its path. */
export const routeOf = (urlPath: string) => ({
  ...testRoute(urlPath),
  description: `What the page at ${urlPath} says, described at length for its visitors.`,
});

/**
 * A group of `count` pages as a growing site has them: its overview at `/grown` and pages 1 to
 * `count - 1` under it, in its own navigation group.
 */
export const grownGroup = (count: number): GroupPages => ({
  prefix: '/grown',
  paths: ['/grown', ...Array.from({ length: count - 1 }, (_, i) => `/grown/page-${i + 1}`)],
  route: (urlPath) => ({
    ...routeOf(urlPath),
    title: urlPath === '/grown' ? 'Grown services' : `Grown ${urlPath.slice('/grown/'.length)}`,
    group: 'Grown',
    navLabel: urlPath === '/grown' ? 'Grown services' : `Grown ${urlPath.slice('/grown/'.length)}`,
  }),
});

/** A group's pages: its prefix, its paths and how each route reads. */
export interface GroupPages {
  prefix: string;
  paths: readonly string[];
  route?: (urlPath: string) => ReturnType<typeof routeOf>;
}

/** A version's Node build: each page says which group and version drew it. */
const pagesJs = (
  group: string,
  version: string,
  paths: readonly string[],
) => `const React = require('react');
const page = (text) => () => Promise.resolve({ default: () => React.createElement('p', null, text) });
exports.pages = Object.fromEntries(${JSON.stringify(paths)}.map((p) => [
  p,
  p.endsWith('/broken') ? () => Promise.reject(new Error('this page is broken')) : page('Drawn by ${group} ' + ${JSON.stringify(version)} + ' at ' + p),
]));
`;

/** The text a group's page shows. */
export const drawn = (group: string, version: string, urlPath: string) =>
  `Drawn by ${group} ${version} at ${urlPath}`;

/** Version folders of the test groups, served by a real HTTP server. */
class Bucket {
  readonly server: http.Server;
  origin = '';

  constructor(readonly dir: string) {
    this.server = http.createServer((req, res) => {
      const file = path.join(dir, path.normalize(decodeURIComponent(req.url ?? '/')));
      if (!file.startsWith(`${dir}${path.sep}`) || !existsSync(file)) {
        res.writeHead(404).end();
        return;
      }
      res.end(readFileSync(file));
    });
  }

  /** Writes a version folder of `group` and returns its entry in a manifest. */
  version(group: string, version: string, pages: GroupPages = GROUPS[group as Group]) {
    const folder = path.join(this.dir, group, version);
    const js = pagesJs(group, version, pages.paths);
    const table = {
      remote: group,
      prefixes: [pages.prefix],
      routes: pages.paths.map(pages.route ?? routeOf),
    };
    mkdirSync(path.join(folder, 'server'), { recursive: true });
    writeFileSync(path.join(folder, 'server', 'pages.js'), js);
    writeFileSync(path.join(folder, 'routes.json'), JSON.stringify(table));
    writeFileSync(path.join(folder, 'mf-manifest.json'), JSON.stringify({ id: group, shared: [] }));
    writeFileSync(path.join(folder, 'page-assets.json'), JSON.stringify({ pages: {} }));
    writeFileSync(path.join(folder, 'remoteEntry.js'), `var ${group};`);
    return {
      name: group,
      entry: `${this.origin}/${group}/${version}/remoteEntry.js`,
      version,
      ...table,
      serverIntegrity: sha256Integrity(Buffer.from(js)),
    };
  }
}

/** The real mail-service, started as `npm start` starts it, with its mailbox in `dir`. */
async function startMailService(dir: string, env: Record<string, string>) {
  mkdirSync(dir, { recursive: true });
  const port = await ephemeralPort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: path.join(ROOT, 'mail-service'),
    env: {
      ...process.env,
      MAIL_SERVICE_PORT: String(port),
      DATA_DIR: path.join(dir, 'data'),
      MAILBOX_DIR: path.join(dir, 'mailbox'),
      ALLOWED_ORIGINS: SITE_URL,
      TRUST_PROXY: 'loopback',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => logs.push(chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => logs.push(chunk.toString('utf8')));
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (logs.join('').includes('listening')) return done(resolve);
      if (child.exitCode !== null) done(() => reject(new Error(logs.join(''))));
    };
    const done = (then: () => void) => {
      child.stdout?.off('data', check);
      child.off('exit', check);
      then();
    };
    child.stdout?.on('data', check);
    child.on('exit', check);
    check();
  });
  return { child, url: `http://127.0.0.1:${port}`, mailbox: path.join(dir, 'mailbox') };
}

export interface SiteFixture {
  site: Site;
  /** The origin the groups' version folders are served from. */
  origin: string;
  /** The folder served there: `<dir>/<group>/<version>/`. */
  dir: string;
  /** Writes another version folder of a group, for a preview or a canary. */
  version(group: Group, version: string): ReturnType<Bucket['version']>;
  /** Writes a version folder of another group, with its own pages. */
  group(name: string, version: string, pages: GroupPages): ReturnType<Bucket['version']>;
  /** The real mail-service, when the fixture was asked for one. */
  mail?: { child: ChildProcess; url: string; mailbox: string };
  inject(options: InjectOptions | string): Promise<LightMyRequestResponse>;
  /** A deploy API call with the operator's token. */
  deploy(method: 'GET' | 'PUT' | 'POST', route: string, body?: unknown): Promise<DeployAnswer>;
  close(): Promise<void>;
}

export interface DeployAnswer {
  status: number;
  body: Record<string, unknown>;
}

export async function startFixture(
  options: {
    mailService?: Record<string, string>;
    /** Settings over the fixture's, as the environment gives them. */
    settings?: Partial<Record<SiteSettingName, string>>;
    /** What tests give a site besides its settings. */
    hooks?: SiteHooks;
    /** A third group, `grown`, live from the start with these pages. */
    grown?: GroupPages;
  } = {},
): Promise<SiteFixture> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'site-http-'));
  const bucket = new Bucket(path.join(work, 'remotes'));
  await new Promise<void>((resolve) => bucket.server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(bucket.server.address() as AddressInfo).port}`;
  bucket.origin = origin;
  const mail = options.mailService
    ? await startMailService(path.join(work, 'mail'), {
        // The mail-service keeps its outbox in PostgreSQL: a database of its own.
        DATABASE_URL: await freshDatabase(),
        ...options.mailService,
      }).catch(async (error: unknown) => {
        // A fixture that cannot start leaves nothing running behind it.
        await new Promise((resolve) => bucket.server.close(resolve));
        rmSync(work, { recursive: true, force: true });
        throw error;
      })
    : undefined;
  const deployDir = path.join(work, 'deploy');
  mkdirSync(deployDir);
  writeFileSync(
    path.join(deployDir, 'remotes.json'),
    JSON.stringify(
      testManifest([
        bucket.version('probe', '1.0.0'),
        bucket.version('other', '1.0.0'),
        ...(options.grown ? [bucket.version('grown', '1.0.0', options.grown)] : []),
      ]),
    ),
  );
  const site = await createSite(
    parseSiteSettings({
      SHELL_DIST,
      DEPLOY_DIR: deployDir,
      DATABASE_URL: await freshDatabase(),
      MAIL_SERVICE_URL: mail?.url ?? 'http://127.0.0.1:9',
      SITE_URL,
      RENDER_WORKERS: '1',
      GROUP_RENDER_WORKERS: '1',
      METRICS_TOKEN,
      BEACON_RATE_LIMIT: String(BEACON_LIMIT),
      DEPLOY_TOKEN,
      DEPLOY_ALLOWED_ORIGINS: origin,
      ...options.settings,
    }),
    { processMetrics: false, grants: GRANTS, log: () => undefined, ...options.hooks },
  );
  await site.app.ready();
  const inject = (request: InjectOptions | string) => site.app.inject(request);
  return {
    site,
    origin,
    dir: bucket.dir,
    version: (group, version) => bucket.version(group, version),
    group: (name, version, pages) => bucket.version(name, version, pages),
    ...(mail ? { mail } : {}),
    inject,
    async deploy(method, route, body) {
      const answer = await inject({
        method,
        url: `/_deploy${route}`,
        headers: {
          authorization: `Bearer ${DEPLOY_TOKEN}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
      return { status: answer.statusCode, body: answer.json() };
    },
    async close() {
      await site.close();
      bucket.server.closeAllConnections();
      await new Promise((resolve) => bucket.server.close(resolve));
      if (mail && mail.child.exitCode === null) {
        const exited = new Promise((resolve) => mail.child.once('exit', resolve));
        mail.child.kill('SIGTERM');
        await exited;
      }
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/** The contents of an element of a page's head, by a pattern around it. */
export const headTag = (html: string, pattern: RegExp): string | undefined =>
  pattern.exec(html)?.[1];

export const titleOf = (html: string) => headTag(html, /<title>([^<]*)<\/title>/);
export const descriptionOf = (html: string) =>
  headTag(html, /<meta name="description" content="([^"]*)"/);
export const canonicalOf = (html: string) => headTag(html, /<link rel="canonical" href="([^"]*)"/);
