import { DESCRIPTION_MAX, DESCRIPTION_MIN, type RouteMeta } from './routes';

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
}

/** The deployment manifest served beside the shell as `/remotes.json`. */
export interface DeploymentManifest {
  schemaVersion: 1;
  generatedAt: string;
  remotes: RemoteDeployment[];
}

export class ManifestError extends Error {
  override name = 'ManifestError';
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const isNonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new ManifestError(message);
}

/**
 * A share card's path: relative to the version folder and inside it (no scheme, no leading slash,
 * no `.` or `..` segment, nothing a URL would read as a query or fragment), and a PNG.
 */
const isCardPath = (v: string): boolean =>
  /^[a-z0-9][a-z0-9_.-]*(\/[a-z0-9][a-z0-9_.-]*)*\.png$/i.test(v) && !v.split('/').includes('..');

function parseRoute(value: unknown, where: string, prefixes: string[]): RouteMeta {
  check(isObject(value), `${where} is not an object`);
  const { path, title, description, group, navLabel, image } = value;
  check(isNonEmptyString(path) && path.startsWith('/'), `${where}.path must start with "/"`);
  check(
    prefixes.some((p) => path === p || path.startsWith(`${p}/`)),
    `${where}.path "${path}" is outside the remote's prefixes`,
  );
  check(isNonEmptyString(title), `${where}.title is missing`);
  check(
    typeof description === 'string' &&
      description.length >= DESCRIPTION_MIN &&
      description.length <= DESCRIPTION_MAX,
    `${where}.description must be ${DESCRIPTION_MIN} to ${DESCRIPTION_MAX} characters`,
  );
  check(isNonEmptyString(group), `${where}.group is missing`);
  check(isNonEmptyString(navLabel), `${where}.navLabel is missing`);
  if (image === undefined) return { path, title, description, group, navLabel };
  check(
    typeof image === 'string' && isCardPath(image),
    `${where}.image must be a .png path inside the remote's folder, like "share/page.png"`,
  );
  return { path, title, description, group, navLabel, image };
}

/**
 * Validates an untrusted manifest (fetched JSON) and returns it typed. Hand-written rather than a
 * schema library so that validating it costs the first page load next to nothing.
 */
export function parseManifest(value: unknown): DeploymentManifest {
  check(isObject(value), 'the manifest is not a JSON object');
  check(value.schemaVersion === 1, 'the manifest has an unknown schemaVersion (expected 1)');
  check(Array.isArray(value.remotes), 'the manifest has no "remotes" list');
  const names = new Set<string>();
  const paths = new Set<string>();
  const remotes = value.remotes.map((r: unknown, i: number): RemoteDeployment => {
    const where = `remotes[${i}]`;
    check(isObject(r), `${where} is not an object`);
    const { name, entry, version, prefixes, routes } = r;
    check(
      typeof name === 'string' && /^[a-z][a-z0-9_]*$/.test(name),
      `${where}.name must be a snake_case identifier`,
    );
    check(!names.has(name), `remote "${name}" is listed twice`);
    names.add(name);
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
    check(Array.isArray(routes) && routes.length > 0, `${where}.routes must be a non-empty list`);
    const parsed = routes.map((route, j) => parseRoute(route, `${where}.routes[${j}]`, prefixList));
    for (const route of parsed) {
      check(!paths.has(route.path), `the path "${route.path}" is claimed twice`);
      paths.add(route.path);
    }
    return { name, entry, version, prefixes: prefixList, routes: parsed };
  });
  return {
    schemaVersion: 1,
    generatedAt: typeof value.generatedAt === 'string' ? value.generatedAt : '',
    remotes,
  };
}
