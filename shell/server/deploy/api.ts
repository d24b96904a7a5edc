/**
 * The deploy API: how a page-group team publishes its remote's entry in the live manifest, and only
 * that entry, in the spirit of single-spa's import-map-deployer, with more checked before anything
 * goes live.
 *
 *   GET  /_deploy/manifest                     { version, manifest }
 *   GET  /_deploy/history[?remote=name]        every change: who, when, from, to, why
 *   PUT  /_deploy/remotes/:name                { base, entry, version, reason, by }
 *   POST /_deploy/remotes/:name/rollback       { base, to?, reason, by }
 *
 * Every call needs `Authorization: Bearer <DEPLOY_TOKEN>`. `base` is the manifest version the
 * team's change was made against: if the live manifest has moved on, the answer is 409 and nothing
 * changes (compare-and-swap). Before an entry goes live its route table is fetched from the entry's
 * own origin and read with the browser's parser, its paths must stay in its prefixes and clear of
 * every other group's, the shared packages it needs must be provided by the live shell, and every
 * one of its pages must render on the server. Any failure leaves the live manifest as it was and
 * the answer says why.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import semver from 'semver';
import type { DeploymentManifest, RouteTable } from '@site/shared/contracts';
import type { LiveManifest } from '../manifest-store';
import { History, rollbackTarget, type HistoryEntry } from './history';
import { RefusedError, patchManifest, type PublishedEntry } from './patch';

export interface DeployApiOptions {
  token: string;
  /** Origins entries may point at, e.g. `https://cdn.example.com`. */
  allowedOrigins: readonly string[];
  history: History;
  current(): Promise<LiveManifest>;
  /** Makes a manifest live (atomically) and returns its version. */
  publish(json: Record<string, unknown>): Promise<LiveManifest>;
  /** What the shell provides: package name -> version. */
  providedVersions: Record<string, string>;
  shellPaths: readonly string[];
  /** Renders a page against a manifest; resolves to the failure, if any. */
  renderCheck(manifest: DeploymentManifest, path: string): Promise<string | null>;
  fetchTimeoutMs?: number;
}

const MAX_BODY = 16 * 1024;

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY)
      throw new RefusedError(413, 'too_large', `the request body is over ${MAX_BODY} bytes`);
    chunks.push(chunk);
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
  } catch {
    throw new RefusedError(400, 'bad_json', 'the request body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RefusedError(400, 'bad_json', 'the request body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

const text = (body: Record<string, unknown>, key: string, max = 500): string | undefined => {
  const value = body[key];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || value.length > max || /\p{Cc}/u.test(value)) {
    throw new RefusedError(
      400,
      'bad_field',
      `"${key}" must be a line of text of at most ${max} characters`,
    );
  }
  return value;
};

export function createDeployApi(options: DeployApiOptions) {
  const tokenDigest = digest(options.token);
  const allowed = new Set(options.allowedOrigins.map((o) => new URL(o).origin));
  let queue: Promise<unknown> = Promise.resolve();
  const timeout = options.fetchTimeoutMs ?? 5000;

  function authorize(req: http.IncomingMessage): void {
    const header = String(req.headers.authorization ?? '');
    const given = /^Bearer (.+)$/.exec(header)?.[1] ?? '';
    // Digests of equal length, compared in constant time: the answer's timing tells nothing.
    if (!given || !timingSafeEqual(digest(given), tokenDigest)) {
      throw new RefusedError(
        401,
        'unauthorized',
        'a valid deploy token is needed (Authorization: Bearer <token>)',
      );
    }
  }

  async function fetchJson(url: string, what: string): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(timeout) });
    } catch (error) {
      throw new RefusedError(
        422,
        'unreachable',
        `${what} could not be fetched from ${url} (${String(error)})`,
      );
    }
    if (!response.ok) {
      throw new RefusedError(
        422,
        'unreachable',
        `${what} at ${url} answered HTTP ${response.status}`,
      );
    }
    try {
      return await response.json();
    } catch {
      throw new RefusedError(422, 'invalid_entry', `${what} at ${url} is not valid JSON`);
    }
  }

  /** The shared packages the new version needs that the live shell does not provide. */
  async function checkShared(entry: string): Promise<void> {
    const manifest = (await fetchJson(
      new URL('mf-manifest.json', entry).href,
      'the federation manifest',
    )) as {
      shared?: { name?: string; requiredVersion?: string }[];
    };
    const missing: string[] = [];
    for (const { name, requiredVersion } of manifest.shared ?? []) {
      if (!name || !requiredVersion) continue;
      const provided = options.providedVersions[name];
      if (provided === undefined) {
        missing.push(`${name} ${requiredVersion} (the shell provides none)`);
      } else if (!semver.satisfies(provided, requiredVersion)) {
        missing.push(`${name} ${requiredVersion} (the shell provides ${provided})`);
      }
    }
    if (missing.length) {
      throw new RefusedError(
        422,
        'shared_not_provided',
        `this version needs ${missing.join(', ')}: deploy a shell that provides ${missing.length > 1 ? 'them' : 'it'} first`,
      );
    }
  }

  /** Runs every check on a new entry and makes it live, or throws without changing anything. */
  async function publish(
    published: PublishedEntry,
    change: { base: string; reason: string; by: string; action: HistoryEntry['action'] },
  ) {
    if (!/^[a-z][a-z0-9_]*$/.test(published.name)) {
      throw new RefusedError(400, 'bad_field', 'the remote name must be a snake_case identifier');
    }
    if (!semver.valid(published.version)) {
      throw new RefusedError(400, 'bad_field', `"${published.version}" is not a semantic version`);
    }
    let url: URL;
    try {
      url = new URL(published.entry);
    } catch {
      throw new RefusedError(400, 'bad_field', `"${published.entry}" is not a URL`);
    }
    if (!/^https?:$/.test(url.protocol) || !allowed.has(url.origin)) {
      throw new RefusedError(
        403,
        'origin_not_allowed',
        `entries may point only at ${[...allowed].join(', ') || 'no origin (none is configured)'}; not at ${url.origin}`,
      );
    }
    const before = await options.current();
    if (change.base !== before.version) {
      throw new RefusedError(
        409,
        'stale_base',
        `the live manifest is at version ${before.version}, not ${change.base}: read it again and retry`,
      );
    }
    const table = (await fetchJson(
      new URL('routes.json', url).href,
      'the route table',
    )) as RouteTable;
    const { json, remote } = patchManifest(
      JSON.parse(before.text),
      published,
      table,
      options.shellPaths,
    );
    await checkShared(url.href);
    const candidate = {
      ...before.manifest,
      remotes: [...before.manifest.remotes.filter((r) => r.name !== remote.name), remote],
    };
    for (const route of remote.routes) {
      const failure = await options.renderCheck(candidate, route.path);
      if (failure) {
        throw new RefusedError(
          422,
          'render_failed',
          `the page ${route.path} could not be rendered: ${failure}`,
        );
      }
    }
    // Compare and swap: nothing else may have gone live while the checks ran.
    const now = await options.current();
    if (now.version !== before.version) {
      throw new RefusedError(
        409,
        'stale_base',
        `the live manifest changed to ${now.version} while this deploy was checked: retry`,
      );
    }
    const previous = before.manifest.remotes.find((r) => r.name === remote.name);
    const after = await options.publish(json);
    const entry: HistoryEntry = {
      at: new Date().toISOString(),
      by: change.by,
      action: change.action,
      remote: remote.name,
      from: previous ? { version: previous.version, entry: previous.entry } : null,
      to: { version: remote.version, entry: remote.entry },
      reason: change.reason,
      manifestVersion: after.version,
    };
    await options.history.append(entry);
    return entry;
  }

  /** One deploy at a time: each sees the manifest the previous one left. */
  function serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  }

  async function route(req: http.IncomingMessage, urlPath: string, query: URLSearchParams) {
    authorize(req);
    if (req.method === 'GET' && urlPath === '/_deploy/manifest') {
      const live = await options.current();
      return {
        status: 200,
        body: { version: live.version, manifest: JSON.parse(live.text) as unknown },
      };
    }
    if (req.method === 'GET' && urlPath === '/_deploy/history') {
      return {
        status: 200,
        body: { history: await options.history.read(query.get('remote') ?? undefined) },
      };
    }
    const match = /^\/_deploy\/remotes\/([^/]+)(\/rollback)?$/.exec(urlPath);
    if (match && ((req.method === 'PUT' && !match[2]) || (req.method === 'POST' && match[2]))) {
      const name = decodeURIComponent(match[1] ?? '');
      const body = await readJson(req);
      const base = text(body, 'base', 100);
      if (!base) {
        throw new RefusedError(
          428,
          'base_required',
          '"base" (the manifest version this change was made against) is required',
        );
      }
      const by = text(body, 'by', 100) ?? 'unknown';
      const reason = text(body, 'reason') ?? '';
      if (!match[2]) {
        const entry = text(body, 'entry', 2000);
        const version = text(body, 'version', 100);
        if (!entry || !version)
          throw new RefusedError(400, 'bad_field', '"entry" and "version" are required');
        const done = await serialized(() =>
          publish(
            { name, entry, version },
            { base, reason: reason || `deploy ${version}`, by, action: 'deploy' },
          ),
        );
        return { status: 200, body: done };
      }
      const to = text(body, 'to', 100);
      const done = await serialized(async () => {
        const live = await options.current();
        const current = live.manifest.remotes.find((r) => r.name === name)?.version;
        const target = rollbackTarget(await options.history.read(name), current, to);
        if (!target) {
          throw new RefusedError(
            404,
            'no_such_version',
            to
              ? `"${name}" has never been live at ${to}`
              : `"${name}" has no earlier version in the history`,
          );
        }
        return publish(
          { name, entry: target.entry, version: target.version },
          { base, reason: reason || `roll back to ${target.version}`, by, action: 'rollback' },
        );
      });
      return { status: 200, body: done };
    }
    throw new RefusedError(404, 'not_found', `no deploy API call ${req.method ?? ''} ${urlPath}`);
  }

  /** Answers a request under `/_deploy/`. */
  return async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    let status: number;
    let body: unknown;
    try {
      ({ status, body } = await route(req, url.pathname, url.searchParams));
    } catch (error) {
      if (!(error instanceof RefusedError)) throw error;
      status = error.status;
      body = { error: error.code, message: error.message };
    }
    const payload = JSON.stringify(body, null, 2);
    res.writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(payload),
      'Cache-Control': 'no-store',
      ...(status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {}),
    });
    res.end(payload);
  };
}
