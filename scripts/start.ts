/**
 * `npm start`: builds whatever is not built yet, writes the deployment manifest when there is none,
 * and runs every deployable as its own process, the way they run when deployed:
 *
 *   site (shell + /api forwarded)  http://localhost:3000  (PORT)
 *   remotes                        http://localhost:3001 .. 3004
 *   mail-service                   http://localhost:3005  (MAIL_SERVICE_PORT)
 *
 * Settings come from the environment and, under it, from `.env` when there is one. A process that
 * stops is started again; Ctrl-C stops them all. `--rebuild` builds everything again first and
 * writes a fresh manifest from the local builds; `--fresh-manifest` only the latter.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SHELL_PORT, SITE_REMOTES } from '../shared/src/site';
import { DOT_ENV, loadDotEnv } from './lib/dot-env';
import { runTogether } from './lib/processes';

// First of all, so that everything below and every process started sees the same settings.
if (loadDotEnv()) console.log(`settings: ${DOT_ENV} (the environment's own values win)`);

const root = path.join(__dirname, '..');
const rebuild = process.argv.includes('--rebuild');
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
    !existsSync(path.join(root, folder, 'dist', version(folder), 'server', 'pages.js'))
  ) {
    console.log(`building ${folder}…`);
    run(`the build of ${folder}`, 'npm', ['run', 'build', '-w', folder]);
  }
}
if (rebuild || !existsSync(path.join(root, 'shell', 'dist', 'server', 'render.js'))) {
  console.log('building shell…');
  run('the build of shell', 'npm', ['run', 'build', '-w', 'shell']);
}

// The live manifest belongs to the site: deploys change it through the deploy API, and a restart
// keeps it. It is written from the local builds only when there is none yet, or when asked.
const manifestFile = path.join(root, 'deploy', 'remotes.json');
if (rebuild || process.argv.includes('--fresh-manifest') || !existsSync(manifestFile)) {
  run('writing the manifest', process.execPath, [...tsx, path.join(__dirname, 'manifest.ts')]);
} else {
  console.log(`deployment manifest: ${path.relative(root, manifestFile)} as last deployed`);
}

// The deploy API needs a token: DEPLOY_TOKEN, else one made once for this checkout.
const tokenFile = path.join(root, 'deploy', '.deploy-token');
let deployToken = process.env.DEPLOY_TOKEN;
if (!deployToken) {
  if (!existsSync(tokenFile)) {
    mkdirSync(path.dirname(tokenFile), { recursive: true });
    writeFileSync(tokenFile, `${randomBytes(24).toString('base64url')}\n`, { mode: 0o600 });
  }
  deployToken = readFileSync(tokenFile, 'utf8').trim();
  console.log(
    `deploy API token: ${path.relative(root, tokenFile)} (npm run deploy -w <group> uses it)`,
  );
}
const remoteOrigins = SITE_REMOTES.map(({ name, port }) => {
  const configured = process.env[`REMOTE_${name.toUpperCase()}_URL`];
  return configured ? new URL(configured).origin : `http://localhost:${port}`;
});

const port = process.env.PORT ?? String(SHELL_PORT);
const mailPort = process.env.MAIL_SERVICE_PORT ?? '3005';
runTogether([
  {
    name: 'site',
    args: [...tsx, path.join(root, 'shell', 'server', 'main.ts')],
    cwd: root,
    env: {
      PORT: port,
      MAIL_SERVICE_URL: process.env.MAIL_SERVICE_URL ?? `http://127.0.0.1:${mailPort}`,
      DEPLOY_TOKEN: deployToken,
      DEPLOY_ALLOWED_ORIGINS: process.env.DEPLOY_ALLOWED_ORIGINS ?? remoteOrigins.join(','),
    },
  },
  ...SITE_REMOTES.map(({ name, folder, port: remotePort }) => ({
    name,
    args: [
      ...tsx,
      path.join(__dirname, 'serve-remote.ts'),
      path.join(root, folder, 'dist'),
      String(remotePort),
    ],
    cwd: root,
  })),
  {
    name: 'mail-service',
    args: [...tsx, path.join(root, 'mail-service', 'src', 'server.ts')],
    cwd: path.join(root, 'mail-service'),
    env: {
      MAIL_SERVICE_PORT: mailPort,
      ALLOWED_ORIGINS:
        process.env.ALLOWED_ORIGINS ?? `http://localhost:${port},http://127.0.0.1:${port}`,
      // The site server on this machine is the one proxy whose X-Forwarded-For is believed.
      TRUST_PROXY: process.env.TRUST_PROXY ?? 'loopback',
    },
  },
]);
console.log(`\nThe site is at http://localhost:${port}/ (Ctrl-C stops everything)\n`);
