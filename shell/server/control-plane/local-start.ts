/**
 * What the local run (`npm start`) does with the control plane before any site server starts,
 * run as a command of its own (`node --import tsx shell/server/control-plane/local-start.ts
 * [--fresh-manifest] [--follow]`, with DATABASE_URL and DEPLOY_DIR as the site server takes them):
 * brings the database's schema up to date, fills an empty one from the deploy folder (its
 * `remotes.json`, and whatever an earlier run kept in files: move-in.ts), and with
 * `--fresh-manifest` makes the manifest just written from the local builds live, with a history
 * entry per group that it changes. It prints the live manifest's version, and names the groups
 * whose server code the site will not run.
 *
 * With `--follow` it stays (as `npm run dev -w <group>` keeps it): each line `publish` read on its
 * standard input makes `remotes.json` live again and is answered by one JSON line on its standard
 * output, `{"version":…}` or `{"error":…}`, so a save is published without starting a process.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Logger } from '../http/logger';
import { parseSiteSettings } from '../settings';
import { liveVersion } from '../deploy/history';
import { live, manifestText, type HistoryDraft, type LiveManifest } from './index';
import { PostgresControlPlane } from './postgres';

/**
 * Makes `<deployDir>/remotes.json` (just written from the local builds) the live manifest, as a
 * publish writes it, so that the same manifest is recognised as the live one and changes nothing.
 */
async function makeFileLive(
  plane: PostgresControlPlane,
  deployDir: string,
  log: Logger,
): Promise<LiveManifest> {
  const before = await plane.get();
  const file = path.join(deployDir, 'remotes.json');
  const next = live(
    manifestText(JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>),
  );
  if (next.version === before.version) return before;
  const at = new Date().toISOString();
  const was = new Map(before.manifest.remotes.map((r) => [r.name, liveVersion(r)]));
  const entries = next.manifest.remotes.flatMap((remote): HistoryDraft[] => {
    const from = was.get(remote.name) ?? null;
    const to = liveVersion(remote);
    if (from && from.version === to.version && from.entry === to.entry) return [];
    return [
      {
        at,
        by: 'npm start',
        credential: 'site',
        action: 'seed',
        remote: remote.name,
        from,
        to,
        reason: `the manifest written from the local builds (${path.basename(file)}) by npm start --fresh-manifest`,
      },
    ];
  });
  const published = await plane.publish(
    next.json as Record<string, unknown>,
    before.version,
    entries,
  );
  log.info(`site: manifest ${published.version}, written from the local builds, is live`);
  return published;
}

/** The longest command line read whole; a longer one is answered by its start, its rest skipped. */
const MAX_LINE = 4096;

/**
 * The lines of `input`, ended by a line feed alone (\r\n too): U+2028 and U+2029 are characters
 * of a line here, not ends of one (Node's readline ends a line at each, which would answer one line
 * as several). A line over MAX_LINE characters is given cut there, once.
 */
async function* commandLines(input: NodeJS.ReadableStream): AsyncGenerator<string> {
  input.setEncoding('utf8');
  let buffer = '';
  let skipping = false;
  for await (const chunk of input as AsyncIterable<string>) {
    buffer += chunk;
    for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n')) {
      const line = buffer.slice(0, end).replace(/\r$/, '');
      buffer = buffer.slice(end + 1);
      if (skipping) skipping = false;
      else yield line;
    }
    if (buffer.length > MAX_LINE) {
      if (!skipping) yield buffer.slice(0, MAX_LINE);
      skipping = true;
      buffer = '';
    }
  }
  if (buffer && !skipping) yield buffer;
}

/** `--follow`: a publish per `publish` line of standard input, one JSON answer line each. */
async function follow(plane: PostgresControlPlane, deployDir: string, log: Logger): Promise<void> {
  // U+2028 and U+2029 escaped, so that a reader that ends lines at them still reads one line.
  const answer = (value: { version: string } | { error: string }) =>
    process.stdout.write(
      `${JSON.stringify(value).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`)}\n`,
    );
  for await (const line of commandLines(process.stdin)) {
    // The command as it is, to the letter: no other line, however close, publishes.
    if (line !== 'publish') {
      answer({ error: `unknown command ${JSON.stringify(line.slice(0, 80))}: expected publish` });
      continue;
    }
    try {
      answer({ version: (await makeFileLive(plane, deployDir, log)).version });
    } catch (error) {
      answer({ error: error instanceof Error ? error.message : String(error) });
    }
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { 'fresh-manifest': { type: 'boolean' }, follow: { type: 'boolean' } },
  });
  const config = parseSiteSettings(process.env);
  const fresh = values['fresh-manifest'] ?? false;
  const following = values.follow ?? false;
  // While following, standard output carries the answers alone, which say what went live.
  const say = following ? () => undefined : console.log;
  const log: Logger = { info: say, warn: console.warn, error: console.error };
  const plane = new PostgresControlPlane({
    url: config.DATABASE_URL,
    deployDir: config.DEPLOY_DIR,
    log,
  });
  try {
    let current = await plane.start();
    if (fresh) current = await makeFileLive(plane, config.DEPLOY_DIR, log);
    say(
      `deployment manifest: ${current.version}, ${fresh ? 'written from the local builds' : 'as last deployed'}`,
    );
    const unpinned = current.manifest.remotes.filter((r) => !r.serverIntegrity).map((r) => r.name);
    if (unpinned.length) {
      console.warn(
        `deployment manifest: ${unpinned.join(', ')} not pinned by SHA-256, so the site will not run their pages' server code (their pages answer 503): deploy them again, or start with --fresh-manifest to write the manifest from the local builds`,
      );
    }
    if (following) await follow(plane, config.DEPLOY_DIR, log);
  } finally {
    await plane.close();
  }
}

main().catch((error: unknown) => {
  console.error(
    `the control plane could not be prepared: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
