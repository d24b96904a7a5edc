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
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {
  HistoryEntry,
  ManifestAnswer,
  PreviewAnswer,
  Release,
} from '@site/contracts/deploy-api';
import { SITE_REMOTES } from '@site/contracts/site';
import { prepare } from './lib/deploy-build';
import { LostAnswer, call, lostHow, setTimeLimitMs, settle } from './lib/deploy-client';
import { fail } from './lib/deploy-fail';
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
import { printStatus } from './lib/deploy-status';
import { parseBucket, type BucketSettings } from './lib/bucket';
import { OriginError } from './lib/fixed-versions';

const root = path.join(__dirname, '..');

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
  setTimeLimitMs(deployTimeoutMs(process.env.DEPLOY_TIMEOUT));
  const upload = process.env.DEPLOY_UPLOAD || undefined;
  let bucket: BucketSettings | undefined;
  if (process.env.DEPLOY_BUCKET) {
    if (upload) throw new SettingsError('set DEPLOY_BUCKET or DEPLOY_UPLOAD, not both');
    const parsed = parseBucket(
      process.env.DEPLOY_BUCKET,
      process.env.DEPLOY_S3_ENDPOINT || undefined,
    );
    if ('problem' in parsed) throw new SettingsError(parsed.problem);
    bucket = parsed;
  } else if (process.env.DEPLOY_S3_ENDPOINT) {
    throw new SettingsError('DEPLOY_S3_ENDPOINT is set without DEPLOY_BUCKET');
  }
  return {
    args,
    workspace,
    pkg,
    name,
    origin,
    api,
    by: process.env.DEPLOY_BY || os.userInfo().username,
    upload,
    bucket,
  } as const;
}

export type Settings = ReturnType<typeof settings>;

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
      const why = {
        added: 'the first page this version adds',
        described: 'the first page whose title, description or menu label this version changes',
        rendered: 'the first page this version renders differently',
        first: "the group's first page: this version changes no page's server render",
      }[shown.preview.pageWhy];
      console.log(
        `preview of ${name} ${pkg.version} (every check passed; live for no one): ${shown.preview.url}\nit opens ${shown.preview.page}, ${why}\nthe link works until ${shown.preview.expiresAt}; npm run deploy -w ${pkg.name} -- --promote makes it live`,
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
