/**
 * A page-group team's deploy and rollback, run from the group's workspace (usage and settings:
 * scripts/lib/deploy-settings.ts, or `npm run deploy -w mfe-<group> -- --help`).
 *
 * Deploy builds the group if its version folder is not built, makes the folder available at the
 * group's origin and publishes its entry through the site's deploy API, which checks it before it
 * goes live. A version's contents are fixed once built: a folder built from other sources than the
 * workspace holds now, or a version the origin already holds with other contents, is refused
 * before anything is uploaded or published (scripts/lib/fixed-versions.ts). Rollback goes back
 * through the same API, from the manifest's history: nothing is built and no other group is needed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {
  CanaryFigures,
  CanaryStatusAnswer,
  HistoryEntry,
  ManifestAnswer,
  PreviewAnswer,
  Refusal,
  Release,
} from '@site/contracts/deploy-api';
import { sha256Integrity } from '@site/contracts/integrity';
import { SITE_REMOTES } from '@site/contracts/site';
import { sourcesDigest } from '@site/build/webpack/build-record';
import {
  LOCAL_TOKENS,
  SettingsError,
  USAGE,
  deployTimeoutMs,
  httpUrl,
  isSemver,
  localToken,
  parseDeployArgs,
  type DeployArgs,
} from './lib/deploy-settings';
import {
  OriginError,
  inspectFolder,
  probeOrigin,
  publishedReason,
  rebuildReason,
  staleReason,
} from './lib/fixed-versions';

const root = path.join(__dirname, '..');

function fail(message: string): never {
  console.error(`deploy: ${message}`);
  process.exit(1);
}

/** The answer of a change whose outcome the site did not say: the connection or the server was lost. */
class LostAnswer extends Error {}

/** No answer to a change before its deadline: it did not go live by then, and never will after. */
class NoAnswerInTime extends LostAnswer {}

/** DEPLOY_TIMEOUT, read once `settings()` has checked it. */
let timeLimitMs = 60_000;

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

/**
 * A call of the deploy API: its answer (a type of @site/contracts/deploy-api), or the command ends
 * with the refusal. A change carries the moment this command stops waiting for it as its deadline
 * (DEPLOY_TIMEOUT from now): no site server makes it live after that, so once the command has
 * waited that long, the live manifest says for good whether it went live.
 */
async function call<T>(
  api: string,
  token: string,
  method: string,
  route: string,
  body?: Record<string, unknown>,
): Promise<T> {
  const deadline = new Date(Date.now() + timeLimitMs);
  const sent = method === 'GET' || !body ? body : { ...body, deadline: deadline.toISOString() };
  let response: Response;
  let answer: T & Partial<Refusal>;
  try {
    response = await fetch(`${api}${route}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      ...(sent === undefined ? {} : { body: JSON.stringify(sent) }),
      // The answer to a change made just before its deadline still has a moment to arrive.
      signal: AbortSignal.timeout(timeLimitMs + 1000),
    });
    answer = (await response.json().catch((error: unknown) => {
      if (error instanceof Error && error.name === 'TimeoutError') throw error;
      return {};
    })) as T & Partial<Refusal>;
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    if (method !== 'GET') {
      if (timedOut) {
        throw new NoAnswerInTime(
          `the site gave no answer within ${seconds(timeLimitMs)} (DEPLOY_TIMEOUT), and the change's deadline ${deadline.toISOString()} has passed`,
        );
      }
      throw new LostAnswer(String((error as Error).cause ?? error));
    }
    fail(
      timedOut
        ? `the site's deploy API at ${api} gave no answer within ${seconds(timeLimitMs)} (DEPLOY_TIMEOUT)`
        : `the site's deploy API at ${api} could not be reached (${String(error)})`,
    );
  }
  // A gateway's own error (the site server behind it stopped mid-call) says nothing of the change.
  if (method !== 'GET' && !answer.error && [502, 503, 504].includes(response.status)) {
    throw new LostAnswer(`HTTP ${response.status} from ${api}`);
  }
  if (!response.ok) {
    fail(
      `refused (HTTP ${response.status}${answer.error ? `, ${answer.error}` : ''}): ${answer.message ?? 'no reason given'}`,
    );
  }
  return answer;
}

/** What happened to a change whose answer was lost, in the words the command prints. */
const lostHow = (lost: LostAnswer) =>
  lost instanceof NoAnswerInTime
    ? lost.message
    : `the site server stopped before it answered (${lost.message})`;

/**
 * A change whose answer was lost: the live manifest says whether it went live (a change is one
 * compare-and-swap, so it is all there or not at all). Asked again for a while, as the load
 * balancer moves on to a live site server.
 */
async function settle(
  api: string,
  token: string,
  name: string,
  base: string,
  target: { version: string; entry?: string },
  lost: LostAnswer,
): Promise<never> {
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      const response = await fetch(`${api}/_deploy/manifest`, {
        headers: { Authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(10_000),
      });
      if (response.ok) {
        const live = (await response.json()) as ManifestAnswer;
        const entry = live.manifest.remotes?.find((r) => r.name === name);
        const applied =
          live.version !== base &&
          entry?.version === target.version &&
          (target.entry === undefined || entry.entry === target.entry);
        if (applied) {
          console.log(
            `${lostHow(lost)}, but the change is live: ${name} ${target.version}; live manifest ${live.version}`,
          );
          process.exit(0);
        }
        fail(
          `${lostHow(lost)} and the change did not go live${lost instanceof NoAnswerInTime ? ' (and never will: no site server makes it live after its deadline)' : ''}: ${name} is ${entry?.version ?? 'not deployed'} in live manifest ${live.version}; run the command again`,
        );
      }
    } catch {
      // No site server answers yet.
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  fail(
    `${lostHow(lost)} and none answers now: whether the change went live is unknown; read it with GET ${api}/_deploy/manifest`,
  );
}

/** The workspace and the environment, checked; a setting that cannot be used ends it here. */
function settings(args: DeployArgs, workspace = process.cwd()) {
  const pkgFile = path.join(workspace, 'package.json');
  const tableFile = path.join(workspace, 'src', 'routes.json');
  if (!existsSync(pkgFile) || !existsSync(tableFile)) {
    throw new SettingsError(
      workspace === process.cwd()
        ? 'run it for a page group: npm run deploy -w mfe-<group>'
        : `${path.basename(workspace)} is not a page group's workspace`,
    );
  }
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { name: string; version: string };
  if (typeof pkg.version !== 'string' || !isSemver(pkg.version)) {
    throw new SettingsError(`the version in ${pkgFile} is not a semantic version such as 1.2.0`);
  }
  const { remote: name } = JSON.parse(readFileSync(tableFile, 'utf8')) as { remote: string };
  const port = SITE_REMOTES.find((r) => r.name === name)?.port;
  const originVar = `REMOTE_${name.toUpperCase()}_URL`;
  const origin = httpUrl(originVar, process.env[originVar] ?? `http://localhost:${port ?? 3010}`);
  const api = httpUrl('DEPLOY_API', process.env.DEPLOY_API ?? 'http://localhost:3000');
  timeLimitMs = deployTimeoutMs(process.env.DEPLOY_TIMEOUT);
  return {
    args,
    workspace,
    pkg,
    name,
    origin,
    api,
    by: process.env.DEPLOY_BY || os.userInfo().username,
    upload: process.env.DEPLOY_UPLOAD,
  } as const;
}

type Settings = ReturnType<typeof settings>;

function build(workspace: string, name: string, version: string): void {
  console.log(`building ${name} ${version}…`);
  const built = spawnSync('npm', ['run', 'build'], { cwd: workspace, stdio: 'inherit' });
  if (built.status !== 0) fail('the build failed');
}

/**
 * Makes the version folder the origin serves the one built from the workspace's sources now, or
 * stops with the reason. Returns the SHA-256 pin of its Node build.
 */
async function prepare(s: Settings): Promise<string> {
  const { workspace, pkg, name, origin } = s;
  const { version } = pkg;
  const folder = path.join(workspace, 'dist', version);
  let sources: string;
  try {
    sources = sourcesDigest(workspace);
  } catch (error) {
    fail(
      `cannot tell what ${name} ${version} is built from (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const about = { pkg: pkg.name, version, origin };

  const copy = await probeOrigin(origin, version);
  const local = inspectFolder(folder, version, sources);
  if (s.args.rebuild) {
    if (copy.held) fail(rebuildReason(about));
    rmSync(folder, { recursive: true, force: true });
    build(workspace, name, version);
  } else if (local.state === 'missing') {
    build(workspace, name, version);
  } else if (local.state === 'stale') {
    fail(staleReason(local, { ...about, held: copy.held }));
  }
  const built = inspectFolder(folder, version, sources);
  if (built.state !== 'built') {
    fail(`the build of ${name} ${version} left no build record in ${folder}: build it again`);
  }
  const refused = publishedReason(copy, built.record, about);
  if (refused) fail(refused);

  if (s.upload) {
    const uploaded = spawnSync(`${s.upload} ${JSON.stringify(folder)}`, {
      shell: true,
      stdio: 'inherit',
    });
    if (uploaded.status !== 0) fail(`the upload (${s.upload}) failed`);
  }
  const entry = `${origin}/${version}/remoteEntry.js`;
  const served = await fetch(entry).then(
    (r) => r.ok,
    () => false,
  );
  if (!served) {
    fail(
      `${entry} is not served: start the site with npm start (it serves each group's dist/), or set DEPLOY_UPLOAD to upload the folder to ${origin}`,
    );
  }
  // What goes live is what the origin serves: it must be this build, file for file.
  const now = await probeOrigin(origin, version);
  if (!now.held || !now.record || publishedReason(now, built.record, about)) {
    fail(
      `${origin}/${version}/ does not serve ${path.join('dist', version)} as built (its build record differs): check the upload`,
    );
  }
  return sha256Integrity(readFileSync(path.join(folder, 'server', 'pages.js')));
}

function printRelease(verb: string, done: Release): void {
  console.log(`${verb} ${done.release}: live manifest ${done.manifestVersion}`);
  for (const c of done.changes) {
    console.log(`  ${c.remote}: ${c.from?.version ?? 'not deployed'} -> ${c.to.version}`);
  }
}

/**
 * This group and the `--with` groups in one release: each is prepared exactly as its own deploy
 * would be (built if needed, checked as fixed, uploaded), then all are published in one call.
 */
async function release(s: Settings, others: string[]): Promise<void> {
  const token = releaseToken();
  const all = [s];
  for (const folder of others) {
    let other: Settings;
    try {
      other = settings(s.args, path.join(root, folder));
    } catch (error) {
      if (!(error instanceof SettingsError)) throw error;
      console.error(`deploy: ${error.message} (see --help)`);
      process.exit(2);
    }
    if (all.some((a) => a.name === other.name)) fail(`${folder} is named twice`);
    all.push(other);
  }
  const entries = [];
  for (const group of all) {
    let serverIntegrity: string;
    try {
      serverIntegrity = await prepare(group);
    } catch (error) {
      if (!(error instanceof OriginError)) throw error;
      fail(`${error.message}: check REMOTE_${group.name.toUpperCase()}_URL`);
    }
    entries.push({
      name: group.name,
      entry: `${group.origin}/${group.pkg.version}/remoteEntry.js`,
      version: group.pkg.version,
      serverIntegrity,
    });
  }
  const { version: base } = await call<ManifestAnswer>(s.api, token, 'GET', '/_deploy/manifest');
  console.log(
    `publishing ${entries.map((e) => `${e.name} ${e.version}`).join(', ')} as one release through ${s.api}: the site checks every group, then makes all of them live or none…`,
  );
  let done: Release;
  try {
    done = await call<Release>(s.api, token, 'POST', '/_deploy/releases', {
      base,
      entries,
      by: s.by,
      ...(s.args.reason ? { reason: s.args.reason } : {}),
      ...(s.args.canary === undefined ? {} : { canary: s.args.canary }),
      ...(s.args.plan ? { plan: s.args.plan } : {}),
    });
  } catch (error) {
    if (!(error instanceof LostAnswer)) throw error;
    fail(
      `${lostHow(error)}: read GET ${s.api}/_deploy/history to see whether the release went live (all of it or none)`,
    );
  }
  printRelease(
    s.args.canary === undefined ? 'released' : `canaries for ${s.args.canary}% of visits, released`,
    done,
  );
}

/**
 * A release changes several groups, so it needs a token valid for every one of them: DEPLOY_TOKEN
 * (the operator makes one: npm run deploy-token -- --group a --group b), else, on a checkout
 * running its own site, the operator token npm start made.
 */
function releaseToken(): string {
  const token = process.env.DEPLOY_TOKEN ?? localToken(root, LOCAL_TOKENS.operator);
  if (!token) {
    fail(
      `a release of several groups needs a token valid for each of them: set DEPLOY_TOKEN (the site's operator makes one: npm run deploy-token -- --group <name> --group <other>); there is no ${LOCAL_TOKENS.operator} either`,
    );
  }
  return token;
}

async function rollbackRelease(s: Settings, id: string): Promise<void> {
  const token = releaseToken();
  const { version: base } = await call<ManifestAnswer>(s.api, token, 'GET', '/_deploy/manifest');
  let done: Release;
  try {
    done = await call<Release>(s.api, token, 'POST', `/_deploy/releases/${id}/rollback`, {
      base,
      by: s.by,
      ...(s.args.reason ? { reason: s.args.reason } : {}),
    });
  } catch (error) {
    if (!(error instanceof LostAnswer)) throw error;
    fail(
      `${lostHow(error)}: read GET ${s.api}/_deploy/history to see whether the rollback went live`,
    );
  }
  printRelease(`rolled back release ${id} with release`, done);
}

const rate = (f: CanaryFigures) =>
  `${f.errors} failed of ${f.views} views${f.rate === null ? '' : ` (${(f.rate * 100).toFixed(2)} %)`}`;

/** The group's canary as the site judges it: read only. */
async function printStatus(api: string, token: string, name: string): Promise<void> {
  const { canaries, ended } = await call<CanaryStatusAnswer>(
    api,
    token,
    'GET',
    '/_deploy/canaries',
  );
  const canary = canaries.find((c) => c.group === name);
  if (!canary) {
    const last = ended.find((d) => d.group === name);
    console.log(
      `no canary of ${name} is running${last ? `; the last one, ${last.version}, was judged ${last.outcome} at ${last.at}: ${last.reason}` : ''}`,
    );
    return;
  }
  const { judgment: j } = canary;
  console.log(
    [
      `canary ${name} ${canary.version} for ${canary.percent}% of visits beside ${canary.stableVersion}, since ${canary.since}`,
      `  canary: ${rate(canary.canary)}`,
      `  stable: ${rate(canary.stable)}`,
      `  judged over ${j.windowSeconds} s: rolled back when surely over the stable rate + ${(j.maxErrorRate * 100).toFixed(2)} points, on ${j.minViews} views at least`,
      canary.steps.length
        ? `  next: ${canary.steps.map((p) => (p === 100 ? 'promote' : `${p}%`)).join(', ')}${canary.nextStepAt ? ` (the next one due at ${canary.nextStepAt}, if healthy)` : ''}`
        : '  no steps: npm run deploy -- --promote makes it live for everyone',
      canary.decision
        ? `  last decision: ${canary.decision.outcome} at ${canary.decision.at}: ${canary.decision.reason}`
        : '  not judged yet',
    ].join('\n'),
  );
}

async function main(): Promise<void> {
  let s: Settings;
  try {
    const parsed = parseDeployArgs(process.argv.slice(2));
    if (parsed.help) {
      console.log(USAGE);
      return;
    }
    s = settings(parsed);
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    console.error(`deploy: ${error.message} (see --help)`);
    process.exit(2);
  }
  const { args, name, pkg, api, by } = s;
  const reason = args.reason;

  if (args.rollback && args.release) return rollbackRelease(s, args.release);
  if (args.with.length) return release(s, args.with);

  // The group's own token: it can change this group and no other.
  const token = process.env.DEPLOY_TOKEN ?? localToken(root, LOCAL_TOKENS.group(name));
  if (!token) {
    console.error(
      `deploy: no DEPLOY_TOKEN, and no ${LOCAL_TOKENS.group(name)} (npm start writes one per group; for another site, its operator makes ${name}'s: npm run deploy-token -- --group ${name}) (see --help)`,
    );
    process.exit(2);
  }
  if (args.status) return printStatus(api, token, name);

  let done: HistoryEntry;
  if (args.rollback) {
    const { version: base } = await call<ManifestAnswer>(api, token, 'GET', '/_deploy/manifest');
    try {
      done = await call<HistoryEntry>(api, token, 'POST', `/_deploy/remotes/${name}/rollback`, {
        base,
        by,
        ...(args.to ? { to: args.to } : {}),
        ...(reason ? { reason } : {}),
      });
    } catch (error) {
      if (!(error instanceof LostAnswer)) throw error;
      if (!args.to) {
        fail(
          `${lostHow(error)}: read GET ${api}/_deploy/history?remote=${name} to see whether the rollback went live`,
        );
      }
      return settle(api, token, name, base ?? '', { version: args.to }, error);
    }
  } else {
    let serverIntegrity: string;
    try {
      serverIntegrity = await prepare(s);
    } catch (error) {
      if (!(error instanceof OriginError)) throw error;
      fail(
        `${error.message}: check REMOTE_${name.toUpperCase()}_URL, or start the site with npm start (it serves each group's dist/)`,
      );
    }
    const { version: base } = await call<ManifestAnswer>(api, token, 'GET', '/_deploy/manifest');
    const entry = `${s.origin}/${pkg.version}/remoteEntry.js`;
    if (args.canary !== undefined) {
      const started = await call<HistoryEntry>(api, token, 'PUT', `/_deploy/remotes/${name}`, {
        base,
        entry,
        version: pkg.version,
        serverIntegrity,
        by,
        canary: args.canary,
        ...(args.plan ? { plan: args.plan } : {}),
        ...(reason ? { reason } : {}),
      });
      const steps = args.plan?.steps
        ? `; the site raises it to ${args.plan.steps.join('%, ').replace(/100$/, 'everyone')} while it stays healthy`
        : `\nnpm run deploy -w ${pkg.name} -- --promote makes it live for everyone`;
      console.log(
        `canary ${name} ${pkg.version} live for ${args.canary}% of visits beside ${started.from?.version}; live manifest ${started.manifestVersion}${steps}\nnpm run deploy -w ${pkg.name} -- --status shows how it is judged; npm run rollback -w ${pkg.name} ends it (the site rolls it back by itself when it judges it failing)`,
      );
      return;
    }
    if (args.preview) {
      const shown = await call<PreviewAnswer>(api, token, 'PUT', `/_deploy/remotes/${name}`, {
        base,
        entry,
        version: pkg.version,
        serverIntegrity,
        by,
        preview: true,
      });
      console.log(
        `preview of ${name} ${pkg.version} (every check passed; live for no one): ${shown.preview?.url}\nthe link works until ${shown.preview?.expiresAt}; npm run deploy -w ${pkg.name} -- --promote makes it live`,
      );
      return;
    }
    console.log(
      `publishing ${name} ${pkg.version} through ${api}: the site checks it, then makes it live…`,
    );
    try {
      done = await call<HistoryEntry>(api, token, 'PUT', `/_deploy/remotes/${name}`, {
        base,
        entry,
        version: pkg.version,
        serverIntegrity,
        by,
        ...(reason ? { reason } : args.promote ? { reason: `promote ${pkg.version}` } : {}),
      });
    } catch (error) {
      if (!(error instanceof LostAnswer)) throw error;
      return settle(api, token, name, base ?? '', { version: pkg.version, entry }, error);
    }
  }
  const from = done.from ? `${done.from.version} (${done.from.entry})` : 'not deployed';
  console.log(
    `${args.rollback ? 'rolled back' : 'deployed'} ${name}: ${from} -> ${done.to?.version} (${done.to?.entry}); live manifest ${done.manifestVersion}`,
  );
}

void main();
