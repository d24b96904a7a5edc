/**
 * Groups' version folders served by a static host in a process of its own, as in production (a
 * bucket behind a CDN) and in `npm start`, so that a test can stop it (SIGSTOP: the kernel still
 * accepts connections, nothing answers) or kill it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sha256Integrity } from '@site/contracts/integrity';
import { testRoute } from '@site/build/testing/manifest';

const HOST = `
const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');
const dir = process.argv[1];
http
  .createServer((req, res) => {
    const file = path.join(dir, path.normalize(decodeURIComponent(req.url || '/')));
    if (!file.startsWith(dir + path.sep) || !fs.existsSync(file)) return res.writeHead(404).end();
    res.end(fs.readFileSync(file));
  })
  .listen(0, '127.0.0.1', function () {
    console.log('port ' + this.address().port);
  });
`;

export interface GroupHost {
  origin: string;
  /**
   * Writes a version folder of `group` with `paths` and returns its entry in a manifest. With
   * `breaksAt` (a time in ms), its pages throw while rendering from that moment on.
   */
  version(
    group: string,
    version: string,
    prefix: string,
    paths: readonly string[],
    breaksAt?: number,
  ): unknown;
  /** SIGSTOP: connections are accepted and never answered. */
  stop(): void;
  /** SIGCONT. */
  resume(): void;
  kill(): Promise<void>;
}

/** The text a group's page shows. */
export const drawn = (group: string, version: string, urlPath: string) =>
  `Drawn by ${group} ${version} at ${urlPath}`;

/** The heading of a group in the navbar: from the manifest, whatever its host does. */
export const heading = (group: string) => `${group} services`;

const pagesJs = (group: string, version: string, paths: readonly string[], breaksAt?: number) => `
const React = require('react');
const breaksAt = ${breaksAt ?? 'Infinity'};
exports.pages = Object.fromEntries(${JSON.stringify(paths)}.map((p) => [
  p,
  () => Promise.resolve({ default: () => {
    if (Date.now() >= breaksAt) throw new Error('a page that worked until now throws');
    return React.createElement('p', null, 'Drawn by ${group} ${version} at ' + p);
  } }),
]));
`;

export async function startGroupHost(dir: string): Promise<GroupHost> {
  mkdirSync(dir, { recursive: true });
  const child: ChildProcess = spawn(process.execPath, ['-e', HOST, dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      const found = /port (\d+)/.exec(chunk.toString('utf8'));
      if (found) resolve(Number(found[1]));
    });
    child.once('exit', (code) => reject(new Error(`the group host ended (${code})`)));
  });
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    version(group, version, prefix, paths, breaksAt) {
      const folder = path.join(dir, group, version);
      const js = pagesJs(group, version, paths, breaksAt);
      const table = {
        remote: group,
        prefixes: [prefix],
        routes: paths.map((p) => ({
          ...testRoute(p),
          group: heading(group),
          navLabel: p === prefix ? heading(group) : `${group} ${p.slice(prefix.length + 1)}`,
        })),
      };
      mkdirSync(path.join(folder, 'server'), { recursive: true });
      writeFileSync(path.join(folder, 'server', 'pages.js'), js);
      writeFileSync(path.join(folder, 'mf-manifest.json'), JSON.stringify({ id: group }));
      writeFileSync(path.join(folder, 'page-assets.json'), JSON.stringify({ pages: {} }));
      return {
        name: group,
        entry: `${origin}/${group}/${version}/remoteEntry.js`,
        version,
        ...table,
        serverIntegrity: sha256Integrity(Buffer.from(js)),
      };
    },
    stop: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    kill: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGCONT');
        child.kill('SIGKILL');
      }),
  };
}
