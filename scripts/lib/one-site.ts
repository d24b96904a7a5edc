/**
 * One local site at a time: `npm start` and `npm run dev` write which process runs the site and at
 * what address (`<deploy folder>/.site.json`), and a second start that finds it running (or finds
 * a site answering on its port) says so and stops, before it builds or starts anything. The record
 * also names the processes the run supervises: a run killed with SIGKILL takes none of them with
 * it, and the next start stops what it left (each process checked to be the one recorded) instead
 * of finding its own site in the way.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RunningChild } from './processes';

interface RunningSite {
  pid: number;
  url: string;
  command: string;
}

/** A supervised process as recorded: with its command line, to tell it from a later one. */
interface RecordedChild extends RunningChild {
  cmdline: string;
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

const cmdlineOf = (pid: number): string | undefined => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return undefined;
  }
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Whether a recorded entry names a process that still runs as recorded: a plain entry, not this
 * process or init, and the same command line now (a record is a file: whatever it holds is checked).
 */
function isLeftChild(entry: unknown): entry is RecordedChild {
  if (typeof entry !== 'object' || entry === null) return false;
  const { pid, name, stopSignal, cmdline } = entry as Partial<Record<keyof RecordedChild, unknown>>;
  return (
    Number.isSafeInteger(pid) &&
    (pid as number) > 1 &&
    pid !== process.pid &&
    typeof name === 'string' &&
    name.length <= 64 &&
    typeof stopSignal === 'string' &&
    typeof cmdline === 'string' &&
    cmdline !== '' &&
    cmdlineOf(pid as number) === cmdline
  );
}

/**
 * Stops what a run recorded in `deployDir` left behind when it was killed: each process it named
 * that still runs with the same command line (a pid the system has since given to another program
 * is left alone), asked as the run would have asked it, killed after `graceMs`.
 */
export async function stopLeftBehind(deployDir: string, graceMs = 10_000): Promise<void> {
  let record: { pid?: unknown; command?: unknown; children?: unknown };
  try {
    record = JSON.parse(readFileSync(fileIn(deployDir), 'utf8')) as typeof record;
  } catch {
    return;
  }
  if (typeof record.pid !== 'number' || record.pid === process.pid || alive(record.pid)) return;
  const children = (Array.isArray(record.children) ? record.children : []).filter(isLeftChild);
  if (children.length === 0) return;
  const command = typeof record.command === 'string' ? record.command : 'npm start';
  console.log(
    `stopping what an earlier ${command} (process ${record.pid}, killed) left running: ${children.map((c) => `${c.name} (pid ${c.pid})`).join(', ')}`,
  );
  const running = () => children.filter((c) => cmdlineOf(c.pid) === c.cmdline);
  for (const child of children) {
    try {
      process.kill(
        child.pid,
        /^SIG[A-Z0-9]+$/.test(child.stopSignal) ? child.stopSignal : 'SIGTERM',
      );
    } catch {
      // Gone meanwhile.
    }
  }
  for (const deadline = Date.now() + graceMs; running().length > 0 && Date.now() < deadline;) {
    await sleep(50);
  }
  for (const child of running()) {
    console.log(`${child.name} (pid ${child.pid}) did not stop within ${graceMs / 1000} s: killed`);
    try {
      process.kill(child.pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
}

/** Records the processes this run supervises now in its record (after `oneSiteAtATime`). */
export function recordChildren(deployDir: string, children: readonly RunningChild[]): void {
  const file = fileIn(deployDir);
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return;
  }
  if (record.pid !== process.pid) return;
  const recorded = children.flatMap((child) => {
    const cmdline = cmdlineOf(child.pid);
    return cmdline === undefined ? [] : [{ ...child, cmdline }];
  });
  const next = `${file}.${process.pid}.tmp`;
  writeFileSync(next, `${JSON.stringify({ ...record, children: recorded })}\n`, { mode: 0o600 });
  renameSync(next, file);
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
  await stopLeftBehind(deployDir);
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
