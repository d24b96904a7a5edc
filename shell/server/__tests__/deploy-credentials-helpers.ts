/**
 * What the deploy-credential tests share: a bucket of groups' version folders served by a real
 * HTTP server on a port the system has free (each group's route table, federation manifest and
 * Node build), and a real site (the real shell build, real render processes, its control plane in
 * a database of the run's PostgreSQL) whose deploy API is called in-process.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { sha256Integrity } from '@site/contracts/integrity';
import { testManifest, testRoute } from '@site/build/testing/manifest';
import type { AddressInfo } from 'node:net';
import { createSite, type Site } from '../site';
import { parseSiteSettings } from '../settings';
import { freshDatabase } from './test-postgres';

export const SHELL_DIST = path.join(__dirname, '..', '..', 'dist');
export const OPERATOR = 'operator-token-of-the-credentials-test';

/** One Node build for every version of every test group: a page at each group's `/<group>/page`. */
const PAGES_JS = `const React = require('react');
const page = (text) => () => Promise.resolve({ default: () => React.createElement('p', null, text) });
exports.pages = Object.fromEntries(['alpha', 'beta'].map((g) => ['/' + g + '/page', page('Page of ' + g)]));
`;
export const PAGES_INTEGRITY = sha256Integrity(Buffer.from(PAGES_JS));

/** The prefixes the tests' site table grants each test group: its own. */
export const GRANTS = { alpha: ['/alpha'], beta: ['/beta'] };

/** The route table a group's version publishes: by default its own, at `/<group>/page`. */
export const tableOf = (group: string, paths = [`/${group}/page`]) => ({
  remote: group,
  prefixes: [`/${group}`],
  routes: paths.map((p) => testRoute(p)),
});

/** A bucket of version folders under `dir`, served on a free port from `ports`. */
export class Bucket {
  readonly server: http.Server;
  origin = '';
  /**
   * Folders whose files the host accepts requests for and does not answer (a host that hangs),
   * each with the answers it holds, until `release`.
   */
  private readonly held = new Map<string, (() => void)[]>();
  private readonly holding: (() => void)[] = [];

  constructor(readonly dir: string) {
    this.server = http.createServer((req, res) => {
      const folder = [...this.held.keys()].find((f) => (req.url ?? '').startsWith(f));
      if (folder) {
        this.held.get(folder)!.push(() => this.serve(req, res));
        this.holding.splice(0).forEach((notify) => notify());
        return;
      }
      this.serve(req, res);
    });
  }

  /** From now on, requests for `folder` (such as `/alpha/2.0.0/`) get no answer until released. */
  hold(folder: string): void {
    this.held.set(folder, []);
  }

  /** Resolves once the host holds a request: whoever sent it is waiting for it. */
  holdsARequest(): Promise<void> {
    if ([...this.held.values()].some((waiting) => waiting.length)) return Promise.resolve();
    return new Promise((resolve) => this.holding.push(resolve));
  }

  /** Answers the requests held for `folder`, and the ones after them, as a host that recovered. */
  release(folder: string): void {
    const waiting = this.held.get(folder) ?? [];
    this.held.delete(folder);
    waiting.forEach((answer) => answer());
  }

  private serve(req: http.IncomingMessage, res: http.ServerResponse): void {
    const file = path.join(this.dir, path.normalize(decodeURIComponent(req.url ?? '/')));
    if (!file.startsWith(`${this.dir}${path.sep}`) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.end(readFileSync(file));
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Writes (or rewrites) a version folder of `group`, publishing `table`. */
  version(group: string, version: string, table: unknown = tableOf(group)): void {
    const folder = path.join(this.dir, group, version);
    mkdirSync(path.join(folder, 'server'), { recursive: true });
    writeFileSync(path.join(folder, 'server', 'pages.js'), PAGES_JS);
    writeFileSync(path.join(folder, 'routes.json'), JSON.stringify(table));
    writeFileSync(path.join(folder, 'mf-manifest.json'), JSON.stringify({ id: group, shared: [] }));
    writeFileSync(path.join(folder, 'page-assets.json'), JSON.stringify({ pages: {} }));
    writeFileSync(path.join(folder, 'remoteEntry.js'), `var ${group};`);
  }

  entry(group: string, version: string): string {
    return `${this.origin}/${group}/${version}/remoteEntry.js`;
  }

  /** The live manifest's entry of `group` at `version` in this bucket. */
  remote(group: string, version = '1.0.0') {
    return {
      name: group,
      entry: this.entry(group, version),
      version,
      ...tableOf(group),
      serverIntegrity: PAGES_INTEGRITY,
    };
  }
}

/** A deploy folder whose live manifest has `remotes`. */
export function deployDirWith(dir: string, remotes: unknown[]): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'remotes.json'), JSON.stringify(testManifest(remotes)));
  return dir;
}

/**
 * A site with the deploy API on, entries allowed from `origin`, its control plane in the database
 * at `databaseUrl` (replicas share one; a new one when not given); `limits`: the time limits of
 * one change's checks and of one fetch from a group's host.
 */
export async function startSite(
  deployDir: string,
  origin: string,
  databaseUrl?: string,
  { checkTimeoutMs, fetchTimeoutMs }: { checkTimeoutMs?: number; fetchTimeoutMs?: number } = {},
): Promise<Site> {
  return createSite(
    parseSiteSettings({
      SHELL_DIST,
      DEPLOY_DIR: deployDir,
      DATABASE_URL: databaseUrl ?? (await freshDatabase()),
      MAIL_SERVICE_URL: 'http://127.0.0.1:9',
      SITE_URL: 'http://localhost',
      RENDER_WORKERS: '1',
      ...(fetchTimeoutMs === undefined ? {} : { FETCH_TIMEOUT_MS: String(fetchTimeoutMs) }),
      DEPLOY_TOKEN: OPERATOR,
      DEPLOY_ALLOWED_ORIGINS: origin,
      // The setting is in whole seconds.
      ...(checkTimeoutMs === undefined
        ? {}
        : { DEPLOY_CHECK_TIMEOUT_S: String(Math.ceil(checkTimeoutMs / 1000)) }),
    }),
    { processMetrics: false, grants: GRANTS, log: () => undefined },
  );
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** A call of the site's deploy API, made in-process with `token` (none when undefined). */
export async function call(
  site: Site,
  method: 'GET' | 'PUT' | 'POST',
  route: string,
  token: string | undefined,
  body?: unknown,
): Promise<Answer> {
  const answer = await site.app.inject({
    method,
    url: `/_deploy${route}`,
    headers: {
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return { status: answer.statusCode, body: answer.json() };
}

/** A new group token for `groups`, made with the operator's token. */
export async function groupToken(site: Site, ...groups: string[]): Promise<string> {
  const made = await call(site, 'POST', '/tokens', OPERATOR, { groups });
  if (made.status !== 201) throw new Error(`no token made: ${JSON.stringify(made.body)}`);
  return made.body.token as string;
}

/** The live manifest's version, as a team reads it before a change. */
export async function base(site: Site): Promise<string> {
  return (await call(site, 'GET', '/manifest', OPERATOR)).body.version as string;
}
