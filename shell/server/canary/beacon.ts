/**
 * `POST /_beacon`: browsers report errors of a group's page here (the shell's reporter, with
 * `navigator.sendBeacon`, which sends its JSON as text/plain and the cookies of the path, the view
 * token among them). A report counts as an error only with a valid view token (canary/view-tokens.ts) for
 * the group and version it names, and once per token: then it is counted by group, version and kind
 * for the metrics and as a failed view for the canary's judgment (canary/counts.ts). Anything else
 * is answered 204 like a counted report (the sender learns nothing) and counted as refused.
 *
 * Anyone can post, so the body is small and checked by its schema, and a client without a valid
 * token has a budget per minute, per address (an IPv6 /64 is one address: one host holds a whole
 * /64). A report with a valid token never touches that table: no flood of forged reports, from
 * however many addresses, can stand between a genuine report and its count. Every refusal of what
 * is not a report is a 4xx with its reason in plain text; nothing here answers 500.
 */
import { GROUP_NAME_PATTERN } from '@site/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { BEACON_KINDS, type BeaconKind } from '../metrics/metrics';
import type { ViewClaims } from './view-tokens';

export const BEACON_PATH = '/_beacon';
export const MAX_BEACON_BODY = 4 * 1024;
const WINDOW_MS = 60_000;
/** Client addresses counted at once (the least recently seen go first). */
const MAX_CLIENTS = 10_000;

const beaconBody = {
  type: 'object',
  required: ['kind', 'group', 'version'],
  additionalProperties: false,
  properties: {
    kind: { type: 'string', enum: BEACON_KINDS },
    group: { type: 'string', pattern: GROUP_NAME_PATTERN },
    version: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[\\x21-\\x7e]+$' },
    message: { type: 'string', maxLength: 1000 },
  },
} as const;

interface BeaconBody {
  kind: BeaconKind;
  group: string;
  version: string;
  message?: string;
}

/** The four hextets of an IPv6 address's /64; an IPv4 address (mapped or not) is itself. */
export function clientKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  const [head = '', tail] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // A trailing dotted quad is two hextets; only the first four matter here.
  const width = (parts: string[]) => parts.reduce((n, p) => n + (p.includes('.') ? 2 : 1), 0);
  const hextets =
    tail === undefined
      ? left
      : [...left, ...Array<string>(8 - width(left) - width(right)).fill('0'), ...right];
  return `${hextets
    .slice(0, 4)
    .map((h) => h.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

export async function beaconRoutes(app: FastifyInstance): Promise<void> {
  // Reports without a valid token per client address (an IPv6 /64 counts as one) per minute.
  const perMinute = app.config.BEACON_RATE_LIMIT;
  const { metrics } = app;
  const { signer, counter } = app.canary;
  const claimsOf = new WeakMap<FastifyRequest, ViewClaims | null>();
  const claims = (request: FastifyRequest): ViewClaims | null => {
    if (!claimsOf.has(request)) claimsOf.set(request, signer.fromCookie(request.headers.cookie));
    return claimsOf.get(request)!;
  };
  // Before the body is read, so a flood costs a look-up per request, not a parse. Only reports
  // without a valid token are limited, each /64 as one client: genuine reports are never in the
  // table, so filling it with addresses refuses no genuine report.
  await app.register(rateLimit, {
    global: false,
    cache: MAX_CLIENTS,
    hook: 'onRequest',
    keyGenerator: (request) => clientKey(request.ip),
    allowList: (request) => claims(request) !== null,
    onExceeded: () => metrics.beaconRefused('rate_limited'),
    errorResponseBuilder: () =>
      Object.assign(
        new Error(`Too many reports from this address: at most ${perMinute} a minute.`),
        { statusCode: 429 },
      ),
  });

  // sendBeacon sends a string as text/plain (a JSON type would need a CORS preflight, which a
  // beacon cannot make): both are read as JSON here, and only here.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(
    ['application/json', 'text/plain'],
    { parseAs: 'string', bodyLimit: MAX_BEACON_BODY },
    (_request, body, done) => {
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(
          Object.assign(new Error('the report is not valid JSON'), { statusCode: 400 }),
          undefined,
        );
      }
    },
  );

  app.setErrorHandler((error: FastifyError, _request, reply) => {
    const { status, reason } =
      error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
        ? { status: 413, reason: `the report is over ${MAX_BEACON_BODY} bytes` }
        : error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? { status: 415, reason: 'the report must be JSON (text/plain or application/json)' }
          : error.statusCode === 429
            ? { status: 429, reason: error.message }
            : error.validation
              ? { status: 400, reason: `the report does not fit its schema: ${error.message}` }
              : error.statusCode && error.statusCode < 500
                ? { status: error.statusCode, reason: error.message }
                : { status: 400, reason: 'the report could not be read' };
    // A rate-limited report was counted as it was refused.
    if (status !== 429) metrics.beaconRefused(status === 413 ? 'too_large' : 'invalid');
    return reply
      .code(status)
      .header('cache-control', 'no-store')
      .type('text/plain; charset=utf-8')
      .send(`${reason}\n`);
  });

  app.post<{ Body: BeaconBody }>(
    BEACON_PATH,
    {
      bodyLimit: MAX_BEACON_BODY,
      schema: { body: beaconBody },
      config: { rateLimit: { max: perMinute, timeWindow: WINDOW_MS } },
    },
    async (request, reply) => {
      const { kind, group, version } = request.body;
      const view = claims(request);
      if (!view) metrics.beaconRefused('no_token');
      else if (view.group !== group || view.version !== version) metrics.beaconRefused('mismatch');
      else if (!counter.report(group, version, view.nonce, view.expiresAt)) {
        metrics.beaconRefused('replayed');
      } else await metrics.beacon(kind, group, version);
      return reply.code(204).header('cache-control', 'no-store').send();
    },
  );
}
