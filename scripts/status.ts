/**
 * `npm run status`: the operator's view of a running site, local (`npm start`) or cluster
 * (`npm run start:cluster`). It asks every site server and mail-service it can reach about itself
 * and the site's deploy API about the live manifest, the last change and the canaries, then prints
 * one screen in plain words. A part that does not answer within a few seconds is shown as hung or
 * down, never waited for. Exits 0 when every part is ready, 1 when one is not, 2 on bad arguments.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { IntegrityAnswer } from '@site/contracts';
import type { CanaryStatusAnswer, HistoryAnswer, ManifestAnswer } from '@site/contracts/deploy-api';
import { CLUSTER, MAIL_SERVICE_PORT } from './lib/local-ports';
import { LOCAL_TOKENS, SettingsError, httpUrl, localToken } from './lib/deploy-settings';

const root = path.join(__dirname, '..');

export const USAGE = `usage: npm run status [-- --site <url>] [-- --replicas <url,url,...>] [-- --mail <url,url,...>]

Every part of the running site, as it says of itself: each site server (alive, ready, the manifest
it serves, why it is not ready), the control plane's database as the replicas see it, each
mail-service's queue and delivery, the live manifest, the last change and every running canary.

  --site <url>        the site, as visitors reach it (default DEPLOY_API, else http://localhost:3000)
  --replicas <urls>   the site servers to ask one by one (default: those of the cluster run on
                      ports ${CLUSTER.sites}-${CLUSTER.sites + 8} that answer, else the site itself)
  --mail <urls>       the mail-services to ask (default: the cluster run's, ${CLUSTER.mailServices.join(' and ')}, when its
                      site servers answer, else the local run's ${MAIL_SERVICE_PORT})
  --timeout <ms>      how long one part may take to answer (default 3000)
  --help              this text

  DEPLOY_TOKEN        the site's operator token, for the manifest, the history and the canaries
                      (default: the one npm start wrote to ${LOCAL_TOKENS.operator})`;

interface Args {
  site: string;
  replicas: string[] | null;
  mail: string[] | null;
  timeoutMs: number;
}

function parse(argv: string[]): Args | 'help' {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      site: { type: 'string' },
      replicas: { type: 'string' },
      mail: { type: 'string' },
      timeout: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return 'help';
  const list = (name: string, text: string | undefined) =>
    text === undefined
      ? null
      : text
          .split(',')
          .map((u) => u.trim())
          .filter(Boolean)
          .map((u) => httpUrl(name, u));
  const timeoutMs = values.timeout === undefined ? 3000 : Number(values.timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > 60_000) {
    throw new SettingsError(
      `--timeout is whole milliseconds from 100 to 60000, not "${values.timeout}"`,
    );
  }
  return {
    site: httpUrl('--site', values.site ?? process.env.DEPLOY_API ?? 'http://localhost:3000'),
    replicas: list('--replicas', values.replicas),
    mail: list('--mail', values.mail),
    timeoutMs,
  };
}

type Answer<T> =
  { ok: true; status: number; body: T; replica: string | null } | { ok: false; why: string };

/** One part's answer, or why there is none (refused, hung past the time limit). */
async function ask<T>(url: string, timeoutMs: number, token?: string): Promise<Answer<T>> {
  try {
    const response = await fetch(url, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
    const text = await response.text();
    let body: T;
    try {
      body = JSON.parse(text) as T;
    } catch {
      return { ok: false, why: `HTTP ${response.status}, not the answer expected` };
    }
    return { ok: true, status: response.status, body, replica: response.headers.get('x-replica') };
  } catch (error) {
    const name = (error as { name?: string }).name;
    return name === 'TimeoutError'
      ? { ok: false, why: `no answer within ${timeoutMs} ms: hung` }
      : { ok: false, why: 'not answering: down' };
  }
}

/** The default parts: those of the cluster run and the local run that answer at all. */
async function answering(urls: string[], probe: string, timeoutMs: number): Promise<string[]> {
  const found = await Promise.all(
    urls.map(async (u) => ((await ask(`${u}${probe}`, timeoutMs)).ok ? u : null)),
  );
  return found.filter((u): u is string => u !== null);
}

const local = (port: number) => `http://localhost:${port}`;

interface Ready {
  status: string;
  replica?: string;
  manifest?: string | null;
  problems?: string[];
  /** Groups whose pages this server served from their last good composition lately. */
  lastGood?: { group: string; served: number; lastAt: string }[];
}
interface MailReady {
  status: string;
  problems: string[];
  delivery?: { mode: string; working: boolean | null };
  messages?: Record<string, number> | null;
  oldestQueuedAgeSeconds?: number | null;
}

/**
 * Groups whose files a browser could not load while the site found them unlike their pins (each
 * site server counts what it was told), or a line that there are none.
 */
async function integrityLines(sites: string[], timeoutMs: number): Promise<string[]> {
  const failures = new Map<string, { reports: number; files: Set<string> }>();
  for (const url of sites) {
    const answer = await ask<IntegrityAnswer>(`${url}/_integrity`, timeoutMs);
    if (!answer.ok || answer.status !== 200) continue;
    for (const f of answer.body.failures) {
      const key = `${f.group} ${f.version}`;
      const seen = failures.get(key) ?? { reports: 0, files: new Set<string>() };
      seen.reports += f.reports;
      f.files.forEach((file) => seen.files.add(file));
      failures.set(key, seen);
    }
  }
  if (!failures.size) return ['Pinned files: no browser has met a changed file'];
  return [
    'Pinned files: CHANGED since their deploy (browsers refuse to run them; deploy the version again or roll back):',
    ...[...failures].map(
      ([key, f]) =>
        `  ${key}: ${f.reports} integrity failure${f.reports === 1 ? '' : 's'}; ${[...f.files].join(', ')} unlike the pin`,
    ),
  ];
}

export async function status(args: Args): Promise<{ lines: string[]; healthy: boolean }> {
  const lines: string[] = [];
  let healthy = true;
  const token = process.env.DEPLOY_TOKEN?.trim() || localToken(root, LOCAL_TOKENS.operator);

  const replicas =
    args.replicas ??
    (await answering(
      Array.from({ length: 9 }, (_, i) => local(CLUSTER.sites + i)),
      '/_health',
      args.timeoutMs,
    ));
  const sites = replicas.length ? replicas : [args.site];
  lines.push(`Site servers (${sites.length}):`);
  let databaseAway = 0;
  for (const url of sites) {
    const ready = await ask<Ready>(`${url}/_ready`, args.timeoutMs);
    if (!ready.ok) {
      healthy = false;
      lines.push(`  ${url}  NOT ANSWERING (${ready.why})`);
      continue;
    }
    const name = ready.body.replica ?? ready.replica ?? '';
    const problems = ready.body.problems ?? [];
    if (problems.some((p) => p.includes('database'))) databaseAway += 1;
    if (ready.status !== 200) healthy = false;
    lines.push(
      `  ${url}${name ? ` (${name})` : ''}  ${ready.status === 200 ? 'ready' : 'NOT READY'}, manifest ${ready.body.manifest ?? 'none'}${problems.length ? `: ${problems.join('; ')}` : ''}`,
    );
    for (const g of ready.body.lastGood ?? []) {
      lines.push(
        `    ${g.group}: its render fails; ${g.served} page view(s) served from their last good composition, the last at ${g.lastAt}`,
      );
    }
  }
  lines.push(...(await integrityLines(sites, args.timeoutMs)));
  lines.push(
    databaseAway
      ? `Control-plane database: unreachable from ${databaseAway} of ${sites.length} site server(s): deploys are refused there, the last manifest is still served`
      : 'Control-plane database: reachable from every site server that answered (or none is used)',
  );

  // The cluster run's mail-services beside its site servers; the local run's one otherwise.
  const clusterRun = args.replicas === null && replicas.length > 0;
  const mails =
    args.mail ??
    (await answering(
      clusterRun ? CLUSTER.mailServices.map(local) : [local(MAIL_SERVICE_PORT)],
      '/api/health',
      args.timeoutMs,
    ));
  lines.push(`Mail-services (${mails.length}):`);
  if (!mails.length) {
    healthy = false;
    lines.push('  none answering');
  }
  for (const url of mails) {
    const ready = await ask<MailReady>(`${url}/api/ready`, args.timeoutMs);
    if (!ready.ok) {
      healthy = false;
      lines.push(`  ${url}  NOT ANSWERING (${ready.why})`);
      continue;
    }
    const b = ready.body;
    if (ready.status !== 200) healthy = false;
    const counts = b.messages
      ? Object.entries(b.messages)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')
      : 'the outbox could not be read';
    const oldest =
      b.oldestQueuedAgeSeconds == null ? '' : `, oldest waiting ${b.oldestQueuedAgeSeconds} s`;
    lines.push(
      `  ${url}  ${ready.status === 200 ? 'ready' : `NOT READY: ${b.problems.join(', ')}`}; delivery ${b.delivery?.mode ?? '?'} ${b.delivery?.working === false ? 'FAILING' : 'working'}; messages: ${counts}${oldest}`,
    );
  }

  if (!token) {
    lines.push(
      `Live manifest, last change, canaries: need the operator token (DEPLOY_TOKEN or ${LOCAL_TOKENS.operator})`,
    );
    return { lines, healthy };
  }
  const api = `${args.site}/_deploy`;
  const [manifest, history, canaries] = await Promise.all([
    ask<ManifestAnswer>(`${api}/manifest`, args.timeoutMs, token),
    ask<HistoryAnswer>(`${api}/history`, args.timeoutMs, token),
    ask<CanaryStatusAnswer>(`${api}/canaries`, args.timeoutMs, token),
  ]);
  if (manifest.ok && manifest.status === 200) {
    const groups = (manifest.body.manifest.remotes ?? []).map((r) => `${r.name}@${r.version}`);
    lines.push(`Live manifest ${manifest.body.version}: ${groups.join(', ') || 'no groups'}`);
    // The server could not ask the control plane: this is what it serves, not necessarily what is live.
    if (manifest.body.unconfirmed !== undefined) {
      healthy = false;
      lines.push(`  UNCONFIRMED: ${manifest.body.unconfirmed}`);
    }
  } else {
    healthy = false;
    lines.push(
      `Live manifest: unknown (${manifest.ok ? `HTTP ${manifest.status}` : manifest.why})`,
    );
  }
  const last = history.ok && history.status === 200 ? history.body.history.at(-1) : undefined;
  lines.push(
    last
      ? `Last change: ${last.at} ${last.action} ${last.remote} ${last.from?.version ?? '-'} -> ${last.to?.version ?? '-'} by ${last.by}${last.credential ? ` (${last.credential})` : ''}${last.reason ? `: ${last.reason}` : ''}`
      : 'Last change: none recorded',
  );
  if (canaries.ok && canaries.status === 200) {
    const running = canaries.body.canaries;
    lines.push(`Canaries: ${running.length ? '' : 'none running'}`);
    for (const c of running) {
      const rate = (f: { rate: number | null }) =>
        f.rate === null ? 'no views' : `${(f.rate * 100).toFixed(2)} %`;
      lines.push(
        `  ${c.group} ${c.version} for ${c.percent}% beside ${c.stableVersion}: ${c.canary.views} views, ${c.canary.errors} failed (${rate(c.canary)}), stable ${rate(c.stable)}; last decision: ${c.decision ? `${c.decision.outcome} (${c.decision.reason})` : 'none yet'}`,
      );
    }
  } else {
    lines.push(`Canaries: unknown (${canaries.ok ? `HTTP ${canaries.status}` : canaries.why})`);
  }
  return { lines, healthy };
}

async function main(): Promise<void> {
  let args: Args | 'help';
  try {
    args = parse(process.argv.slice(2));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    process.exit(2);
  }
  if (args === 'help') {
    console.log(USAGE);
    return;
  }
  const { lines, healthy } = await status(args);
  console.log(lines.join('\n'));
  process.exitCode = healthy ? 0 : 1;
}

if (require.main === module) void main();
