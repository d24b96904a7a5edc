/**
 * A team's next version of a remote, built from a changed copy of its workspace once for all the
 * tests that ask for it, and the copies the tests deploy from; a fingerprint shows that a build's
 * output did not change.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { sourcesDigest } from '@site/build/webpack/build-record';
import { ROOT } from './deployment';

const execFileAsync = promisify(execFile);

/** A fingerprint of every file in a folder, to show that a build's output did not change. */
export function fingerprint(dir: string): string {
  const hash = createHash('sha256');
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const file = path.join(d, name);
      if (statSync(file).isDirectory()) walk(file);
      else hash.update(name).update(readFileSync(file));
    }
  };
  walk(dir);
  return hash.digest('hex');
}

/** A copy of a remote's workspace, to change and build as its team would. */
export function copyWorkspace(folder: string, target: string): void {
  rmSync(target, { recursive: true, force: true });
  cpSync(path.join(ROOT, folder), target, {
    recursive: true,
    filter: (src) => !/[/\\](node_modules|dist)([/\\]|$)/.test(src),
  });
}

/**
 * The public-health team's next version, as its workspace holds it before the build: version
 * 1.1.0, the M & E Tools heading "Tools we build and configure" changed to "Tools we build,
 * configure and support", a new page, Field Training (`/public-health/field-training`), and after
 * it a training page for each of eleven regions (`/public-health/training-<region>`).
 */
function writePublicHealthNext(work: string): void {
  copyWorkspace('mfe-public-health', work);
  const pkgFile = path.join(work, 'package.json');
  writeFileSync(
    pkgFile,
    JSON.stringify({ ...JSON.parse(readFileSync(pkgFile, 'utf8')), version: '1.1.0' }),
  );
  const contentFile = path.join(work, 'src', 'content', 'mande-tools.ts');
  writeFileSync(
    contentFile,
    readFileSync(contentFile, 'utf8').replace(
      'Tools we build and configure',
      'Tools we build, configure and support',
    ),
  );
  const routesFile = path.join(work, 'src', 'routes.json');
  const table = JSON.parse(readFileSync(routesFile, 'utf8'));
  table.routes.push({
    path: '/public-health/field-training',
    title: 'Field Training',
    description:
      'Hands-on training for data collectors and supervisors, so digital M&E tools are used well from day one.',
    group: 'Public Health',
    navLabel: 'Field Training',
  });
  // Training in each province, past the ten pages every page names of a group: the menu leads to
  // the overview for these, and the overview lists them.
  for (const [slug, province] of TRAINING_REGIONS) {
    table.routes.push({
      path: `/public-health/training-${slug}`,
      title: `Training in ${province}`,
      description: `Field training for data collectors and district supervisors in ${province}, run with the provincial health department.`,
      group: 'Public Health',
      navLabel: `Training in ${province}`,
    });
    writeFileSync(
      path.join(work, 'src', 'content', `training-${slug}.ts`),
      trainingContent(`Supervisors and data collectors in ${province}, trained where they work.`),
    );
  }
  writeFileSync(routesFile, JSON.stringify(table));
  // A page is a route-table entry and a content file.
  writeFileSync(
    path.join(work, 'src', 'content', 'field-training.ts'),
    trainingContent('Training that sticks.'),
  );
}

/** The provinces the public-health team's next version adds a training page for. */
export const TRAINING_REGIONS = [
  ['eastern-cape', 'the Eastern Cape'],
  ['free-state', 'the Free State'],
  ['gauteng', 'Gauteng'],
  ['kwazulu-natal', 'KwaZulu-Natal'],
  ['limpopo', 'Limpopo'],
  ['mpumalanga', 'Mpumalanga'],
  ['north-west', 'North West'],
  ['northern-cape', 'the Northern Cape'],
  ['western-cape', 'the Western Cape'],
  ['lesotho', 'Lesotho'],
  ['eswatini', 'Eswatini'],
] as const;

const trainingContent = (lead: string) => `import type { ServicePageContent } from '@site/ui';

export default {
  lead: ${JSON.stringify(lead)},
  intro: { heading: 'How we train', paragraphs: ['Supervisors first, then their teams.'] },
  sections: [],
} satisfies ServicePageContent;
`;

const TMP = path.join(ROOT, 'tests', '.tmp');

/** Whether the process that took a build's lock (its pid in the lock's `pid` file) still runs. */
function lockHeld(lock: string): boolean {
  try {
    process.kill(Number(readFileSync(path.join(lock, 'pid'), 'utf8')), 0);
    return true;
  } catch (error) {
    // No pid written yet (the lock is being taken this instant), or a process that still runs.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * A workspace written by `write` and built for production, built once for all the tests that ask
 * for it: the build is kept in `tests/.tmp/<name>-<digest of its sources>` (the digest the deploy
 * command itself checks a build against, `sourcesDigest`), so any change to the group's sources,
 * the shared packages it compiles in or the locked packages builds it afresh. Test processes that
 * ask at the same time wait for the one that builds. Returns the build's folder, not to be changed.
 */
export async function builtOnce(name: string, write: (work: string) => void): Promise<string> {
  mkdirSync(TMP, { recursive: true });
  // At the depth of the tests' own copies (`tests/.tmp/<folder>`), so the output is the same.
  const staging = mkdtempSync(path.join(TMP, `${name}-staging-`));
  try {
    write(staging);
    const built = path.join(TMP, `${name}-${sourcesDigest(staging).slice(0, 16)}`);
    const lock = `${built}.lock`;
    for (;;) {
      if (existsSync(built)) return built;
      try {
        mkdirSync(lock);
        break;
      } catch {
        // Another test process builds it; a lock whose process is gone is taken over.
        if (!lockHeld(lock)) rmSync(lock, { recursive: true, force: true });
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    try {
      writeFileSync(path.join(lock, 'pid'), String(process.pid));
      if (existsSync(built)) return built;
      await execFileAsync(
        process.execPath,
        [require.resolve('webpack-cli/bin/cli.js'), '--mode', 'production'],
        { cwd: staging, maxBuffer: 64 * 1024 * 1024 },
      );
      // Whole or not at all: a build that stops halfway is never taken for a finished one.
      renameSync(staging, built);
      // Builds of sources no longer current are not kept.
      for (const entry of readdirSync(TMP)) {
        const stale = path.join(TMP, entry);
        if (stale !== built && new RegExp(`^${name}-[0-9a-f]{16}$`).test(entry)) {
          rmSync(stale, { recursive: true, force: true });
        }
      }
      return built;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * The public-health team's next version, built as the team would (`writePublicHealthNext`: version
 * 1.1.0, the M & E Tools heading changed, a new page Field Training at
 * `/public-health/field-training`), in a workspace of the caller's own, `tests/.tmp/<folder>`, to
 * deploy from or change. The production build is made once for every test that asks for it and
 * copied in. Returns the copy's folder; the version folder is in its `dist`.
 */
export async function buildPublicHealthNext(folder: string): Promise<string> {
  const built = await builtOnce('public-health-next', writePublicHealthNext);
  const work = path.join(TMP, folder);
  rmSync(work, { recursive: true, force: true });
  cpSync(built, work, {
    recursive: true,
    filter: (src) => !/(^|[/\\])node_modules([/\\]|$)/.test(path.relative(built, src)),
  });
  return work;
}

/**
 * A second clone of a team's workspace copy (`tests/.tmp/<folder>`): its sources as they are, its
 * builds left behind, as a colleague's checkout of the same version would be. Returns its folder.
 */
export function cloneTeamWorkspace(work: string, folder: string): string {
  const target = path.join(ROOT, 'tests', '.tmp', folder);
  rmSync(target, { recursive: true, force: true });
  cpSync(work, target, {
    recursive: true,
    filter: (src) => !/(^|[/\\])(node_modules|dist)([/\\]|$)/.test(path.relative(work, src)),
  });
  return target;
}
