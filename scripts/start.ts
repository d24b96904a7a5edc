/**
 * `npm start`: builds whatever is not built yet, writes the deployment manifest when there is none,
 * and runs every deployable as its own process, the way they run when deployed:
 *
 *   site (shell + /api forwarded)  http://localhost:3000  (PORT)
 *   each group in the site table   http://localhost:<its port> (3001, 3002, …)
 *   mail-service                   http://localhost:3005  (MAIL_SERVICE_PORT)
 *
 * Settings come from the environment and, under it, from `.env` when there is one. A process that
 * stops is started again; Ctrl-C stops them all. `--rebuild` builds everything again first and
 * writes a fresh manifest from the local builds; `--fresh-manifest` only the latter.
 *
 * `--replicas N` (`npm run start:cluster` is `--replicas 3`) runs the site as it runs in production
 * instead: PostgreSQL (embedded, its data in deploy/.postgres), N site servers (ports 3011…) and two
 * mail-services (3021, 3022) on it, behind nginx as the load balancer on PORT, the remotes as above.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SHELL_PORT, SITE_REMOTES } from '@site/contracts/site';
import { startPostgres } from '@site/build/testing/postgres';
import { writeBalancerConfig, findNginx } from './lib/cluster';
import { LOCAL_TOKENS, localToken } from './lib/deploy-settings';
import { DOT_ENV, loadDotEnv } from './lib/dot-env';
import { runTogether, type ProcessSpec } from './lib/processes';
import { liveManifestFile } from './manifest';

// First of all, so that everything below and every process started sees the same settings.
if (loadDotEnv()) console.log(`settings: ${DOT_ENV} (the environment's own values win)`);

const root = path.join(__dirname, '..');
const rebuild = process.argv.includes('--rebuild');
const replicasAt = process.argv.indexOf('--replicas');
const replicas = replicasAt === -1 ? 0 : Number(process.argv[replicasAt + 1]);
if (replicasAt !== -1 && !(Number.isInteger(replicas) && replicas >= 1 && replicas <= 9)) {
  console.error('--replicas takes a number of site servers from 1 to 9');
  process.exit(2);
}
const tsx = ['--import', 'tsx'];

const version = (folder: string): string =>
  (JSON.parse(readFileSync(path.join(root, folder, 'package.json'), 'utf8')) as { version: string })
    .version;

function run(title: string, command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`${title} failed`);
    process.exit(result.status ?? 1);
  }
}

for (const { folder } of SITE_REMOTES) {
  if (
    rebuild ||
    // A version folder is whole once its build record is written (after both of its builds).
    !existsSync(path.join(root, folder, 'dist', version(folder), 'build.json'))
  ) {
    console.log(`building ${folder}…`);
    run(`the build of ${folder}`, 'npm', ['run', 'build', '-w', folder]);
  }
}
const shellBuilt = ['server/render.js', 'public/index.html'].every((file) =>
  existsSync(path.join(root, 'shell', 'dist', file)),
);
if (rebuild || !shellBuilt) {
  console.log('building shell…');
  run('the build of shell', 'npm', ['run', 'build', '-w', 'shell']);
}

// The live manifest belongs to the site: deploys change it through the deploy API, and a restart
// keeps it. It is written from the local builds only when there is none yet, or when asked.
const manifestFile = liveManifestFile();
if (rebuild || process.argv.includes('--fresh-manifest') || !existsSync(manifestFile)) {
  run('writing the manifest', process.execPath, [
    ...tsx,
    path.join(__dirname, 'manifest.ts'),
    '--replace',
  ]);
} else {
  console.log(`deployment manifest: ${path.relative(root, manifestFile)} as last deployed`);
  const { remotes = [] } = JSON.parse(readFileSync(manifestFile, 'utf8')) as {
    remotes?: { name?: string; serverIntegrity?: string }[];
  };
  const unpinned = remotes.filter((r) => !r.serverIntegrity).map((r) => r.name);
  if (unpinned.length) {
    console.warn(
      `deployment manifest: ${unpinned.join(', ')} not pinned by SHA-256, so the site will not run their pages' server code (their pages answer 503): deploy them again, or start with --fresh-manifest to write the manifest from the local builds`,
    );
  }
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
async function groupTokens(site: string, operator: string): Promise<void> {
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
  for (const { name } of SITE_REMOTES) {
    const file = path.join(root, LOCAL_TOKENS.group(name));
    const kept = localToken(root, LOCAL_TOKENS.group(name));
    if (kept && (await call(kept, 'GET', '/manifest')).status === 200) continue;
    const answer = await call(operator, 'POST', '/tokens', { groups: [name] });
    if (answer.status !== 201) {
      console.warn(`deploy tokens: the site refused a token for ${name} (HTTP ${answer.status})`);
      continue;
    }
    const { token } = (await answer.json()) as { token: string };
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    rmSync(file, { force: true });
    writeFileSync(
      file,
      `${token}
`,
      { mode: 0o600 },
    );
    made.push(name);
  }
  console.log(
    `deploy tokens: ${LOCAL_TOKENS.group('<group>')}, one per group${made.length ? ` (made now: ${made.join(', ')})` : ''}; npm run deploy -w <group> uses its own`,
  );
}
const remoteOrigins = SITE_REMOTES.map(({ name, port }) => {
  const configured = process.env[`REMOTE_${name.toUpperCase()}_URL`];
  return configured ? new URL(configured).origin : `http://localhost:${port}`;
});

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
const mailPort = process.env.MAIL_SERVICE_PORT ?? '3005';
const CLUSTER = { postgres: 3040, sites: 3011, mailServices: [3021, 3022] };

const siteSpec = (name: string, env: Record<string, string>): ProcessSpec => ({
  name,
  args: [...tsx, path.join(root, 'shell', 'server', 'main.ts')],
  cwd: root,
  env: {
    DEPLOY_TOKEN: deployToken,
    DEPLOY_ALLOWED_ORIGINS: process.env.DEPLOY_ALLOWED_ORIGINS ?? remoteOrigins.join(','),
    // A proxy on this machine (the cluster's load balancer) may say how a visitor came in.
    TRUST_PROXY: process.env.TRUST_PROXY ?? 'loopback',
    ...env,
  },
});

const mailSpec = (name: string, env: Record<string, string>): ProcessSpec => ({
  name,
  args: [...tsx, path.join(root, 'mail-service', 'src', 'server.ts')],
  cwd: path.join(root, 'mail-service'),
  env: {
    ALLOWED_ORIGINS:
      process.env.ALLOWED_ORIGINS ?? `http://localhost:${port},http://127.0.0.1:${port}`,
    // The site server (or the load balancer) on this machine is a proxy the mail-service always
    // believes, besides whatever proxies the site itself trusts.
    TRUST_PROXY: mailTrustProxy(process.env.TRUST_PROXY),
    ...env,
  },
});

const remoteSpecs: ProcessSpec[] = SITE_REMOTES.map(({ name, folder, port: remotePort }) => ({
  name,
  args: [
    ...tsx,
    path.join(__dirname, 'serve-remote.ts'),
    path.join(root, folder, 'dist'),
    String(remotePort),
  ],
  cwd: root,
}));

async function cluster(): Promise<ProcessSpec[]> {
  const dir = path.join(root, 'deploy', '.cluster');
  mkdirSync(dir, { recursive: true });
  const nginx = findNginx();
  console.log(`PostgreSQL: starting on port ${CLUSTER.postgres} (data in deploy/.postgres)…`);
  const postgres = await startPostgres({
    port: CLUSTER.postgres,
    dir: path.join(root, 'deploy', '.postgres'),
  });
  const stopPostgres = () => void postgres.pause();
  process.once('exit', stopPostgres);
  const sitePorts = Array.from({ length: replicas }, (_, i) => CLUSTER.sites + i);
  const config = writeBalancerConfig({
    dir,
    port: Number(port),
    sites: sitePorts,
    mailServices: CLUSTER.mailServices,
  });
  return [
    ...sitePorts.map((sitePort, i) =>
      siteSpec(`site-${i + 1}`, {
        PORT: String(sitePort),
        SITE_URL: process.env.SITE_URL ?? `http://localhost:${port}`,
        DATABASE_URL: postgres.url,
        MAIL_SERVICE_URL: `http://127.0.0.1:${CLUSTER.mailServices[0]}`,
      }),
    ),
    ...CLUSTER.mailServices.map((mailServicePort, i) =>
      mailSpec(`mail-${i + 1}`, {
        MAIL_SERVICE_PORT: String(mailServicePort),
        DATABASE_URL: postgres.url,
        DATA_DIR: path.join(root, 'mail-service', '.data', `instance-${i + 1}`),
      }),
    ),
    { name: 'nginx', command: nginx, args: ['-p', dir, '-c', config, '-g', 'daemon off;'] },
  ];
}

async function main(): Promise<void> {
  const specs = replicas
    ? await cluster()
    : [
        siteSpec('site', {
          PORT: port,
          MAIL_SERVICE_URL: process.env.MAIL_SERVICE_URL ?? `http://127.0.0.1:${mailPort}`,
        }),
        mailSpec('mail-service', { MAIL_SERVICE_PORT: mailPort }),
      ];
  runTogether([...specs, ...remoteSpecs]);
  console.log(
    `\nThe site is at http://localhost:${port}/${replicas ? ` (${replicas} site servers behind nginx)` : ''} (Ctrl-C stops everything)\n`,
  );
  await groupTokens(`http://localhost:${port}`, deployToken!).catch((error: unknown) =>
    console.warn(`deploy tokens: not made (${String(error)}); npm start again makes them`),
  );
}

main().catch((error: unknown) => {
  console.error(`start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
