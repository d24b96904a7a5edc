/**
 * The scale measurement's scratch site: the site table on the measurement's ports, the grown group
 * copied and given its extra routes, and its one webpack build, kept between runs by a digest of
 * what it is built from (scale.ts runs the measurement on it).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SITE_REMOTES } from '@site/contracts/site';
import { log } from './util';

const root = path.join(__dirname, '..', '..');

export const SCALE_PORTS = {
  site: 3490,
  nginx: 3491,
  groups: SITE_REMOTES.map((_, i) => 3492 + i),
};
/** The group that grows: the one with two prefixes, as a team with a growing catalogue has. */
export const GROWN = SITE_REMOTES.find((r) => r.prefixes.length > 1) ?? SITE_REMOTES[0]!;

interface Route {
  path: string;
  title: string;
  description: string;
  group?: string;
  navLabel?: string;
}

/** The last path segment, lower case: the page's content module (shared/ui's `contentModule`). */
const contentModule = (p: string) => p.slice(p.lastIndexOf('/') + 1).toLowerCase();

/**
 * The scratch site: the site table with this measurement's ports, the grown group's sources copied
 * and grown by `extra` routes, the other groups linked to this checkout's (read only).
 */
export async function growSite(dir: string, extra: number): Promise<string> {
  const site = path.join(dir, 'site');
  await fs.mkdir(path.join(site, 'shared', 'contracts'), { recursive: true });
  await fs.symlink(path.join(root, 'node_modules'), path.join(site, 'node_modules'));
  await fs.copyFile(path.join(root, 'tsconfig.json'), path.join(site, 'tsconfig.json'));
  const table = JSON.parse(
    readFileSync(path.join(root, 'shared', 'contracts', 'site.json'), 'utf8'),
  ) as { remotes: { port: number }[] };
  table.remotes.forEach((r, i) => (r.port = SCALE_PORTS.groups[i]!));
  await fs.writeFile(
    path.join(site, 'shared', 'contracts', 'site.json'),
    `${JSON.stringify(table, null, 2)}\n`,
  );
  for (const group of SITE_REMOTES) {
    if (group !== GROWN) {
      await fs.symlink(path.join(root, group.folder), path.join(site, group.folder));
      continue;
    }
    await fs.cp(path.join(root, group.folder), path.join(site, group.folder), {
      recursive: true,
      filter: (source) => !/[/\\](dist|node_modules)$/.test(source),
    });
  }
  const src = path.join(site, GROWN.folder, 'src');
  const tableFile = path.join(src, 'routes.json');
  const routes = JSON.parse(await fs.readFile(tableFile, 'utf8')) as {
    prefixes: string[];
    routes: Route[];
  };
  const originals = [...routes.routes];
  for (let n = 0; n < extra; n++) {
    const source = originals[n % originals.length]!;
    const prefix =
      routes.prefixes.find((p) => source.path === p || source.path.startsWith(`${p}/`)) ??
      routes.prefixes[0]!;
    const slug = `${contentModule(source.path)}-${n + 2}`;
    await fs.copyFile(
      path.join(src, 'content', `${contentModule(source.path)}.ts`),
      path.join(src, 'content', `${slug}.ts`),
    );
    routes.routes.push({
      ...source,
      path: `${prefix}/${slug}`,
      title: `${source.title} ${n + 2}`,
      ...(source.navLabel
        ? { navLabel: `${source.navLabel.replace(/ overview$/, '')} ${n + 2}` }
        : {}),
    });
  }
  await fs.writeFile(tableFile, `${JSON.stringify(routes, null, 2)}\n`);
  return site;
}

/** Builds of grown groups kept between runs, by a digest of what they were built from. */
export const BUILDS = path.join(os.tmpdir(), 'bench-scale-builds');

/** Every file under `dir`, by its path relative to `dir`, in a stable order. */
function filesUnder(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(file, base));
    else out.push(path.relative(base, file));
  }
  return out;
}

/**
 * What the grown group's build is made from: its sources, its build settings, the shared packages
 * and the installed versions. The same digest is the same build, so a second run (the same group
 * measured before and after a change to the site server) builds once.
 */
export function buildDigest(groupDir: string): string {
  const hash = createHash('sha256');
  const add = (dir: string, files: string[]) => {
    for (const file of files) hash.update(file).update(readFileSync(path.join(dir, file)));
  };
  add(groupDir, [
    ...filesUnder(path.join(groupDir, 'src')).map((f) => path.join('src', f)),
    'package.json',
    'webpack.config.js',
  ]);
  for (const shared of ['ui', 'build', 'contracts']) {
    const dir = path.join(root, 'shared', shared);
    add(dir, filesUnder(dir));
  }
  add(root, ['package-lock.json', 'tsconfig.json', 'tsconfig.build.json']);
  return hash.digest('hex').slice(0, 24);
}

/** One production build of the grown group, with webpack as `npm run build -w` runs it. */
export function buildGrown(site: string): number {
  const started = Date.now();
  log(`scale: building ${GROWN.folder} with its grown route table (one webpack build)`);
  const result = spawnSync(
    process.execPath,
    [require.resolve('webpack-cli/bin/cli.js'), '--mode', 'production'],
    { cwd: path.join(site, GROWN.folder), encoding: 'utf8', timeout: 60 * 60_000 },
  );
  if (result.status !== 0)
    throw new Error(`the grown group's build failed:\n${result.stdout}${result.stderr}`);
  return Math.round((Date.now() - started) / 1000);
}
