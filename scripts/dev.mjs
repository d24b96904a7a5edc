#!/usr/bin/env node
/**
 * `npm run dev`: the whole site with hot reload. Each remote runs its own webpack dev server on its
 * port (3001..3004), the shell's dev server on 3000 reads a development manifest that points at
 * them (`deploy/dev/remotes.json`, rewritten whenever a route table changes), and the mail-service
 * runs in watch mode on 3005. Ctrl-C stops everything.
 *
 * One remote alone, without the shell: `npm run dev -w mfe-data`.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, watch, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const require = createRequire(import.meta.url);
const { REMOTES } = require('../shared/federation.cjs');
const devDir = path.join(root, 'deploy', 'dev');

function writeDevManifest() {
  const remotes = Object.entries(REMOTES).map(([folder, { name, port }]) => {
    const table = JSON.parse(readFileSync(path.join(root, folder, 'src', 'routes.json'), 'utf8'));
    return {
      name,
      entry: `http://localhost:${port}/remoteEntry.js`,
      version: 'dev',
      prefixes: table.prefixes,
      routes: table.routes,
    };
  });
  mkdirSync(devDir, { recursive: true });
  const file = path.join(devDir, 'remotes.json');
  writeFileSync(
    `${file}.tmp`,
    JSON.stringify({ schemaVersion: 1, generatedAt: new Date().toISOString(), remotes }, null, 2),
  );
  renameSync(`${file}.tmp`, file);
}

writeDevManifest();
for (const folder of Object.keys(REMOTES)) {
  watch(path.join(root, folder, 'src', 'routes.json'), () => {
    try {
      writeDevManifest();
      console.log(`[dev] ${folder}'s route table changed: manifest rewritten, reload the page`);
    } catch (error) {
      console.error(`[dev] ${folder}/src/routes.json: ${error.message}`);
    }
  });
}

const webpackCli = require.resolve('webpack-cli/bin/cli.js');
const processes = [
  ...Object.keys(REMOTES).map((folder) => ({
    name: folder,
    cwd: path.join(root, folder),
    args: [webpackCli, 'serve', '--mode', 'development'],
  })),
  {
    name: 'shell',
    cwd: path.join(root, 'shell'),
    args: [webpackCli, 'serve', '--mode', 'development'],
  },
];
if (existsSync(path.join(root, 'mail-service', 'src', 'server.ts'))) {
  processes.push({
    name: 'mail-service',
    cwd: path.join(root, 'mail-service'),
    args: ['--watch', '--import', 'tsx', 'src/server.ts'],
  });
}

const children = processes.map((p) => {
  const child = spawn(process.execPath, p.args, {
    cwd: p.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: process.env,
  });
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    stream.on('data', (chunk) => {
      for (const line of String(chunk).split('\n'))
        if (line.trim()) out.write(`[${p.name}] ${line}\n`);
    });
  }
  return child;
});
console.log('\nDevelopment site: http://localhost:3000/ (hot reload; Ctrl-C stops everything)\n');

const stop = () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(0), 3000).unref();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
