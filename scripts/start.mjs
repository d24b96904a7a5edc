#!/usr/bin/env node
/**
 * `npm start`: builds whatever is not built yet, writes the deployment manifest, and runs every
 * deployable as its own process, the way they run when deployed:
 *
 *   site (shell + /api forwarded)  http://localhost:3000  (PORT)
 *   remotes                        http://localhost:3001 .. 3004
 *   mail-service                   http://localhost:3005  (MAIL_SERVICE_PORT)
 *
 * Ctrl-C stops them all. `--rebuild` builds everything again first and writes a fresh manifest from
 * the local builds; `--fresh-manifest` only the latter.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const require = createRequire(import.meta.url);
const { REMOTES } = require('../shared/federation.cjs');
const rebuild = process.argv.includes('--rebuild');

const version = (folder) =>
  JSON.parse(readFileSync(path.join(root, folder, 'package.json'), 'utf8')).version;

function build(workspace) {
  console.log(`building ${workspace}…`);
  const result = spawnSync('npm', ['run', 'build', '-w', workspace], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error(`the build of ${workspace} failed`);
    process.exit(result.status ?? 1);
  }
}

for (const folder of Object.keys(REMOTES)) {
  const built = path.join(root, folder, 'dist', version(folder));
  if (rebuild || !existsSync(path.join(built, 'server', 'pages.js'))) {
    build(folder);
  }
}
if (rebuild || !existsSync(path.join(root, 'shell', 'dist', 'server', 'render.js'))) {
  build('shell');
}

const runScript = (name) => {
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, name)], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
// The live manifest belongs to the site: deploys change it through the deploy API, and a restart
// keeps it. It is written from the local builds only when there is none yet, or when asked.
const manifestFile = path.join(root, 'deploy', 'remotes.json');
if (rebuild || process.argv.includes('--fresh-manifest') || !existsSync(manifestFile)) {
  runScript('manifest.ts');
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
const remoteOrigins = Object.values(REMOTES).flatMap(({ name, port: remotePort }) => {
  const configured = process.env[`REMOTE_${name.toUpperCase()}_URL`];
  return [configured ? new URL(configured).origin : `http://localhost:${remotePort}`];
});

const port = process.env.PORT ?? '3000';
const mailPort = process.env.MAIL_SERVICE_PORT ?? '3005';
const processes = [
  {
    name: 'site',
    args: ['--import', 'tsx', path.join(root, 'shell', 'server', 'main.ts')],
    env: {
      PORT: port,
      MAIL_SERVICE_URL: process.env.MAIL_SERVICE_URL ?? `http://127.0.0.1:${mailPort}`,
      DEPLOY_TOKEN: deployToken,
      DEPLOY_ALLOWED_ORIGINS: process.env.DEPLOY_ALLOWED_ORIGINS ?? remoteOrigins.join(','),
    },
  },
  ...Object.entries(REMOTES).map(([folder, { name, port: remotePort }]) => ({
    name,
    args: [
      '--import',
      'tsx',
      path.join(here, 'serve-remote.ts'),
      path.join(root, folder, 'dist'),
      String(remotePort),
    ],
    env: {},
  })),
];
if (existsSync(path.join(root, 'mail-service', 'src', 'server.ts'))) {
  processes.push({
    name: 'mail-service',
    args: ['--import', 'tsx', path.join(root, 'mail-service', 'src', 'server.ts')],
    env: {
      MAIL_SERVICE_PORT: mailPort,
      // The site server, on this machine, is the one proxy in front of the mail-service.
      TRUST_PROXY: process.env.TRUST_PROXY ?? 'loopback',
      ALLOWED_ORIGINS:
        process.env.ALLOWED_ORIGINS ?? `http://localhost:${port},http://127.0.0.1:${port}`,
    },
    cwd: path.join(root, 'mail-service'),
  });
}

const children = [];
let stopping = false;

for (const p of processes) {
  const child = spawn(process.execPath, p.args, {
    cwd: p.cwd ?? root,
    env: { ...process.env, ...p.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = `[${p.name}] `;
  const pipe = (stream, out) =>
    stream.on('data', (chunk) => {
      for (const line of String(chunk).split('\n')) if (line) out.write(prefix + line + '\n');
    });
  pipe(child.stdout, process.stdout);
  pipe(child.stderr, process.stderr);
  child.on('exit', (code, signal) => {
    if (!stopping)
      console.error(
        `${prefix}stopped (${signal ?? `exit ${code}`}); the other services keep running`,
      );
  });
  children.push(child);
}

console.log(`\nThe site is at http://localhost:${port}/ (Ctrl-C stops everything)\n`);

function stop() {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  const deadline = setTimeout(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    process.exit(0);
  }, 8000);
  deadline.unref();
  Promise.all(
    children.map((c) => (c.exitCode !== null ? null : new Promise((r) => c.on('exit', r)))),
  ).then(() => process.exit(0));
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
