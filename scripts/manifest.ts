/**
 * Writes the deployment manifest the shell reads at run time (`deploy/remotes.json`) from the
 * remotes' published route tables. Changing it needs no shell build: this is how a remote is moved
 * to a new URL, rolled back to an earlier version, or has its new pages appear in the navigation.
 *
 *   node --import tsx scripts/manifest.ts                      every remote, its current version, local URLs
 *   REMOTE_DATA_URL=https://cdn.example/data node --import tsx scripts/manifest.ts
 *   node --import tsx scripts/manifest.ts --version data=1.0.0 roll the data remote back to 1.0.0
 *   node --import tsx scripts/manifest.ts --out other.json     write somewhere else
 *   node --import tsx scripts/manifest.ts --dist data=/artifacts/data   read a remote's route table from its
 *                                                  build artifact instead of its workspace
 *
 * A remote's base URL comes from REMOTE_<NAME>_URL (e.g. REMOTE_CUSTOM_DEV_URL), else its local port.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { sha256Integrity } from '../shared/src/contracts/integrity';
import { SITE_REMOTES } from '../shared/src/site';
import { newestVersion as newest } from '../shell/server/deploy/versions';

const rootDir = path.join(__dirname, '..');

interface Args {
  out: string;
  versions: Record<string, string>;
  dists: Record<string, string>;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { out: path.join(rootDir, 'deploy', 'remotes.json'), versions: {}, dists: {} };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--out') args.out = path.resolve(String(argv[++i]));
    else if (arg === '--version') {
      const [name, version] = String(argv[++i]).split('=');
      if (name && version) args.versions[name] = version;
    } else if (arg === '--dist') {
      const [name, dir] = String(argv[++i]).split('=');
      if (name && dir) args.dists[name] = path.resolve(dir);
    } else throw new Error(`unknown argument ${arg}`);
  }
  return args;
}

/** The highest version folder of a remote's build artifact, in semver order (1.0.0-rc.1 < 1.0.0). */
async function newestVersion(dist: string): Promise<string> {
  const entries = await fs.readdir(dist, { withFileTypes: true });
  const version = newest(entries.filter((e) => e.isDirectory()).map((e) => e.name));
  if (!version) throw new Error(`${dist} holds no version folder`);
  return version;
}

export async function buildManifest({
  versions = {},
  dists = {},
  env = process.env,
  development = false,
}: {
  versions?: Record<string, string>;
  dists?: Record<string, string>;
  env?: Record<string, string | undefined>;
  /** For `npm run dev`: each remote's dev server and its route table as it is in the source. */
  development?: boolean;
} = {}) {
  const remotes = [];
  for (const { folder, name, port } of SITE_REMOTES) {
    const pkg = JSON.parse(await fs.readFile(path.join(rootDir, folder, 'package.json'), 'utf8'));
    const dist = dists[name];
    const version: string = development
      ? 'dev'
      : (versions[name] ?? (dist ? await newestVersion(dist) : pkg.version));
    const versionDir = path.join(dist ?? path.join(rootDir, folder, 'dist'), version);
    const tableFile = development
      ? path.join(rootDir, folder, 'src', 'routes.json')
      : path.join(versionDir, 'routes.json');
    let table: { prefixes: string[]; routes: unknown[] };
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
      entry: development ? `${base}/remoteEntry.js` : `${base}/${version}/remoteEntry.js`,
      version,
      prefixes: table.prefixes,
      routes: table.routes,
      // The site server runs a version's Node build only if it is the file pinned here.
      ...(development
        ? {}
        : {
            serverIntegrity: sha256Integrity(
              await fs.readFile(path.join(versionDir, 'server', 'pages.js')),
            ),
          }),
    });
  }
  return { schemaVersion: 1, generatedAt: new Date().toISOString(), remotes };
}

export async function writeManifest(file: string, manifest: unknown): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, `${JSON.stringify(manifest, null, 2)}\n`);
  await fs.rename(tmp, file);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const manifest = await buildManifest({ versions: args.versions, dists: args.dists });
  await writeManifest(args.out, manifest);
  console.log(
    `deployment manifest: ${path.relative(process.cwd(), args.out)} (${manifest.remotes
      .map((r) => `${r.name}@${r.version} ${r.routes.length} pages`)
      .join(', ')})`,
  );
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(`manifest: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
