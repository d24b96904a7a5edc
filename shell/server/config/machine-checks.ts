/**
 * The start-up checks only the machine can answer (the folders exist and may be used, the host
 * name resolves), and a failed listen named as the setting to change: each a SettingsError, so
 * the server stops before it starts anything.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { lookup } from 'node:dns/promises';
import net from 'node:net';
import path from 'node:path';
import { SettingsError, type SiteConfig } from '../settings';

/** What is wrong with a folder the server needs, or undefined when it is a folder it may use. */
function folderProblem(dir: string, writable: boolean): string | undefined {
  let isFolder: boolean;
  try {
    isFolder = statSync(dir).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR'
      ? `${dir} does not exist`
      : `${dir} cannot be read (${code ?? String(error)})`;
  }
  if (!isFolder) return `${dir} is a file, not a folder`;
  try {
    accessSync(dir, writable ? constants.R_OK | constants.W_OK | constants.X_OK : constants.R_OK);
  } catch {
    return `${dir} is not ${writable ? 'writable' : 'readable'} by this user`;
  }
  return undefined;
}

const statOk = (file: string) => {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

/** The shell's build files the server loads at start. */
const SHELL_BUILD = ['server/render.js', 'public/index.html'];

/** How long a host name may take to resolve at start. */
const LOOKUP_TIMEOUT_MS = 5000;

/**
 * What the environment alone cannot say: SHELL_DIST holds the shell's build; DEPLOY_DIR is a
 * folder that exists (the server never makes it: a mistyped one would start the site with an empty
 * manifest and every group's page a 404; `npm start` makes the checkout's own on its first run),
 * writable when the manifest is kept there; HOST resolves. Throws a SettingsError naming each
 * variable that fails, so the server stops before it starts anything.
 */
export async function checkSiteMachine(config: SiteConfig): Promise<void> {
  const problems: string[] = [];
  const shell = folderProblem(config.SHELL_DIST, false);
  const missing = SHELL_BUILD.find((file) => !statOk(path.join(config.SHELL_DIST, file)));
  if (shell)
    problems.push(`SHELL_DIST: ${shell}: expected the shell's build (npm run build -w shell)`);
  else if (missing) {
    problems.push(
      `SHELL_DIST: ${config.SHELL_DIST} holds no build of the shell (no ${missing}): build it with npm run build -w shell, or correct the path`,
    );
  }
  const deploy = folderProblem(config.DEPLOY_DIR, false);
  if (deploy) {
    problems.push(
      `DEPLOY_DIR: ${deploy}: expected the folder of the live manifest (npm start makes the checkout's deploy/ on its first run)`,
    );
  }
  if (config.HOST && net.isIP(config.HOST) === 0) {
    const name = config.HOST;
    let timer: NodeJS.Timeout | undefined;
    const problem = await Promise.race([
      lookup(name, { all: true }).then(
        () => undefined,
        (error: NodeJS.ErrnoException) =>
          `"${name}" does not resolve (${error.code ?? error.message})`,
      ),
      new Promise<string>((resolve) => {
        timer = setTimeout(
          () => resolve(`"${name}" did not resolve within ${LOOKUP_TIMEOUT_MS / 1000} s`),
          LOOKUP_TIMEOUT_MS,
        );
      }),
    ]);
    clearTimeout(timer);
    if (problem)
      problems.push(`HOST: ${problem}: expected an address of this machine or a name of one`);
  }
  if (problems.length) throw new SettingsError(problems);
}

/**
 * A listen that failed, as the setting to change: PORT for a port in use or not allowed, HOST for
 * an address this machine does not have; undefined for anything else.
 */
export function listenProblem(
  error: unknown,
  config: Pick<SiteConfig, 'PORT' | 'HOST'>,
): SettingsError | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') {
    return new SettingsError([`PORT: ${config.PORT} is in use by another process`]);
  }
  if (code === 'EACCES') {
    return new SettingsError([`PORT: this user may not listen on ${config.PORT}`]);
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new SettingsError([
      `HOST: "${config.HOST ?? ''}" is not an address of this machine (${code})`,
    ]);
  }
  return undefined;
}
