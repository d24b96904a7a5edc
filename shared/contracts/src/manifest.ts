import {
  DESCRIPTION_MAX,
  DESCRIPTION_MIN,
  PLAIN_PATH_RULE,
  pathProblem,
  prefixOf,
  quoted,
  type RouteMeta,
} from './routes';

/** One remote as the shell finds it at run time. */
export interface RemoteDeployment {
  /** Federation name, a snake_case identifier. */
  name: string;
  /** URL of the remote's `remoteEntry.js` (or `mf-manifest.json`). */
  entry: string;
  /** The deployed version (the folder its files live in). */
  version: string;
  prefixes: string[];
  routes: RouteMeta[];
  /**
   * The SHA-256 of the version's Node build (`server/pages.js`), taken when it was deployed, in
   * Subresource Integrity form (`sha256-<base64>`). The site server runs no other file.
   */
  serverIntegrity?: string;
  /**
   * The SHA-384 of every file the group's pages load in the browser (browser-files.ts), by path in
   * the version folder, in Subresource Integrity form, taken when it was deployed. Pages load each
   * with `integrity`: a file changed on the group's host since does not run.
   */
  files?: Record<string, string>;
  /**
   * Only in the manifest a page carries (page-manifest.ts), where `routes` holds each prefix's
   * overview and leading pages: how many pages each prefix has in the whole route table.
   */
  pages?: Record<string, number>;
}

/** A remote whose entry in the manifest could not be used: its group's pages show as unavailable. */
export interface UnavailableRemote {
  name: string;
  /** The prefixes it claims, where known; empty when even they could not be read. */
  prefixes: string[];
  reason: string;
}

/** The deployment manifest served beside the shell as `/remotes.json`. */
export interface DeploymentManifest {
  schemaVersion: 1;
  generatedAt: string;
  remotes: RemoteDeployment[];
  /** Entries set aside by `readManifest`. */
  unavailable?: UnavailableRemote[];
}

export class ManifestError extends Error {
  override name = 'ManifestError';
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const isNonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new ManifestError(message);
}

/** A card's file name is its page's path, a hash and `.png`, under `share/`. */
export const CARD_PATH_MAX = 160;

/**
 * A share card's path: relative to the version folder and inside it (no scheme, no leading slash,
 * no `.` or `..` segment, nothing a URL would read as a query or fragment), and a PNG.
 */
const isCardPath = (v: string): boolean =>
  v.length <= CARD_PATH_MAX &&
  /^[a-z0-9][a-z0-9_.-]*(\/[a-z0-9][a-z0-9_.-]*)*\.png$/i.test(v) &&
  !v.split('/').includes('..');

/** A path or prefix as the parser takes it: plain, or an error naming it and the rule. */
function checkPlain(value: string, where: string, prefix = false): void {
  const problem = pathProblem(value, prefix);
  check(
    problem === undefined,
    `${where} ${quoted(value)} is not a plain path (${problem}): ${PLAIN_PATH_RULE}`,
  );
}

/** Prefixes that are plain paths: the only ones a link or a notice may name. */
const isPlainPrefix = (p: unknown): p is string =>
  typeof p === 'string' && pathProblem(p, true) === undefined;

/** The most files one entry may pin: a table past this is refused at deploy. */
export const MAX_PINNED_FILES = 400;

/** A SHA-384 digest in Subresource Integrity form. */
export const SHA384_INTEGRITY = /^sha384-[A-Za-z0-9+/]{64}$/;

/**
 * A pinned file's path: relative to the version folder and inside it (no scheme, no leading slash,
 * no segment starting with a dot), a script or a style sheet.
 */
export const PINNED_PATH = /^[\w-][\w.-]*(\/[\w-][\w.-]*)*\.(js|css)$/;

/**
 * The global under which a page holds the pins of the files it may load, by URL: set by the page's
 * own first script (shell/server/pages/compose.ts), read by the shell's federation runtime for a group's
 * entry and by each group's chunk loader (shared/build/webpack/pinned-loading.cjs, which names it
 * too) for the chunks.
 */
export const PINS_GLOBAL = '__site_pins';

/** A SHA-256 digest in Subresource Integrity form. */
export const SHA256_INTEGRITY = /^sha256-[A-Za-z0-9+/]{43}=$/;

/**
 * A group's federation name: a snake_case identifier (it becomes a JavaScript global in the
 * browser), at most 64 characters. As a pattern for JSON schemas, and as a test.
 */
export const GROUP_NAME_PATTERN = '^[a-z][a-z0-9_]{0,63}$';
export const isGroupName = (value: unknown): value is string =>
  typeof value === 'string' && new RegExp(GROUP_NAME_PATTERN).test(value);

/** One route of a remote's table, checked; `prefixes` are the remote's. */
export function parseRoute(value: unknown, where: string, prefixes: string[]): RouteMeta {
  check(isObject(value), `${where} is not an object`);
  const { path, title, description, group, navLabel, image } = value;
  check(isNonEmptyString(path) && path.startsWith('/'), `${where}.path must start with "/"`);
  checkPlain(path, `${where}.path`);
  check(
    // A path at a prefix itself is the group's overview page.
    prefixOf(prefixes, path) !== undefined,
    `${where}.path ${quoted(path)} is outside the remote's prefixes`,
  );
  check(isNonEmptyString(title), `${where}.title is missing`);
  check(
    typeof description === 'string' &&
      description.length >= DESCRIPTION_MIN &&
      description.length <= DESCRIPTION_MAX,
    `${where}.description must be ${DESCRIPTION_MIN} to ${DESCRIPTION_MAX} characters${typeof description === 'string' ? ` (it has ${description.length})` : ''}`,
  );
  check(isNonEmptyString(group), `${where}.group is missing`);
  check(isNonEmptyString(navLabel), `${where}.navLabel is missing`);
  if (image === undefined) return { path, title, description, group, navLabel };
  check(
    typeof image === 'string' && isCardPath(image),
    `${where}.image must be a .png path inside the remote's folder, at most ${CARD_PATH_MAX} characters, like "share/page.png"`,
  );
  return { path, title, description, group, navLabel, image };
}

function parseRemote(r: unknown, where: string): RemoteDeployment {
  check(isObject(r), `${where} is not an object`);
  const { name, entry, version, prefixes, routes, serverIntegrity, files, pages } = r;
  check(isGroupName(name), `${where}.name must be a snake_case identifier`);
  check(isNonEmptyString(entry), `${where}.entry is missing`);
  let url: URL;
  try {
    url = new URL(entry, 'http://localhost');
  } catch {
    throw new ManifestError(`${where}.entry is not a URL`);
  }
  check(/^https?:$/.test(url.protocol), `${where}.entry must be an http(s) URL`);
  check(isNonEmptyString(version), `${where}.version is missing`);
  check(
    Array.isArray(prefixes) &&
      prefixes.length > 0 &&
      prefixes.every((p) => isNonEmptyString(p) && p.startsWith('/') && !p.endsWith('/')),
    `${where}.prefixes must be a list of paths like "/services/x"`,
  );
  const prefixList = prefixes as string[];
  prefixList.forEach((p, j) => checkPlain(p, `${where}.prefixes[${j}]`, true));
  check(Array.isArray(routes) && routes.length > 0, `${where}.routes must be a non-empty list`);
  const parsed = routes.map((route, j) => parseRoute(route, `${where}.routes[${j}]`, prefixList));
  const seen = new Set<string>();
  for (const route of parsed) {
    check(!seen.has(route.path), `the path "${route.path}" is claimed twice`);
    seen.add(route.path);
  }
  check(
    serverIntegrity === undefined ||
      (typeof serverIntegrity === 'string' && SHA256_INTEGRITY.test(serverIntegrity)),
    `${where}.serverIntegrity must be "sha256-" and the base64 of a SHA-256 digest`,
  );
  check(
    files === undefined ||
      (isObject(files) &&
        Object.keys(files).length <= MAX_PINNED_FILES &&
        Object.entries(files).every(
          ([path, pin]) => PINNED_PATH.test(path) && SHA384_INTEGRITY.test(pin as string),
        )),
    `${where}.files is not a map of pins`,
  );
  if (pages !== undefined) {
    check(
      isObject(pages) &&
        Object.entries(pages).every(
          ([prefix, count]) =>
            prefixList.includes(prefix) &&
            Number.isSafeInteger(count) &&
            (count as number) >=
              parsed.filter((x) => prefixOf(prefixList, x.path) === prefix).length,
        ),
      `${where}.pages must count each prefix's pages, at least those listed`,
    );
  }
  return {
    name,
    entry,
    version,
    prefixes: prefixList,
    routes: parsed,
    ...(serverIntegrity === undefined ? {} : { serverIntegrity }),
    ...(files === undefined ? {} : { files: files as Record<string, string> }),
    ...(pages === undefined ? {} : { pages: pages as Record<string, number> }),
  };
}

const overlaps = (a: string, b: string) =>
  a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);

/** Why a parsed remote cannot join the others, if it cannot: a name, prefix or path already taken. */
function conflict(remote: RemoteDeployment, others: RemoteDeployment[]): string | undefined {
  for (const other of others) {
    if (other.name === remote.name) return `remote "${remote.name}" is listed twice`;
    for (const prefix of remote.prefixes) {
      const taken = other.prefixes.find((p) => overlaps(p, prefix));
      if (taken) return `the prefix "${prefix}" overlaps "${taken}" of remote "${other.name}"`;
    }
    for (const route of remote.routes) {
      if (other.routes.some((r) => r.path === route.path)) {
        return `the path "${route.path}" is claimed twice (also by remote "${other.name}")`;
      }
    }
  }
  return undefined;
}

function parseTop(value: unknown): unknown[] {
  check(isObject(value), 'the manifest is not a JSON object');
  check(value.schemaVersion === 1, 'the manifest has an unknown schemaVersion (expected 1)');
  check(Array.isArray(value.remotes), 'the manifest has no "remotes" list');
  return value.remotes;
}

const generatedAt = (value: unknown): string =>
  isObject(value) && typeof value.generatedAt === 'string' ? value.generatedAt : '';

/**
 * Validates an untrusted manifest and returns it typed; any problem is an error. This is the check
 * a new manifest must pass before it goes live. Hand-written rather than a schema library so that
 * validating it costs the first page load next to nothing.
 */
export function parseManifest(value: unknown): DeploymentManifest {
  const remotes: RemoteDeployment[] = [];
  parseTop(value).forEach((r, i) => {
    const remote = parseRemote(r, `remotes[${i}]`);
    const problem = conflict(remote, remotes);
    if (problem) throw new ManifestError(problem);
    remotes.push(remote);
  });
  return { schemaVersion: 1, generatedAt: generatedAt(value), remotes };
}

/**
 * Reads a live manifest entry by entry: an entry that does not parse, or that claims a name,
 * prefix or path an earlier entry has, is set aside with the reason, so one bad entry spoils only
 * its own group (whose pages show as unavailable), never the site. Only a manifest that is not a
 * manifest at all is an error.
 */
export function readManifest(value: unknown): DeploymentManifest {
  return readManifestEntries(value).manifest;
}

/** `readManifest`, and for each remote read, the index of its entry in the `remotes` list. */
export function readManifestEntries(value: unknown): {
  manifest: DeploymentManifest;
  entries: number[];
} {
  const remotes: RemoteDeployment[] = [];
  const entries: number[] = [];
  const unavailable: UnavailableRemote[] = [];
  parseTop(value).forEach((r, i) => {
    const name = isObject(r) && isGroupName(r.name) ? r.name : `remotes[${i}]`;
    const prefixes =
      isObject(r) && Array.isArray(r.prefixes) ? r.prefixes.filter(isPlainPrefix) : [];
    try {
      const remote = parseRemote(r, `remotes[${i}]`);
      const problem = conflict(remote, remotes);
      if (problem) throw new ManifestError(problem);
      remotes.push(remote);
      entries.push(i);
    } catch (error) {
      // A group whose prefixes another group owns cannot be marked there without harming it.
      const free = prefixes.filter(
        (p) => !remotes.some((o) => o.prefixes.some((q) => overlaps(p, q))),
      );
      unavailable.push({
        name,
        prefixes: free,
        reason: String(error instanceof Error ? error.message : error),
      });
    }
  });
  return {
    manifest: { schemaVersion: 1, generatedAt: generatedAt(value), remotes, unavailable },
    entries,
  };
}
