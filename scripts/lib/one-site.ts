/**
 * One local site at a time: `npm start` and `npm run dev` write which process runs the site and at
 * what address (`<deploy folder>/.site.json`), and a second start that finds it running (or finds
 * a site answering on its port) says so and stops, before it builds or starts anything.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

interface RunningSite {
  pid: number;
  url: string;
  command: string;
}

const fileIn = (deployDir: string) => path.join(deployDir, '.site.json');

/** The commands that record a site. */
const SITE_COMMANDS = /scripts[/\\](start|dev)\.ts/;

/**
 * Whether `pid` runs, and is a site's command: after a crash and a restart of the machine the
 * recorded id may belong to another program (where /proc can tell).
 */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it runs, as another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    return SITE_COMMANDS.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
  } catch {
    return true;
  }
}

/** The site recorded in `deployDir`, if its process still runs. */
function recordedSite(deployDir: string): RunningSite | undefined {
  let site: Partial<RunningSite>;
  try {
    site = JSON.parse(readFileSync(fileIn(deployDir), 'utf8')) as Partial<RunningSite>;
  } catch {
    return undefined;
  }
  if (typeof site.pid !== 'number' || typeof site.url !== 'string' || site.pid === process.pid)
    return undefined;
  return alive(site.pid)
    ? { pid: site.pid, url: site.url, command: String(site.command ?? 'npm start') }
    : undefined;
}

/** Whether a site server answers its health check at `url` (within a second). */
async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(new URL('/_health', url), { signal: AbortSignal.timeout(1000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * Stops this process with a plain message when a site already runs from `deployDir`, or answers
 * at `url`; else records this one (removed when it exits).
 */
export async function oneSiteAtATime(
  deployDir: string,
  url: string,
  command: string,
): Promise<void> {
  const running = recordedSite(deployDir);
  if (running) {
    console.error(
      `A site is already running at ${running.url} (${running.command}, process ${running.pid}). ` +
        `Stop it first (Ctrl-C in its terminal, or kill ${running.pid}); nothing was started or changed.`,
    );
    process.exit(1);
  }
  if (await answers(url)) {
    console.error(
      `A site is already answering at ${url} (not one started from this folder). ` +
        `Stop it first, or start this one on other ports (PORT, MAIL_SERVICE_PORT); nothing was started or changed.`,
    );
    process.exit(1);
  }
  const file = fileIn(deployDir);
  writeFileSync(file, `${JSON.stringify({ pid: process.pid, url, command })}\n`, { mode: 0o600 });
  process.on('exit', () => {
    try {
      const recorded = JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown };
      if (recorded.pid === process.pid) rmSync(file, { force: true });
    } catch {
      // Gone already.
    }
  });
}
