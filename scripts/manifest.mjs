#!/usr/bin/env node
/**
 * Writes the deployment manifest the shell reads at run time (`deploy/remotes.json`) from the
 * remotes' published route tables. Changing it needs no shell build: this is how a remote is moved
 * to a new URL, rolled back to an earlier version, or has its new pages appear in the navigation.
 *
 *   node scripts/manifest.mjs                      every remote, its current version, local URLs
 *   REMOTE_DATA_URL=https://cdn.example/data node scripts/manifest.mjs
 *   node scripts/manifest.mjs --version data=1.0.0 roll the data remote back to 1.0.0
 *   node scripts/manifest.mjs --out other.json     write somewhere else
 *   node scripts/manifest.mjs --dist data=/artifacts/data   read a remote's route table from its
 *                                                  build artifact instead of its workspace
 *
 * A remote's base URL comes from REMOTE_<NAME>_URL (e.g. REMOTE_CUSTOM_DEV_URL), else its local port.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const here = path.dirname(fileURLToPath(import.meta.url));
const rootDir = path.join(here, '..');
const require = createRequire(import.meta.url);
const { REMOTES } = require('../shared/federation.cjs');

function parseArgs(argv) {
  const args = { out: path.join(rootDir, 'deploy', 'remotes.json'), versions: {}, dists: {} };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--out') args.out = path.resolve(argv[++i]);
    else if (arg === '--version') {
      const [name, version] = String(argv[++i]).split('=');
      args.versions[name] = version;
    } else if (arg === '--dist') {
      const [name, dir] = String(argv[++i]).split('=');
      args.dists[name] = path.resolve(dir);
    } else throw new Error(`unknown argument ${arg}`);
  }
  return args;
}

const semverParts = (v) => v.split(/[.-]/).map((p) => (/^\d+$/.test(p) ? Number(p) : p));

/** The highest version folder (1.10.0 after 1.9.0) of a remote's build artifact. */
async function newestVersion(dist) {
  const entries = await fs.readdir(dist, { withFileTypes: true });
  const versions = entries
    .filter((e) => e.isDirectory() && /^\d+\.\d+\.\d+/.test(e.name))
    .map((e) => e.name);
  versions.sort((a, b) => {
    const [pa, pb] = [semverParts(a), semverParts(b)];
    for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
      if (pa[i] === pb[i]) continue;
      return pa[i] === undefined ? -1 : pb[i] === undefined ? 1 : pa[i] < pb[i] ? -1 : 1;
    }
    return 0;
  });
  if (!versions.length) throw new Error(`${dist} holds no version folder`);
  return versions[versions.length - 1];
}

export async function buildManifest({ versions = {}, dists = {}, env = process.env } = {}) {
  const remotes = [];
  for (const [folder, { name, port }] of Object.entries(REMOTES)) {
    const pkg = JSON.parse(await fs.readFile(path.join(rootDir, folder, 'package.json'), 'utf8'));
    const version =
      versions[name] ?? (dists[name] ? await newestVersion(dists[name]) : pkg.version);
    const tableFile = path.join(
      dists[name] ?? path.join(rootDir, folder, 'dist'),
      version,
      'routes.json',
    );
    let table;
    try {
      table = JSON.parse(await fs.readFile(tableFile, 'utf8'));
    } catch {
      throw new Error(
        `${folder} ${version} is not built (no ${path.relative(rootDir, tableFile)}): run npm run build -w ${folder}`,
      );
    }
    const base = (env[`REMOTE_${name.toUpperCase()}_URL`] ?? `http://localhost:${port}`).replace(
      /\/+$/,
      '',
    );
    remotes.push({
      name,
      entry: `${base}/${version}/remoteEntry.js`,
      version,
      prefixes: table.prefixes,
      routes: table.routes,
    });
  }
  return { schemaVersion: 1, generatedAt: new Date().toISOString(), remotes };
}

export async function writeManifest(file, manifest) {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, `${JSON.stringify(manifest, null, 2)}\n`);
  await fs.rename(tmp, file);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const args = parseArgs(process.argv.slice(2));
    const manifest = await buildManifest({ versions: args.versions, dists: args.dists });
    await writeManifest(args.out, manifest);
    console.log(
      `deployment manifest: ${path.relative(process.cwd(), args.out)} (${manifest.remotes
        .map((r) => `${r.name}@${r.version} ${r.routes.length} pages`)
        .join(', ')})`,
    );
  } catch (error) {
    console.error(`manifest: ${error.message}`);
    process.exit(1);
  }
}
