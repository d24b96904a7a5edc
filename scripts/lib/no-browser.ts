/**
 * An environment in which no browser can be found, and every Node.js process records whether it
 * looked for one: `npm test` makes its production build in it, and the browser test
 * build-without-browser.spec.ts reads the record (and exports the site in it). With no special
 * rights, so it works as any user on Linux or macOS:
 *
 * - nothing leads to a browser: PATH is a folder of links to every program on the caller's PATH
 *   except those named like Chromium or Chrome; CHROME_PATH names a file in an empty folder,
 *   PLAYWRIGHT_BROWSERS_PATH is that empty folder and HOME another, so neither Playwright's
 *   downloads nor a user's browser are found (npm puts the packages' own bin folders first, where
 *   chrome-launcher's scripts are: using one would show in the record);
 * - nothing tried: every Node.js process preloads tests/support/record-browser-use.cjs
 *   (NODE_OPTIONS, which Node passes on to every process it starts), which records each process
 *   started and every file or module looked up under a name containing "chrom".
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');

export interface NoBrowser {
  env: NodeJS.ProcessEnv;
  /** The record: one JSON line per process, child process and look-up (see above). */
  log: string;
}

/** The environment, made afresh in `dir` (emptied first), from `base`'s variables. */
export function noBrowserEnvironment(
  dir: string,
  base: NodeJS.ProcessEnv = process.env,
): NoBrowser {
  rmSync(dir, { recursive: true, force: true });
  // A PATH with every program but a browser: the first of each name, as the shell would find it.
  const bin = path.join(dir, '.bin');
  mkdirSync(bin, { recursive: true });
  const linked = new Set<string>();
  for (const folder of (base.PATH ?? '').split(path.delimiter)) {
    if (!folder || !existsSync(folder) || !statSync(folder).isDirectory()) continue;
    for (const name of readdirSync(folder)) {
      if (/chrom/i.test(name) || linked.has(name)) continue;
      linked.add(name);
      symlinkSync(path.join(folder, name), path.join(bin, name));
    }
  }
  const empty = path.join(dir, '.no-browsers');
  const home = path.join(dir, '.home');
  mkdirSync(empty);
  mkdirSync(home);
  const log = path.join(dir, 'browser-use.jsonl');
  const recorder = path.join(ROOT, 'tests', 'support', 'record-browser-use.cjs');
  return {
    log,
    env: {
      ...base,
      PATH: bin,
      HOME: home,
      CHROME_PATH: path.join(empty, 'chromium'),
      PLAYWRIGHT_BROWSERS_PATH: empty,
      NODE_OPTIONS: `--require ${JSON.stringify(recorder)}`,
      BROWSER_USE_LOG: log,
      // npm's check for a newer npm would run afresh in the empty HOME, over the network.
      npm_config_update_notifier: 'false',
    },
  };
}

/** Where `npm test` tells the browser tests its build's record is. */
export const BUILD_RECORD_VARIABLE = 'NO_BROWSER_BUILD_RECORD';
