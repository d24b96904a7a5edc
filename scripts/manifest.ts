/**
 * Writes the deployment manifest the shell reads at run time (`deploy/remotes.json`, or
 * `DEPLOY_DIR/remotes.json`) from the remotes' published route tables.
 *
 * Once a site has a live manifest it belongs to the site: teams change their group's entry through
 * the deploy API (`npm run deploy -w <group>`), which checks the version and records the change in
 * the history beside it. So this script, which `npm run build` runs after the builds, writes the live
 * manifest only when there is none yet (a fresh clone's first build or start) and otherwise keeps it
 * byte for byte and says so; `--replace` overwrites it from the local builds, with no history entry
 * (`npm start --fresh-manifest` does that for a development checkout).
 *
 *   node --import tsx scripts/manifest.ts                      every remote, its current version, local URLs
 *   node --import tsx scripts/manifest.ts --replace            the same over a live manifest that exists
 *   REMOTE_DATA_URL=https://cdn.example/data node --import tsx scripts/manifest.ts
 *   node --import tsx scripts/manifest.ts --version data=1.0.0 the data remote at 1.0.0
 *   node --import tsx scripts/manifest.ts --out other.json     write somewhere else (always written)
 *   node --import tsx scripts/manifest.ts --dist data=/artifacts/data   read a remote's route table from its
 *                                                  build artifact instead of its workspace
 *
 * A remote's base URL comes from REMOTE_<NAME>_URL (e.g. REMOTE_CUSTOM_DEV_URL), else its local port.
 * A command line it cannot act on (an unknown option, a group not in the site table) exits 2 with
 * the reason and writes nothing; a group that is not built exits 1.
 */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { parseArgs as parseCommandLine } from 'node:util';
import { browserFiles } from '@site/contracts';
import { sha256Integrity, sha384Integrity } from '@site/contracts/integrity';
import { SITE_REMOTES } from '@site/contracts/site';
import { newestVersion as newest } from '@site/serving';

const rootDir = path.join(__dirname, '..');

/** The live manifest of the site server run from this checkout (its DEPLOY_DIR, else deploy/). */
export function liveManifestFile(env: Record<string, string | undefined> = process.env): string {
  return path.join(path.resolve(rootDir, env.DEPLOY_DIR || 'deploy'), 'remotes.json');
}

interface Args {
  /** Undefined: the live manifest. */
  out: string | undefined;
  replace: boolean;
  versions: Record<string, string>;
  dists: Record<string, string>;
}

/** A command line this script cannot act on: said in one line, exit 2, nothing written. */
class UsageError extends Error {}

/** `name=value` pairs of `--version` or `--dist`, each naming a group of the site table. */
function pairs(option: string, values: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const value of values) {
    const at = value.indexOf('=');
    const name = value.slice(0, at);
    const given = value.slice(at + 1);
    if (at <= 0 || !given)
      throw new UsageError(`--${option} takes <group>=<value>, not "${value}"`);
    if (!SITE_REMOTES.some((r) => r.name === name)) {
      throw new UsageError(
        `--${option} ${value}: no group is called "${name}" (the groups: ${SITE_REMOTES.map((r) => r.name).join(', ')})`,
      );
    }
    out[name] = given;
  }
  return out;
}

function parseArgs(argv: string[]): Args {
  let values;
  try {
    ({ values } = parseCommandLine({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        out: { type: 'string' },
        replace: { type: 'boolean' },
        version: { type: 'string', multiple: true },
        dist: { type: 'string', multiple: true },
      },
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.out === '') throw new UsageError('--out takes a file name');
  return {
    out: values.out === undefined ? undefined : path.resolve(values.out),
    replace: values.replace ?? false,
    versions: pairs('version', values.version),
    dists: Object.fromEntries(
      Object.entries(pairs('dist', values.dist)).map(([name, dir]) => [name, path.resolve(dir)]),
    ),
  };
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
    remotes.push(
      development
        ? {
            name,
            entry: `${base}/remoteEntry.js`,
            version,
            prefixes: table.prefixes,
            routes: table.routes,
          }
        : await builtEntry(versionDir, base, name, version, table),
    );
  }
  return { schemaVersion: 1, generatedAt: new Date().toISOString(), remotes };
}

/**
 * A built version folder's entry in a manifest, served from `base`: its route table, and the pins
 * the site server checks (as the deploy API pins them): the SHA-256 of its Node build, which the
 * site runs only if it is that file, and the SHA-384 of every file its pages load in the browser.
 */
export async function builtEntry(
  versionDir: string,
  base: string,
  name: string,
  version: string,
  table?: { prefixes: string[]; routes: unknown[] },
) {
  const { prefixes, routes } =
    table ??
    (JSON.parse(await fs.readFile(path.join(versionDir, 'routes.json'), 'utf8')) as {
      prefixes: string[];
      routes: unknown[];
    });
  return {
    name,
    entry: `${base}/${version}/remoteEntry.js`,
    version,
    prefixes,
    routes,
    serverIntegrity: sha256Integrity(
      await fs.readFile(path.join(versionDir, 'server', 'pages.js')),
    ),
    files: await pinBuiltFiles(versionDir),
  };
}

/** The SHA-384 of every file a version's pages load in the browser, read from its build folder. */
async function pinBuiltFiles(versionDir: string): Promise<Record<string, string>> {
  const federation: unknown = JSON.parse(
    await fs.readFile(path.join(versionDir, 'mf-manifest.json'), 'utf8'),
  );
  const files = browserFiles('remoteEntry.js', federation, undefined);
  return Object.fromEntries(
    await Promise.all(
      files.map(async (file) => [
        file,
        sha384Integrity(await fs.readFile(path.join(versionDir, file))),
      ]),
    ),
  );
}

export async function writeManifest(file: string, manifest: unknown): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, `${JSON.stringify(manifest, null, 2)}\n`);
  await fs.rename(tmp, file);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const out = args.out ?? liveManifestFile();
  const shown = path.relative(process.cwd(), out) || out;
  const existed = existsSync(out);
  if (!args.out && existed && !args.replace) {
    console.log(
      `deployment manifest: kept the live ${shown} (a team changes its group with npm run deploy -w <group>; --replace writes it from the local builds)`,
    );
    return;
  }
  const manifest = await buildManifest({ versions: args.versions, dists: args.dists });
  await writeManifest(out, manifest);
  console.log(
    `deployment manifest: ${existed && !args.out ? 'replaced the live ' : ''}${shown} (${manifest.remotes
      .map((r) => `${r.name}@${r.version} ${r.routes.length} pages`)
      .join(', ')})`,
  );
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(`manifest: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(error instanceof UsageError ? 2 : 1);
  });
}
