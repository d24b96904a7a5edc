/**
 * The settings of a team's deploy and rollback (scripts/deploy.ts), read from its command line and
 * its environment, each checked before anything is built, uploaded or published.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readArgs } from './args';
import { MAX_CANARY_PERCENT } from '@site/contracts/deploy-api';
import {
  CANARY_JUDGMENT_DEFAULTS,
  canaryPlanProblem,
  parseDuration,
  type CanaryPlan,
} from '@site/contracts/canary-plan';

export const USAGE = `usage: npm run deploy -w mfe-<group> [-- --reason "<why>"] [-- --rebuild]
                                       [-- --with mfe-<other group> ...]
       npm run deploy -w mfe-<group> -- --preview | --canary <percent> | --promote
       npm run deploy -w mfe-<group> -- --canary <percent> [--steps 25,50,100 --interval 10m]
                                       [--max-error-rate 0.02] [--min-views 100] [--window 10m]
       npm run deploy -w mfe-<group> -- --status
       npm run rollback -w mfe-<group> [-- --to <version>] [-- --reason "<why>"]
       npm run rollback -w mfe-<group> -- --release <id>

deploy builds the group's version folder (dist/<version>/, the version in its package.json) if it
is not built, uploads it to the group's origin and publishes it through the site's deploy API. A
version's contents are fixed once built: a folder built from other sources than the workspace holds
now, or a version the origin already holds with other contents, is refused; bump the version.

  --reason <text>   why, kept in the deploy history
  --rebuild         build the version folder again; only for a version the origin does not hold
  --to <version>    rollback: the version to go back to (default: the one live before)
  --preview         deploy: every check, but live for no one: prints a signed link that shows this
                    version of the group to the browser that opens it (and to no one else)
  --canary <pct>    deploy: make the version live for that share of visits (1-50) beside the live
                    one. The site judges it every few seconds from the views it served and the
                    views that failed (a page it could not render, or a browser's report with the
                    token of its view), against the stable version over the window: failing (it is
                    rolled back at once), healthy, or inconclusive (it holds); npm run rollback
                    ends it
  --max-error-rate <share>  canary: how much worse than the stable version's rate of failed views
                    the canary's may be, a share above 0 up to 1 (default: the site's, ${CANARY_JUDGMENT_DEFAULTS.maxErrorRate})
  --min-views <n>   canary: no decision on fewer views of it (default: the site's, ${CANARY_JUDGMENT_DEFAULTS.minViews})
  --window <time>   canary: the counts of this last time are judged, up to 1h (default: the
                    site's, ${CANARY_JUDGMENT_DEFAULTS.windowSeconds / 60}m); a time is 90, 90s, 10m or 1h
  --steps <list>    canary: shares it is raised to while healthy, one every --interval, ending with
                    100 (promoted for everyone): e.g. --steps 25,50,100 --interval 10m
  --status          the group's canary: its share, views, failed views, the stable version's rate,
                    the last decision and why (read-only)
  --promote         deploy: make the version (previewed, or the canary) live for everyone
  --with <group>    deploy: release another group's workspace together with this one (repeat for
                    more): every group is prepared as above, then all go live in one change or
                    none does; the command prints the release's id. With --canary, all go live
                    as canaries together: judged, stepped and rolled back together
  --release <id>    rollback: take a whole release back (every group it changed), in one change
  --help            this text

  REMOTE_<NAME>_URL where the group's version folders are served, an http(s) URL (default: its
                    local server, which npm start runs over the workspace's dist/)
  DEPLOY_BUCKET     s3://<bucket>[/<prefix>]: deploy uploads the version folder there itself (S3's
                    API; content types, cache headers, compressed copies; a stopped upload resumes
                    on the next deploy). Credentials and region: AWS_ACCESS_KEY_ID,
                    AWS_SECRET_ACCESS_KEY, AWS_REGION (or any source the AWS SDK reads)
  DEPLOY_S3_ENDPOINT  with DEPLOY_BUCKET: an S3-compatible store's http(s) URL (default: AWS)
  DEPLOY_UPLOAD     instead of DEPLOY_BUCKET: a command that uploads the version folder (given as its last argument) to that
                    origin, e.g. a bucket sync; unset: the folder must already be served there
  DEPLOY_API        the site, an http(s) URL (default http://localhost:3000)
  DEPLOY_TOKEN      the group's deploy token, which can change only its own group (the site's
                    operator makes it: npm run deploy-token -- --group <name>); a release (--with)
                    needs one for every group it names. Default: the group's token npm start
                    wrote to deploy/.group-tokens/<name>; for a release, the checkout's operator
                    token deploy/.deploy-token
  DEPLOY_BY         who deploys (default: the user name)
  DEPLOY_TIMEOUT    how long the command waits for the site to make a change live, whole seconds
                    5-600 (default 60): the change carries that moment as its deadline and never
                    goes live after it, so the command's answer is true either way`;

/** The command's time limit for one change (DEPLOY_TIMEOUT), in milliseconds. */
export const DEFAULT_DEPLOY_TIMEOUT_S = 60;

export function deployTimeoutMs(value: string | undefined): number {
  const text = value?.trim() ?? '';
  if (text === '') return DEFAULT_DEPLOY_TIMEOUT_S * 1000;
  const seconds = /^\d{1,3}$/.test(text) ? Number(text) : NaN;
  if (!(seconds >= 5 && seconds <= 600)) {
    throw new SettingsError(`DEPLOY_TIMEOUT takes whole seconds from 5 to 600, not "${text}"`);
  }
  return seconds * 1000;
}

/** A setting that cannot be used; the command exits 2 with the message and a pointer to --help. */
export class SettingsError extends Error {
  override name = 'SettingsError';
}

export interface DeployArgs {
  help: boolean;
  rollback: boolean;
  rebuild: boolean;
  reason?: string;
  to?: string;
  /** Workspaces (folder names such as mfe-data) released together with this one. */
  with: string[];
  /** Rollback: the release to take back. */
  release?: string;
  preview: boolean;
  promote: boolean;
  /** Deploy as a canary for this share of visits. */
  canary?: number;
  /** How the canary is judged and stepped (checked by @site/contracts/canary-plan). */
  plan?: CanaryPlan;
  /** Print the group's canary and its figures; change nothing. */
  status?: true;
}

const PLAN_OPTIONS = ['max-error-rate', 'min-views', 'window', 'steps', 'interval'] as const;

/** The canary's plan from its options, checked by the same schema the deploy API checks. */
function planOf(
  values: Partial<Record<(typeof PLAN_OPTIONS)[number], string>>,
  percent: number,
): CanaryPlan | undefined {
  const plan: Record<string, unknown> = {};
  const number = (option: string, text: string) => {
    const n = /^\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : NaN;
    if (Number.isNaN(n)) throw new SettingsError(`--${option} takes a number, not "${text}"`);
    return n;
  };
  const duration = (option: string, text: string) => {
    const seconds = parseDuration(text);
    if (seconds === undefined) {
      throw new SettingsError(`--${option} takes a time such as 90s, 10m or 1h, not "${text}"`);
    }
    return seconds;
  };
  if (values['max-error-rate'] !== undefined) {
    plan.maxErrorRate = number('max-error-rate', values['max-error-rate']);
  }
  if (values['min-views'] !== undefined) plan.minViews = number('min-views', values['min-views']);
  if (values.window !== undefined) plan.windowSeconds = duration('window', values.window);
  if (values.steps !== undefined) {
    plan.steps = values.steps.split(',').map((step) => number('steps', step));
  }
  if (values.interval !== undefined) plan.intervalSeconds = duration('interval', values.interval);
  if (Object.keys(plan).length === 0) return undefined;
  const problem = canaryPlanProblem(plan, percent);
  if (problem) throw new SettingsError(`the canary's plan cannot be used: ${problem}`);
  return plan as CanaryPlan;
}

// https://semver.org/#is-there-a-suggested-regular-expression-regex-to-check-a-semver-string
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

export const isSemver = (value: string): boolean => SEMVER.test(value);

function canaryPercent(value: string): number {
  if (!/^\d{1,2}$/.test(value) || Number(value) < 1 || Number(value) > MAX_CANARY_PERCENT) {
    throw new SettingsError(
      `--canary takes a whole percent of visits from 1 to ${MAX_CANARY_PERCENT}, not "${value}"`,
    );
  }
  return Number(value);
}

/** The command line after the script's name, e.g. `['--reason', 'New page']`. */
export function parseDeployArgs(argv: string[]): DeployArgs {
  let values;
  try {
    values = readArgs(
      argv,
      {
        help: { type: 'boolean', short: 'h' },
        rollback: { type: 'boolean' },
        rebuild: { type: 'boolean' },
        reason: { type: 'string' },
        to: { type: 'string' },
        with: { type: 'string', multiple: true },
        preview: { type: 'boolean' },
        promote: { type: 'boolean' },
        canary: { type: 'string' },
        release: { type: 'string' },
        status: { type: 'boolean' },
        'max-error-rate': { type: 'string' },
        'min-views': { type: 'string' },
        window: { type: 'string' },
        steps: { type: 'string' },
        interval: { type: 'string' },
      },
      {
        to: '1.2.0',
        with: 'mfe-data',
        release: 'r-3f2a9c1b7d4e',
        canary: '10',
        steps: '25,50,100',
        window: '10m',
        interval: '10m',
        'max-error-rate': '0.02',
        'min-views': '100',
        reason: '"New page"',
      },
    );
  } catch (error) {
    throw new SettingsError(error instanceof Error ? error.message : String(error));
  }
  const args: DeployArgs = {
    help: values.help ?? false,
    rollback: values.rollback ?? false,
    rebuild: values.rebuild ?? false,
    ...(values.reason === undefined ? {} : { reason: values.reason }),
    ...(values.to === undefined ? {} : { to: values.to }),
    with: values.with ?? [],
    preview: values.preview ?? false,
    promote: values.promote ?? false,
    ...(values.canary === undefined ? {} : { canary: canaryPercent(values.canary) }),
    ...(values.release === undefined ? {} : { release: values.release }),
    ...(values.status ? { status: true as const } : {}),
  };
  if (args.help) return args;
  const planned = PLAN_OPTIONS.filter((o) => values[o] !== undefined);
  if (planned.length && args.canary === undefined) {
    throw new SettingsError(`--${planned[0]} is for a canary (--canary <percent>)`);
  }
  if (args.canary !== undefined) {
    const plan = planOf(values, args.canary);
    if (plan) args.plan = plan;
  }
  if (
    args.status &&
    (args.rollback || args.preview || args.promote || args.with.length || args.canary !== undefined)
  ) {
    throw new SettingsError('--status only reads: it goes with no other option');
  }
  if (args.to !== undefined && !args.rollback) {
    throw new SettingsError(
      '--to is for a rollback (npm run rollback -w mfe-<group> -- --to 1.2.0)',
    );
  }
  if (args.rebuild && args.rollback) {
    throw new SettingsError('--rebuild is for a deploy: a rollback builds nothing');
  }
  if (args.canary !== undefined && (args.rollback || args.preview || args.promote)) {
    throw new SettingsError('--canary is for a deploy (of one group, or several with --with)');
  }
  if ((args.preview || args.promote) && args.rollback) {
    throw new SettingsError('--preview and --promote are for a deploy, not a rollback');
  }
  if (args.preview && (args.promote || args.with.length)) {
    throw new SettingsError(
      '--preview shows one group; it cannot be used with --promote or --with',
    );
  }
  if (args.with.length && args.rollback) {
    throw new SettingsError(
      '--with is for a deploy; to take a release back: npm run rollback -w mfe-<group> -- --release <id>',
    );
  }
  if (args.with.some((w) => !/^mfe-[a-z0-9-]+$/.test(w))) {
    throw new SettingsError('--with names a group workspace such as mfe-data');
  }
  if (args.release !== undefined && !args.rollback) {
    throw new SettingsError(
      '--release is for a rollback (npm run rollback -w mfe-<group> -- --release <id>)',
    );
  }
  if (args.release !== undefined && args.to !== undefined) {
    throw new SettingsError('--release and --to cannot be used together');
  }
  if (args.release !== undefined && !/^r-[0-9a-f]{12}$/.test(args.release)) {
    throw new SettingsError(
      `--release takes a release id such as r-3f2a9c1b7d4e, not "${args.release}"`,
    );
  }
  if (args.to !== undefined && !isSemver(args.to)) {
    throw new SettingsError(`--to must be a semantic version such as 1.2.0, not "${args.to}"`);
  }
  if (args.reason !== undefined && (args.reason.trim() === '' || /\p{Cc}/u.test(args.reason))) {
    throw new SettingsError('--reason must be a line of text');
  }
  return args;
}

/**
 * An http(s) URL setting without a trailing slash, or a SettingsError naming the setting. A path is
 * kept (a bucket's folder, a site behind a prefix); a query or a fragment would be lost when paths
 * are added to it, so it is refused.
 */
export function httpUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SettingsError(
      `${name} must be an http(s) URL such as https://example.com, not "${value}"`,
    );
  }
  if (!/^https?:$/.test(url.protocol)) {
    throw new SettingsError(
      `${name} must be an http(s) URL such as https://example.com, not "${value}"`,
    );
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new SettingsError(
      `${name} must be an http(s) URL without a query, a fragment or credentials, not "${value}"`,
    );
  }
  return url.href.replace(/\/+$/, '');
}

/**
 * The tokens `npm start` keeps for a checkout, under the repository's root: the site's operator
 * token, and one token per group that can change only that group.
 */
export const LOCAL_TOKENS = {
  operator: path.join('deploy', '.deploy-token'),
  group: (name: string): string => path.join('deploy', '.group-tokens', name),
};

/** A token kept in a file of the checkout, if there is one. */
export function localToken(root: string, file: string): string | undefined {
  const full = path.join(root, file);
  if (!existsSync(full)) return undefined;
  return readFileSync(full, 'utf8').trim() || undefined;
}
