/**
 * Every HTML answer gets the policy of the page it is (pages/policy.ts's `policyFor`): whose
 * page it is comes from the manifest the request sees (a preview's or a canary cohort's included),
 * so a page allows exactly the group version it was composed with. And `POST /_csp`, where
 * browsers report what the policy stopped: counted per group in the metrics.
 *
 * Anyone can post a report, so the body is small, read by a schema, and counted under bounded
 * labels only (a live group's name, "shell", or "unknown"; a known directive or "other"); a client
 * has a budget of reports per minute, and a report over it or malformed is refused with a 4xx.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyError, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { groupAt } from '@site/contracts';
import { CONTACT_PATH } from '../contact/no-script-form';
import { clientKey } from '../canary/beacon';
import { REPORT_PATH, policyFor, type PageOwner } from './policy';
import { targetPath } from './answer';
import { ByPage } from './by-page';
import { SHELL_GROUP, UNKNOWN } from '../metrics/metrics';
import type { LiveManifest } from '../control-plane';

export const MAX_REPORT_BODY = 8 * 1024;
/** Reports taken from one client address per minute. */
export const REPORTS_PER_MINUTE = 60;

/** A report as `report-uri` sends it (application/csp-report). */
const uriReport = z.object({
  'csp-report': z.object({
    'document-uri': z.string().max(2048),
    'effective-directive': z.string().max(100).optional(),
    'violated-directive': z.string().max(2048).optional(),
  }),
});
/** Reports as the Reporting API sends them (application/reports+json), for `report-to`. */
const apiReports = z
  .array(
    z.object({
      type: z.string().max(100),
      body: z
        .object({
          documentURL: z.string().max(2048),
          effectiveDirective: z.string().max(100),
        })
        .partial()
        .optional(),
    }),
  )
  .max(20);

interface Violation {
  documentUrl: string;
  directive: string;
}

function violationsOf(body: unknown): Violation[] | null {
  const one = uriReport.safeParse(body);
  if (one.success) {
    const report = one.data['csp-report'];
    const directive =
      report['effective-directive'] ?? report['violated-directive']?.split(' ')[0] ?? '';
    return [{ documentUrl: report['document-uri'], directive }];
  }
  const many = apiReports.safeParse(body);
  if (!many.success) return null;
  return many.data
    .filter((r) => r.type === 'csp-violation')
    .map((r) => ({
      documentUrl: r.body?.documentURL ?? '',
      directive: r.body?.effectiveDirective ?? '',
    }));
}

/** The page a path is in a manifest: a group's, the contact page, or another shell page. */
export function ownerOf(view: LiveManifest, pagePath: string): PageOwner {
  if (pagePath === CONTACT_PATH) return { kind: 'contact' };
  const owner = groupAt(view.manifest.remotes, pagePath);
  if (owner) return { kind: 'group', origin: new URL(owner.entry).origin };
  return { kind: 'shell' };
}

const STRICTEST = policyFor({ kind: 'contact' });

/** Each page's policy headers, by the manifest a request saw and the path. */
const policies = new ByPage((live, pagePath) => policyFor(ownerOf(live, pagePath)));

/** The policy of the page a request target names; the strictest when it names no path. */
function policyOfRequest(live: LiveManifest, url: string): Readonly<Record<string, string>> {
  try {
    return policies.get(live, targetPath(url).path);
  } catch {
    return STRICTEST;
  }
}

/** The group a page of the site belongs to, as the metrics label it. */
function groupOf(view: LiveManifest, documentUrl: string, site: readonly string[]): string {
  let url: URL;
  try {
    url = new URL(documentUrl);
  } catch {
    return UNKNOWN;
  }
  if (!site.includes(url.origin)) return UNKNOWN;
  return groupAt(view.manifest.remotes, url.pathname)?.name ?? SHELL_GROUP;
}

export default fp(
  async (app) => {
    const siteOrigin = new URL(app.shellBuild.siteUrl).origin;

    // Every answer passes here: a callback that finishes at once when the request's view is made
    // (a page's always is), not a promise each.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (!String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
        return done(null, payload);
      }
      const made = request.siteViewMade();
      if (made) {
        reply.headers(policyOfRequest(made.live, request.url));
        return done(null, payload);
      }
      // No manifest to read: the strictest policy, the site's own code alone.
      request.siteView().then(
        (view) => {
          reply.headers(policyOfRequest(view.live, request.url));
          done(null, payload);
        },
        () => {
          reply.headers(STRICTEST);
          done(null, payload);
        },
      );
    });

    await app.register(async (reports) => {
      await reports.register(rateLimit, {
        global: false,
        hook: 'onRequest',
        keyGenerator: (request: FastifyRequest) => clientKey(request.ip),
        onExceeded: () => app.metrics.policyReportRefused('rate_limited'),
      });
      reports.removeAllContentTypeParsers();
      reports.addContentTypeParser(
        ['application/csp-report', 'application/reports+json', 'application/json'],
        { parseAs: 'string', bodyLimit: MAX_REPORT_BODY },
        (_request, body, done) => {
          try {
            done(null, JSON.parse(body as string));
          } catch {
            done(Object.assign(new Error('the report is not JSON'), { statusCode: 400 }));
          }
        },
      );
      reports.setErrorHandler((error: FastifyError, _request, reply) => {
        const status =
          error.statusCode === 429 ? 429 : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 413 : 0;
        const reason =
          status === 429
            ? `too many reports from this address: at most ${REPORTS_PER_MINUTE} a minute`
            : status === 413
              ? `the report is over ${MAX_REPORT_BODY} bytes`
              : error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
                ? 'a report is application/csp-report or application/reports+json'
                : error.statusCode && error.statusCode < 500
                  ? error.message
                  : 'the report could not be read';
        if (status !== 429)
          app.metrics.policyReportRefused(status === 413 ? 'too_large' : 'invalid');
        return reply
          .code(status || (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? 415 : 400))
          .header('cache-control', 'no-store')
          .type('text/plain; charset=utf-8')
          .send(`${reason}\n`);
      });
      reports.post(
        REPORT_PATH,
        {
          bodyLimit: MAX_REPORT_BODY,
          config: { rateLimit: { max: REPORTS_PER_MINUTE, timeWindow: 60_000 } },
        },
        async (request, reply) => {
          const violations = violationsOf(request.body);
          if (!violations) {
            app.metrics.policyReportRefused('invalid');
            return reply
              .code(400)
              .header('cache-control', 'no-store')
              .type('text/plain; charset=utf-8')
              .send('the body is not a Content-Security-Policy violation report\n');
          }
          const live = await app.live();
          const site = [siteOrigin, `${request.protocol}://${request.host}`];
          for (const v of violations) {
            app.metrics.policyViolation(groupOf(live, v.documentUrl, site), v.directive);
          }
          return reply.code(204).header('cache-control', 'no-store').send();
        },
      );
    });
  },
  { name: 'page-policy', dependencies: ['views', 'metrics', 'shell-build'] },
);
