/**
 * `POST /_integrity`: a browser says a group's files would not load (the shell sends it beside its
 * beacon when a group failed after its retries). What a browser says is never believed: the site
 * fetches the group's pinned files itself, from the origin of the live entry (no redirect
 * followed, within the size limit), and compares each with the pin its deploy recorded. Only a
 * report whose group has a file that differs is counted (`site_integrity_failures_total{group}`),
 * and the files that differ are listed by `GET /_integrity` for `npm run status`. A version's
 * verdict is kept for a minute, so however many reports arrive the site looks at most once a
 * minute per live group; a report for a group or version that is not live is answered alike and
 * looks at nothing.
 */
import { GROUP_NAME_PATTERN, type IntegrityAnswer, type RemoteDeployment } from '@site/contracts';
import { sha384Integrity } from '@site/contracts/integrity';
import type { FastifyInstance } from 'fastify';
import { LRUCache } from 'lru-cache';
import { Counter } from 'prom-client';
import { PINNED_FILE_MAX_BYTES } from '../deploy/file-pins';
import { fetchRemoteFile, httpOrigin } from '../deploy/remote-files';

export const INTEGRITY_PATH = '/_integrity';
const MAX_BODY = 4 * 1024;
const VERDICT_MS = 60_000;
const FETCH_TIMEOUT_MS = 5000;

const reportBody = {
  type: 'object',
  required: ['group', 'version'],
  properties: {
    group: { type: 'string', pattern: GROUP_NAME_PATTERN },
    version: { type: 'string', minLength: 1, maxLength: 100 },
  },
} as const;

/** The pinned files of `remote` its origin now serves otherwise; a file it does not serve is not counted. */
async function differing(remote: RemoteDeployment): Promise<string[]> {
  const origin = httpOrigin(remote.entry);
  if (!origin) return [];
  const origins = new Set([origin]);
  const checked = await Promise.all(
    Object.entries(remote.files ?? {}).map(async ([file, pin]) => {
      try {
        const { bytes } = await fetchRemoteFile(
          new URL(file, remote.entry).href,
          origins,
          'the page file',
          { timeoutMs: FETCH_TIMEOUT_MS, maxBytes: PINNED_FILE_MAX_BYTES },
        );
        return sha384Integrity(bytes) === pin ? null : file;
      } catch {
        return null;
      }
    }),
  );
  return checked.filter((file): file is string => file !== null);
}

export async function integrityRoutes(app: FastifyInstance): Promise<void> {
  const counter = new Counter({
    name: 'site_integrity_failures_total',
    help: "Browsers that could not load a group's files while the site found one of them unlike the pin its deploy recorded (the browser refused to run it), by group",
    labelNames: ['group'],
    registers: [app.metrics.registry],
  });
  const verdicts = new LRUCache<string, Promise<string[]>>({ max: 64, ttl: VERDICT_MS });
  const found = new LRUCache<string, IntegrityAnswer['failures'][number]>({ max: 64 });

  /** The live remote (stable or canary) of a group at a version, if any. */
  const liveRemote = async (group: string, version: string) => {
    const live = await app.live();
    return [...live.manifest.remotes, ...live.canaries.map((c) => c.remote)].find(
      (r) => r.name === group && r.version === version,
    );
  };

  // sendBeacon sends a string as text/plain; read as JSON here, and only here.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(
    ['application/json', 'text/plain'],
    { parseAs: 'string', bodyLimit: MAX_BODY },
    (_request, body, done) => {
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(Object.assign(new Error('the report is not valid JSON'), { statusCode: 400 }));
      }
    },
  );

  app.post<{ Body: { group: string; version: string } }>(
    INTEGRITY_PATH,
    { bodyLimit: MAX_BODY, schema: { body: reportBody } },
    async (request, reply) => {
      const { group, version } = request.body;
      const remote = await liveRemote(group, version);
      if (remote?.files) {
        const key = `${group}@${version}@${remote.entry}`;
        let verdict = verdicts.get(key);
        if (!verdict) {
          verdict = differing(remote);
          verdicts.set(key, verdict);
        }
        const files = await verdict;
        if (files.length) {
          counter.inc({ group });
          const seen = found.get(key);
          found.set(key, {
            group,
            version,
            reports: (seen?.reports ?? 0) + 1,
            files,
            at: new Date().toISOString(),
          });
        }
      }
      return reply.code(204).header('cache-control', 'no-store').send();
    },
  );

  app.get(INTEGRITY_PATH, async (_request, reply) => {
    // Only what is still live: a version rolled back or redeployed is no longer the site's concern.
    const live = await app.live();
    const remotes = [...live.manifest.remotes, ...live.canaries.map((c) => c.remote)];
    const failures = [...found.entries()]
      .filter(([key]) => remotes.some((r) => key === `${r.name}@${r.version}@${r.entry}`))
      .map(([, failure]) => failure);
    return reply.header('cache-control', 'no-store').send({ failures } satisfies IntegrityAnswer);
  });
}
