/**
 * `npm run dev -w <group>`: the group inside the real site. A site server of its own (the same
 * composition, caching and render processes production runs) serves the whole site, with every
 * other group as a running site has it live and this group built from its sources in watch mode:
 * each save is built for the browser and for Node, published to that site server as a version of
 * its own (`<version>-dev.<n>`, pinned like any deploy), and the open page of the group reloads, so
 * both its server HTML and the page show the change.
 *
 *   npm run dev -w mfe-data                         against the site npm start runs (it is read, not changed)
 *   npm run dev -w mfe-data -- --site https://www.example.com   against another site, read-only
 *   npm run dev -w mfe-data -- --port 3101          the development site's port (default: the first free of 3100-3109)
 *
 * Nothing on the site it composes changes: its public manifest and the other groups' published
 * files are read, never written. The development site keeps its own manifest in a PostgreSQL made
 * for the run (lib/dev-site.ts). Ctrl-C stops the development site and its database, and removes
 * their folders; the other site keeps running.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import webpack, { type Configuration, type MultiStats } from 'webpack';
import { parseManifest, type DeploymentManifest } from '@site/contracts';
import { createRemoteServer } from '@site/serving';
import { ArgsError, readArgs, wholeNumber } from './lib/args';
import { DevSite } from './lib/dev-site';
import { builtEntry, writeManifest } from './manifest';

const root = path.join(__dirname, '..');

const USAGE = `usage: npm run dev -w mfe-<group> [-- --site <url>] [-- --port <n>]

Runs the whole site with this group built from its sources on every save: its pages rendered on the
server and in the browser as production composes them, every other group as the site it is composed
from has it live.

  --site <url>   the site to compose: its live manifest and the other groups' published files are
                 read, never changed (default: the site npm start runs, http://localhost:3000)
  --port <n>     the development site's port (default: the first free port of 3100-3109)
  --help         this text`;

/** How long the development site has to take a new version before the save is reported as slow. */
const PUBLISH_WAIT_MS = 10_000;
/** Development versions kept on disk: the one live, and the ones a page may still be loading. */
const KEEP_VERSIONS = 3;

function readCommandLine() {
  const values = readArgs(
    process.argv.slice(2),
    { site: { type: 'string' }, port: { type: 'string' }, help: { type: 'boolean' } },
    { site: 'https://www.example.com', port: '3101' },
  );
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  let site: URL | undefined;
  if (values.site !== undefined) {
    try {
      site = new URL(values.site);
    } catch {
      throw new ArgsError(`--site takes an http(s) URL such as https://www.example.com`);
    }
    if (site.protocol !== 'http:' && site.protocol !== 'https:') {
      throw new ArgsError(`--site takes an http(s) URL such as https://www.example.com`);
    }
  }
  return { site, port: wholeNumber('port', values.port, 1024, 65535) };
}

/** Whether something listens on `port` (of this machine's loopback). */
function portTaken(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(true));
    probe.listen(port, () => probe.close(() => resolve(false)));
  });
}

async function freePort(asked: number | undefined): Promise<number> {
  if (asked !== undefined) {
    if (await portTaken(asked)) {
      console.error(`dev: port ${asked} is in use; choose another with --port`);
      process.exit(1);
    }
    return asked;
  }
  for (let port = 3100; port <= 3109; port++) if (!(await portTaken(port))) return port;
  console.error('dev: ports 3100-3109 are all in use; choose one with --port');
  process.exit(1);
}

/** The live manifest of the site at `site`, as its visitors' browsers read it. */
async function liveManifest(site: URL): Promise<DeploymentManifest> {
  let response: Response;
  try {
    response = await fetch(new URL('/remotes.json', site), { signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? String(error);
    throw new Error(`could not be reached (${cause})`, { cause: error });
  }
  if (!response.ok) throw new Error(`answered HTTP ${response.status} for /remotes.json`);
  return parseManifest(await response.json());
}

/** The script each development build of remoteEntry.js starts with: reload when a newer one is live. */
function reloadClient(host: string): string {
  return `/* development build: reloads the page when a newer build is live */
(function () {
  if (typeof window === 'undefined' || window.__siteDevReload) return;
  window.__siteDevReload = true;
  var script = document.currentScript;
  var mine = script && script.src ? script.src.split('/').slice(-2)[0] : null;
  var events = new EventSource(${JSON.stringify(`${host}/_dev/events`)});
  events.onmessage = function (message) {
    if (mine === null) mine = message.data;
    else if (message.data !== mine) { events.close(); location.reload(); }
  };
})();
`;
}

/** The group's two builds (browser, Node) in development mode, writing to `stage`. */
function watchConfigs(workspace: string, stage: string, host: string): Configuration[] {
  // The workspace's own webpack config (CommonJS), as webpack's command line would load it.
  const load = createRequire(path.join(workspace, 'package.json'));
  const make = load('./webpack.config.js') as (
    env: Record<string, unknown>,
    argv: { mode: string },
  ) => Configuration | Configuration[];
  const made = make({}, { mode: 'development' });
  const [browser, server] = Array.isArray(made) ? made : [made];
  if (!browser || !server) {
    throw new Error(`${workspace}/webpack.config.js makes no Node build: is it a page group's?`);
  }
  browser.mode = 'development';
  server.mode = 'development';
  // The site's policy runs no eval: source maps in files of their own.
  browser.devtool = 'cheap-module-source-map';
  browser.output = { ...browser.output, path: stage, clean: { keep: /^server\// } };
  server.output = { ...server.output, path: path.join(stage, 'server') };
  browser.plugins = [
    ...(browser.plugins ?? []),
    new webpack.BannerPlugin({
      banner: reloadClient(host),
      raw: true,
      entryOnly: true,
      include: /^remoteEntry\.js$/,
    }),
  ];
  return [browser, server];
}

async function main(): Promise<void> {
  const workspace = process.cwd();
  const tableFile = path.join(workspace, 'src', 'routes.json');
  if (!existsSync(tableFile) || !existsSync(path.join(workspace, 'webpack.config.js'))) {
    console.error('dev: run it for a page group: npm run dev -w mfe-<group>');
    process.exit(2);
  }
  let args: ReturnType<typeof readCommandLine>;
  try {
    args = readCommandLine();
  } catch (error) {
    if (!(error instanceof ArgsError)) throw error;
    console.error(`dev: ${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  const pkg = JSON.parse(readFileSync(path.join(workspace, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  const { remote: name } = JSON.parse(readFileSync(tableFile, 'utf8')) as { remote: string };
  if (!existsSync(path.join(root, 'shell', 'dist', 'server', 'render.js'))) {
    console.error('dev: the shell is not built: run npm start once (it builds everything)');
    process.exit(1);
  }

  // The site composed from: named, or the one npm start runs.
  const local = !args.site;
  const site = args.site ?? new URL(`http://localhost:${process.env.PORT ?? 3000}/`);
  let base: DeploymentManifest;
  try {
    base = await liveManifest(site);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    console.error(
      local
        ? `dev: no site answers at ${site.origin}: it ${why}. Start it first with npm start in another terminal, or compose another site with -- --site <url>`
        : `dev: ${site.origin} ${why}; nothing was started`,
    );
    process.exit(1);
  }
  const port = await freePort(args.port);

  const work = mkdtempSync(path.join(os.tmpdir(), `site-dev-${name}-`));
  const stage = path.join(work, 'stage');
  const versions = path.join(work, 'versions');
  const deployDir = path.join(work, 'deploy');

  // The group's origin: its development versions, and word of each new one for open pages.
  const listeners = new Set<ServerResponse>();
  let current = '';
  const host = await createRemoteServer(versions);
  host.app.get('/_dev/events', (request, reply) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      'access-control-allow-origin': '*',
    });
    res.write(`retry: 500\ndata: ${current}\n\n`);
    listeners.add(res);
    request.raw.on('close', () => listeners.delete(res));
  });
  const heartbeat = setInterval(() => {
    for (const res of listeners) res.write(': still here\n\n');
  }, 15_000);
  heartbeat.unref();
  await host.listen(0, '127.0.0.1');
  const address = host.app.server.address();
  const hostUrl = `http://localhost:${typeof address === 'object' && address ? address.port : 0}`;

  let published = 0;
  let stopping = false;
  const devSite = new DevSite({
    port,
    deployDir,
    onStopped: (what) => {
      console.error(`dev: ${what}`);
      stop(1);
    },
  });
  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    clearInterval(heartbeat);
    for (const res of listeners) res.end();
    void Promise.allSettled([devSite.stop(), host.close()]).finally(() => {
      rmSync(work, { recursive: true, force: true });
      process.exit(code);
    });
  };
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));

  const siteUrl = devSite.url;
  console.log(
    `dev: ${name} from ${path.relative(root, workspace) || workspace}, inside ${local ? 'the site npm start runs' : 'the site'} at ${site.origin} (read, never changed); building…`,
  );

  /** Makes the build in `stage` the group's live version on the development site. */
  async function publish(savedAt: number): Promise<void> {
    published += 1;
    const version = `${pkg.version}-dev.${published}`;
    const folder = path.join(versions, version);
    cpSync(stage, folder, { recursive: true });
    const entry = await builtEntry(folder, hostUrl, name, version);
    const manifest = {
      schemaVersion: 1,
      generatedAt: new Date().toISOString(),
      remotes: [...base.remotes.filter((r) => r.name !== name), entry],
    };
    await writeManifest(path.join(deployDir, 'remotes.json'), manifest);
    // Through the control plane, as a deploy: the site server serves it within a second.
    await devSite.publish();
    // Live once the development site serves the new manifest.
    const deadline = Date.now() + PUBLISH_WAIT_MS;
    for (;;) {
      const live = await fetch(`${siteUrl}/remotes.json`).then(
        (r) => r.json() as Promise<DeploymentManifest>,
        () => undefined,
      );
      if (live?.remotes.some((r) => r.name === name && r.version === version)) break;
      if (Date.now() > deadline) {
        console.warn(`dev: ${version} is not live after ${PUBLISH_WAIT_MS / 1000} s`);
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    current = version;
    for (const res of listeners) res.write(`data: ${version}\n\n`);
    const took = ((Date.now() - savedAt) / 1000).toFixed(1);
    if (published === 1) {
      const first = (entry.routes[0] as { path?: string } | undefined)?.path ?? '/';
      console.log(
        `\nDevelopment site: ${siteUrl}${first} (${name} from its sources; every other group as ${site.origin} has it live)\nSave a file and the page reloads with the change, rendered on the server too. Ctrl-C stops it.\n`,
      );
    } else {
      console.log(`dev: ${version} live ${took} s after the save`);
    }
    // Older versions go, but for the few a page may still be loading from.
    const old = published - KEEP_VERSIONS;
    if (old > 0)
      rmSync(path.join(versions, `${pkg.version}-dev.${old}`), { recursive: true, force: true });
  }

  let changedAt = Date.now();
  let queue = Promise.resolve();
  const compiler = webpack(watchConfigs(workspace, stage, hostUrl));
  compiler.hooks.invalid.tap('site-dev', () => {
    changedAt = Date.now();
  });
  compiler.watch({ aggregateTimeout: 50 }, (error, stats?: MultiStats) => {
    if (error) {
      console.error(`dev: webpack: ${error.message}`);
      return;
    }
    if (stats?.hasErrors()) {
      console.error(
        `dev: the build failed; the site keeps the last build that worked\n${stats.toString({ all: false, errors: true, colors: process.stdout.isTTY })}`,
      );
      return;
    }
    const savedAt = changedAt;
    queue = queue
      .then(() => publish(savedAt))
      .catch((failure: unknown) => {
        if (stopping) return;
        console.error(
          `dev: the build could not be published: ${failure instanceof Error ? failure.message : String(failure)}`,
        );
        if (!devSite.serving) stop(1);
      });
  });
}

main().catch((error: unknown) => {
  console.error(`dev: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
