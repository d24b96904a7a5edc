/**
 * `POST /_beacon`: browsers report errors of a group's page here (the shell's reporter, with
 * `navigator.sendBeacon`, which sends its JSON as text/plain). Each report is counted by group,
 * version and kind for the metrics and for a canary's automatic rollback; nothing else of it is
 * kept. Anyone can post, so the body is small and checked by its schema, a group or version that
 * is not live is counted as "unknown" (never a new label), and each client address has a budget
 * per minute. Every refusal is a 4xx with its reason in plain text; nothing here answers 500.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { BEACON_KINDS, type BeaconKind, type SiteMetrics } from '../metrics';

export const BEACON_PATH = '/_beacon';
export const MAX_BEACON_BODY = 4 * 1024;
/** Reports accepted from one client address per minute, unless set (BEACON_RATE_LIMIT). */
export const DEFAULT_BEACON_RATE_LIMIT = 30;
const WINDOW_MS = 60_000;
/** Client addresses counted in one window; beyond them a new address is refused until the next. */
const MAX_CLIENTS = 10_000;

const beaconBody = {
  type: 'object',
  required: ['kind', 'group', 'version'],
  additionalProperties: false,
  properties: {
    kind: { type: 'string', enum: BEACON_KINDS },
    group: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-z][a-z0-9_]*$' },
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

/**
 * A fixed window per client address: at most `limit` reports each minute. The whole map is
 * dropped when the window turns, so it holds at most one minute's addresses (and MAX_CLIENTS).
 */
export class FixedWindowLimit {
  private counts = new Map<string, number>();
  private windowStart = 0;

  constructor(
    private readonly limit: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one report from `client`; false when over its budget. Seconds until the next window. */
  take(client: string): { ok: boolean; retryAfter: number } {
    const now = this.now();
    if (now - this.windowStart >= WINDOW_MS) {
      this.windowStart = now;
      this.counts = new Map();
    }
    const retryAfter = Math.max(1, Math.ceil((this.windowStart + WINDOW_MS - now) / 1000));
    const used = this.counts.get(client);
    if (used === undefined && this.counts.size >= MAX_CLIENTS) return { ok: false, retryAfter };
    if ((used ?? 0) >= this.limit) return { ok: false, retryAfter };
    this.counts.set(client, (used ?? 0) + 1);
    return { ok: true, retryAfter };
  }
}

export interface BeaconOptions {
  metrics: SiteMetrics;
  /** Reports per client address per minute. */
  rateLimit: number;
  now?: () => number;
}

export async function beaconRoutes(app: FastifyInstance, options: BeaconOptions): Promise<void> {
  const { metrics } = options;
  const limiter = new FixedWindowLimit(options.rateLimit, options.now);

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
          : error.validation
            ? { status: 400, reason: `the report does not fit its schema: ${error.message}` }
            : error.statusCode && error.statusCode < 500
              ? { status: error.statusCode, reason: error.message }
              : { status: 400, reason: 'the report could not be read' };
    metrics.beaconRefused(status === 413 ? 'too_large' : 'invalid');
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
      // Before the body is read: a flood costs a map look-up per request, not a parse.
      onRequest: async (request, reply) => {
        const { ok, retryAfter } = limiter.take(request.ip);
        if (ok) return;
        metrics.beaconRefused('rate_limited');
        return reply
          .code(429)
          .header('retry-after', String(retryAfter))
          .header('cache-control', 'no-store')
          .type('text/plain; charset=utf-8')
          .send(`Too many reports from this address: at most ${options.rateLimit} a minute.\n`);
      },
    },
    async (request, reply) => {
      const { kind, group, version } = request.body;
      await metrics.beacon(kind, group, version);
      return reply.code(204).header('cache-control', 'no-store').send();
    },
  );
}
