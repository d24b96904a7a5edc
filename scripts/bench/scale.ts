/**
 * The site as it grows: what a page costs at the size it is today, at about 100 and at about 1,000
 * routes, grown the way teams grow it (a route in a group's table and a content file for it, copied
 * from the group's real pages).
 *
 * Everything happens in a scratch copy in a temporary folder: the grown group is copied there (its
 * sources, not its builds), given its extra routes and built once, at the largest size, with
 * webpack; the smaller sizes publish the first routes of that build's table (the routes a manifest
 * names are the site's pages). The other groups are their own builds in this checkout, read only.
 * Per size, on ports 3490 on: the site server as its own process (one render worker, as the
 * throughput measurement runs it), every group's static host in one process (as `npm start` runs
 * them), nginx with one worker; then
 *
 * - two crawls of every page: the page's bytes (raw and gzip, the median page) and its embedded
 *   manifest's, the composition time of a page not cached (the median answer of the first crawl,
 *   and the server's own mean), the page cache's hit rate in each crawl (the site's metrics);
 * - a deploy of the grown group (a new version folder of the same build): how many of the other
 *   pages are still hits;
 * - the processes and memory (RSS) of the site server with its render processes and the static host,
 *   as `npm start` runs them (the mail-service, the same at any size, is not counted);
 * - cached pages per second against nginx serving the same gzip bytes as files (wrk, as
 *   throughput.ts measures, fewer and shorter rounds).
 *
 * Every figure is printed with the 1-minute load average taken when it was measured: on a loaded
 * machine the ratios between sizes are what count.
 *
 *   npm run bench -- --only scale
 *   node --import tsx scripts/bench/scale.ts [--sizes 100,1000] [--rounds 2] [--seconds 3]
 */
import { existsSync, readdirSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SHELL_PAGES, SITE_REMOTES } from '@site/contracts/site';
import { buildManifest } from '../manifest';
import { portFree, start } from './processes';
import { BUILDS, GROWN, SCALE_PORTS, buildDigest, buildGrown, growSite } from './scale-grow';
import { measureSize, type Manifest } from './scale-measure';
import { printScale, writeScaleDoc, type ScaleFigures, type SizeFigures } from './scale-report';
import { ensureProgram, nginxConfig } from './throughput';
import { cleanup, log, onCleanup } from './util';
import { readArgs, wholeNumber } from '../lib/args';

const root = path.join(__dirname, '..', '..');

/** Sizes in routes (the shell's pages and every group's); the site as it is comes first. */
export const SCALE_SIZES = [100, 1000];

const manifestOf = async (options: Parameters<typeof buildManifest>[0]): Promise<Manifest> =>
  (await buildManifest(options)) as Manifest;

/** The manifest with the grown group's routes cut so that the site has `size` routes. */
function sized(full: Manifest, size: number, shellPages: number): Manifest {
  const others = full.remotes
    .filter((r) => r.name !== GROWN.name)
    .reduce((n, r) => n + r.routes.length, 0);
  return {
    ...full,
    remotes: full.remotes.map((r) =>
      r.name === GROWN.name ? { ...r, routes: r.routes.slice(0, size - others - shellPages) } : r,
    ),
  };
}

export async function measureScale({
  sizes = SCALE_SIZES,
  rounds = 2,
  seconds = 3,
}: { sizes?: number[]; rounds?: number; seconds?: number } = {}): Promise<ScaleFigures> {
  ensureProgram('/usr/sbin/nginx', 'nginx');
  ensureProgram('/usr/bin/wrk', 'wrk');
  for (const port of [SCALE_PORTS.site, SCALE_PORTS.nginx, ...SCALE_PORTS.groups]) {
    if (!(await portFree(port)))
      throw new Error(`port ${port} is in use: the scale measurement needs 3490 to 3495`);
  }
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-scale-'));
  onCleanup(() => fs.rm(scratch, { recursive: true, force: true }));
  // nginx's worker and the render processes drop root's rights: they must be able to read it.
  await fs.chmod(scratch, 0o755);

  const shellPages = Object.values(SHELL_PAGES).length;
  const local = await manifestOf({});
  const today = shellPages + local.remotes.reduce((n, r) => n + r.routes.length, 0);
  const largest = Math.max(today, ...sizes);
  const site = await growSite(scratch, largest - today);
  const grownDist = path.join(site, GROWN.folder, 'dist');
  const kept = path.join(BUILDS, buildDigest(path.join(site, GROWN.folder)));
  let buildSeconds = 0;
  if (existsSync(kept)) {
    log(`scale: the grown group's build of these same sources is reused (${kept})`);
    await fs.cp(kept, grownDist, { recursive: true });
  } else {
    buildSeconds = buildGrown(site);
    log(`scale: the grown group built in ${buildSeconds} s`);
    await fs.mkdir(BUILDS, { recursive: true });
    await fs.cp(grownDist, `${kept}.tmp`, { recursive: true });
    await fs.rename(`${kept}.tmp`, kept);
  }

  const version = readdirSync(grownDist).find((v) => !v.startsWith('.'))!;
  // The version a deploy publishes: the same files under a new version folder.
  const nextVersion = `${version}-next`;
  await fs.cp(path.join(grownDist, version), path.join(grownDist, nextVersion), {
    recursive: true,
  });
  const env = Object.fromEntries(
    SITE_REMOTES.map((r, i) => [
      `REMOTE_${r.name.toUpperCase()}_URL`,
      `http://127.0.0.1:${SCALE_PORTS.groups[i]}`,
    ]),
  );
  const full = await manifestOf({
    dists: { [GROWN.name]: grownDist },
    env,
    versions: { [GROWN.name]: version },
  });
  const next = await manifestOf({
    dists: { [GROWN.name]: grownDist },
    env,
    versions: { [GROWN.name]: nextVersion },
  });

  const host = await start(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'scripts', 'serve-remote.ts'), '--site', site],
    {},
    `http://127.0.0.1:${SCALE_PORTS.groups[0]}/`,
  );
  const nginxRoot = path.join(scratch, 'nginx-root');
  await fs.mkdir(nginxRoot, { mode: 0o755 });
  await fs.writeFile(
    path.join(scratch, 'nginx.conf'),
    nginxConfig(scratch, nginxRoot, SCALE_PORTS.nginx),
  );
  await fs.writeFile(path.join(nginxRoot, 'index.html'), '');
  await start(
    '/usr/sbin/nginx',
    ['-p', scratch, '-c', path.join(scratch, 'nginx.conf')],
    {},
    `http://127.0.0.1:${SCALE_PORTS.nginx}/`,
  );

  const figures: SizeFigures[] = [];
  for (const size of [today, ...sizes.filter((s) => s > today)]) {
    figures.push(
      await measureSize(
        scratch,
        sized(full, size, shellPages),
        sized(next, size, shellPages),
        host.pid!,
        nginxRoot,
        { rounds, seconds },
      ),
    );
  }
  return { grown: GROWN.name, buildSeconds, sizes: figures };
}

if (require.main === module) {
  let options: { sizes?: number[]; rounds: number; seconds: number };
  try {
    const values = readArgs(
      process.argv.slice(2),
      { sizes: { type: 'string' }, rounds: { type: 'string' }, seconds: { type: 'string' } },
      { sizes: '34,340,1000', rounds: '2', seconds: '3' },
    );
    const sizes = values.sizes?.split(',').map((size) => wholeNumber('sizes', size, 1, 100_000)!);
    options = {
      ...(sizes ? { sizes } : {}),
      rounds: wholeNumber('rounds', values.rounds, 1, 100) ?? 2,
      seconds: wholeNumber('seconds', values.seconds, 1, 600) ?? 3,
    };
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(2);
  }
  measureScale(options)
    .then(async (figures) => {
      printScale(figures);
      await writeScaleDoc(figures);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    })
    .finally(() => cleanup());
}
