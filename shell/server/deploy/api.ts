/**
 * The deploy API: how a page-group team publishes its remote's entry in the live manifest, and only
 * that entry, in the spirit of single-spa's import-map-deployer, with more checked before anything
 * goes live (see deployer.ts).
 *
 *   GET  /_deploy/manifest                     { version, manifest }
 *   GET  /_deploy/history[?remote=name]        every change: who, when, from, to, why
 *   PUT  /_deploy/remotes/:name                { base, entry, version, serverIntegrity?, reason?, by?,
 *                                                preview?, previewSeconds? }
 *
 * With `canary: <percent>` (1-50) the version goes live beside the stable one for that share of
 * visits (canary.ts); a deploy of the same version promotes it, a rollback ends it, and the site
 * ends it by itself when it judges it failing. `plan` (@site/contracts/canary-plan) sets how it is
 * judged and the steps by which the site raises its share and promotes it.
 *   GET  /_deploy/canaries                     every running canary: share, views, errors, the
 *                                                stable version's rate, the last decision and why
 *
 * With `preview: true` a deploy runs every check and goes live for no one: the answer is
 * `{ preview: { remote, version, url, expiresAt } }`, a signed link that shows this version of the
 * group to the browser that opens it (preview.ts).
 *   POST /_deploy/remotes/:name/rollback       { base, to?, reason?, by? }
 *   POST /_deploy/releases                     { base, entries: [{ name, entry, version,
 *                                                serverIntegrity? }, ...], reason?, by? }
 *   POST /_deploy/releases/:id/rollback        { base, reason?, by? }
 *
 * A release changes several groups in one compare-and-swap: all go live or none does, and its
 * rollback takes every group back at once. With `canary` (and `plan`) the groups go live as
 * canaries together, judged, stepped, promoted and rolled back together.
 *
 * The groups' deploy tokens, for the operator alone (control-plane/tokens.ts):
 *   GET  /_deploy/tokens                       { tokens: [{ id, groups, createdAt, rotatedAt?,
 *                                                revokedAt? }] }
 *   POST /_deploy/tokens                       { groups: [name, ...] } -> 201 { token, id, groups, … }
 *   POST /_deploy/tokens/:id/rotate            a new secret for the same id: { token, id, … }
 *   POST /_deploy/tokens/:id/revoke            the token ends for good: { id, …, revokedAt }
 *
 * Every call needs `Authorization: Bearer <token>`: the operator's (DEPLOY_TOKEN) can do anything;
 * a group's token can read the manifest and the history and change only the groups it names (403
 * `group_not_allowed` otherwise; a release needs every group it names). `base` is the manifest
 * version the team's change was made against: if the live manifest has moved on, the answer is 409
 * and nothing changes (compare-and-swap). Every answer is JSON; a refusal is `{ error, message }`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ControlPlaneUnavailableError, type LiveManifest } from '../control-plane';
import type { RemoteDeployment } from '@site/contracts';
import {
  RevokedTokenError,
  groupLabel,
  type GroupToken,
  type IssuedToken,
  type TokenStore,
} from '../control-plane/tokens';
import { OPERATOR, type Credential, type Deployer } from './deployer';
import { RefusedError } from './patch';
import {
  MAX_BODY,
  NAME,
  RELEASE_ID,
  TOKEN_PARAMS,
  deployBody,
  releaseBody,
  releaseRollbackBody,
  rollbackBody,
  tokenBody,
  type DeployBody,
  type ReleaseBody,
  type ReleaseRollbackBody,
  type RollbackBody,
  type TokenBody,
} from '@site/contracts/deploy-api';
import { canaryPlan, canaryPlanProblem } from '@site/contracts/canary-plan';
import type { CanaryStatusAnswer } from '@site/contracts/deploy-api';
import type { Logger } from '../logger';

/** A change's deadline as sent: an ISO 8601 time with its zone, or a refusal. */
function deadlineOf(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const at = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(value)
    ? new Date(value)
    : undefined;
  if (!at || Number.isNaN(at.getTime())) {
    throw new RefusedError(
      400,
      'bad_field',
      `"deadline" must be an ISO 8601 time with its zone, such as 2026-11-28T07:00:00Z (got "${value}")`,
    );
  }
  return at;
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** A refusal as every client of the API reads it. */
function refuse(reply: FastifyReply, status: number, error: string, message: string) {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .headers(status === 401 ? { 'www-authenticate': 'Bearer' } : {})
    .send({ error, message });
}

/** What Fastify's own refusals (body, schema, content type) are called in this API. */
function describe(error: FastifyError): { status: number; code: string; message: string } {
  if (error.validation) {
    const where =
      (error.validationContext ?? 'body') === 'body' ? '' : `${error.validationContext} `;
    const missingBase =
      error.validationContext === 'body' &&
      error.validation.some(
        (v) =>
          v.keyword === 'required' &&
          (v.params as { missingProperty?: string }).missingProperty === 'base',
      );
    if (missingBase) {
      return {
        status: 428,
        code: 'base_required',
        message: '"base" (the manifest version this change was made against) is required',
      };
    }
    return { status: 400, code: 'bad_field', message: `${where}${error.message}` };
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        status: 413,
        code: 'too_large',
        message: `the request body is over ${MAX_BODY} bytes`,
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        status: 415,
        code: 'unsupported_media_type',
        message: 'the request body must be JSON (Content-Type: application/json)',
      };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, code: 'bad_json', message: 'the request body is not valid JSON' };
    default:
      return {
        status: error.statusCode && error.statusCode < 500 ? error.statusCode : 503,
        code: error.statusCode && error.statusCode < 500 ? 'bad_request' : 'unavailable',
        message:
          error.statusCode && error.statusCode < 500
            ? error.message
            : 'the deploy API could not finish this call; nothing was changed',
      };
  }
}

export interface DeployApiOptions {
  /** The operator's token (DEPLOY_TOKEN): every group, and the groups' tokens. */
  token: string;
  /** The groups' tokens, kept by the control plane. */
  tokens: TokenStore;
  deployer: Deployer;
  /** Signs the link of a checked version that is not live (`preview: true`). */
  preview: {
    link(remote: RemoteDeployment, seconds?: number): { url: string; expiresAt: Date };
  };
  current(): Promise<LiveManifest>;
  /** Every running canary's figures and last decision. */
  canaries(): Promise<CanaryStatusAnswer>;
  log: Logger;
}

/** A group token as the API shows it: what it may change, never its secret. */
const shown = (record: GroupToken) => ({ ...record, credential: groupLabel(record) });
const issued = ({ token, record }: IssuedToken) => ({ token, ...shown(record) });

export async function deployApi(app: FastifyInstance, options: DeployApiOptions): Promise<void> {
  const tokenDigest = digest(options.token);
  const credentials = new WeakMap<FastifyRequest, Credential>();
  /** The credential the request was authenticated with (the hook below runs before every route). */
  const credentialOf = (request: FastifyRequest): Credential => credentials.get(request)!;
  // Bodies are JSON alone: Fastify's text/plain parser would hand a JSON body sent as text to the
  // schema as a string, refused as "body must be object" instead of by its type (415).
  app.removeContentTypeParser('text/plain');

  app.addHook('onRequest', async (request, reply) => {
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    // Digests of equal length, compared in constant time: the answer's timing tells nothing.
    if (given && timingSafeEqual(digest(given), tokenDigest)) {
      credentials.set(request, OPERATOR);
      return;
    }
    const group = given ? await options.tokens.verify(given) : undefined;
    if (group) {
      credentials.set(request, { label: groupLabel(group), groups: group.groups });
      return;
    }
    return refuse(
      reply,
      401,
      'unauthorized',
      'a valid deploy token is needed (Authorization: Bearer <token>)',
    );
  });

  /** The groups' tokens are the operator's to manage. */
  function operatorOnly(request: FastifyRequest): void {
    if (credentialOf(request) === OPERATOR) return;
    throw new RefusedError(
      403,
      'operator_only',
      `only the site's operator token (DEPLOY_TOKEN) can make, list, rotate or revoke deploy tokens, not ${credentialOf(request).label}`,
    );
  }

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof RefusedError) {
      if (error.code === 'deadline_passed') {
        options.log.warn(
          `site: deploy API: ${request.method} ${request.url} by ${credentialOf(request).label} refused: ${error.message}`,
        );
      }
      return refuse(reply, error.status, error.code, error.message);
    }
    if (error instanceof RevokedTokenError) {
      return refuse(
        reply,
        409,
        'revoked',
        `${error.message}: make a new one (POST /_deploy/tokens)`,
      );
    }
    if (error instanceof ControlPlaneUnavailableError) {
      options.log.warn(`site: deploy API: ${error.message}`);
      return refuse(
        reply.header('retry-after', '5'),
        503,
        'control_plane_unavailable',
        error.message,
      );
    }
    const { status, code, message } = describe(error);
    if (status >= 500) options.log.error(`site: deploy API: ${error.stack ?? error.message}`);
    return refuse(reply, status, code, message);
  });

  app.setNotFoundHandler((request, reply) =>
    refuse(
      reply,
      404,
      'not_found',
      `no deploy API call ${request.method} ${request.url.split('?')[0]}`,
    ),
  );

  app.get('/manifest', async (_request, reply) => {
    const live = await options.current();
    return reply
      .header('cache-control', 'no-store')
      .send({ version: live.version, manifest: live.json });
  });

  // Every running canary with its figures and last decision (npm run deploy -- --status).
  app.get('/canaries', async (_request, reply) =>
    reply.header('cache-control', 'no-store').send(await options.canaries()),
  );

  app.get<{ Querystring: { remote?: string } }>(
    '/history',
    { schema: { querystring: { type: 'object', properties: { remote: NAME } } } },
    async (request, reply) =>
      reply
        .header('cache-control', 'no-store')
        .send({ history: await options.deployer.history(request.query.remote) }),
  );

  app.put<{ Params: { name: string }; Body: DeployBody }>(
    '/remotes/:name',
    {
      bodyLimit: MAX_BODY,
      schema: { params: { type: 'object', properties: { name: NAME } }, body: deployBody },
    },
    async (request, reply) => {
      const { base, entry, version, serverIntegrity, reason = '', by = 'unknown' } = request.body;
      const credential = credentialOf(request);
      const deadline = deadlineOf(request.body.deadline);
      const { plan } = request.body;
      if (plan !== undefined && request.body.canary === undefined) {
        throw new RefusedError(400, 'bad_field', '"plan" is for a canary ("canary": <percent>)');
      }
      if (request.body.canary !== undefined) {
        if (request.body.preview) {
          throw new RefusedError(400, 'bad_field', 'a deploy is a preview or a canary, not both');
        }
        const problem = canaryPlanProblem(plan ?? {}, request.body.canary);
        if (problem) throw new RefusedError(400, 'bad_field', `plan: ${problem}`);
        const started = await options.deployer.canary(
          {
            name: request.params.name,
            entry,
            version,
            ...(serverIntegrity ? { serverIntegrity } : {}),
          },
          request.body.canary,
          { base, reason, by, credential, deadline },
          canaryPlan.parse(plan ?? {}),
        );
        return reply.header('cache-control', 'no-store').send(started);
      }
      if (request.body.preview) {
        const checked = await options.deployer.preview(
          {
            name: request.params.name,
            entry,
            version,
            ...(serverIntegrity ? { serverIntegrity } : {}),
          },
          base,
          credential,
        );
        const link = options.preview.link(checked, request.body.previewSeconds);
        options.log.info(
          `site: preview of ${checked.name} ${checked.version} signed for ${by} (${credential.label})`,
        );
        return reply.header('cache-control', 'no-store').send({
          preview: {
            remote: checked.name,
            version: checked.version,
            url: link.url,
            expiresAt: link.expiresAt.toISOString(),
          },
        });
      }
      const done = await options.deployer.deploy(
        {
          name: request.params.name,
          entry,
          version,
          ...(serverIntegrity ? { serverIntegrity } : {}),
        },
        { base, reason, by, credential, deadline },
      );
      return reply.header('cache-control', 'no-store').send(done);
    },
  );

  app.post<{ Params: { name: string }; Body: RollbackBody }>(
    '/remotes/:name/rollback',
    {
      bodyLimit: MAX_BODY,
      schema: { params: { type: 'object', properties: { name: NAME } }, body: rollbackBody },
    },
    async (request, reply) => {
      const { base, to, reason = '', by = 'unknown' } = request.body;
      const done = await options.deployer.rollback(request.params.name, to, {
        base,
        reason,
        by,
        credential: credentialOf(request),
        deadline: deadlineOf(request.body.deadline),
      });
      return reply.header('cache-control', 'no-store').send(done);
    },
  );

  app.post<{ Body: ReleaseBody }>(
    '/releases',
    { bodyLimit: MAX_BODY, schema: { body: releaseBody } },
    async (request, reply) => {
      const { base, entries, reason = '', by = 'unknown', canary, plan } = request.body;
      const change = {
        base,
        reason,
        by,
        credential: credentialOf(request),
        deadline: deadlineOf(request.body.deadline),
      };
      if (plan !== undefined && canary === undefined) {
        throw new RefusedError(400, 'bad_field', '"plan" is for a canary ("canary": <percent>)');
      }
      if (canary !== undefined) {
        const problem = canaryPlanProblem(plan ?? {}, canary);
        if (problem) throw new RefusedError(400, 'bad_field', `plan: ${problem}`);
        const started = await options.deployer.canaryRelease(
          entries,
          canary,
          change,
          canaryPlan.parse(plan ?? {}),
        );
        return reply.header('cache-control', 'no-store').send(started);
      }
      const done = await options.deployer.release(entries, change);
      return reply.header('cache-control', 'no-store').send(done);
    },
  );

  app.post<{ Params: { id: string }; Body: ReleaseRollbackBody }>(
    '/releases/:id/rollback',
    {
      bodyLimit: MAX_BODY,
      schema: {
        params: { type: 'object', properties: { id: RELEASE_ID } },
        body: releaseRollbackBody,
      },
    },
    async (request, reply) => {
      const { base, reason = '', by = 'unknown' } = request.body;
      const done = await options.deployer.rollbackRelease(request.params.id, {
        base,
        reason,
        by,
        credential: credentialOf(request),
        deadline: deadlineOf(request.body.deadline),
      });
      return reply.header('cache-control', 'no-store').send(done);
    },
  );

  app.get('/tokens', async (request, reply) => {
    operatorOnly(request);
    const tokens = await options.tokens.list();
    return reply.header('cache-control', 'no-store').send({ tokens: tokens.map(shown) });
  });

  app.post<{ Body: TokenBody }>(
    '/tokens',
    { bodyLimit: MAX_BODY, schema: { body: tokenBody } },
    async (request, reply) => {
      operatorOnly(request);
      const made = await options.tokens.create(request.body.groups);
      options.log.info(`site: deploy token ${groupLabel(made.record)} made by the operator`);
      return reply.code(201).header('cache-control', 'no-store').send(issued(made));
    },
  );

  /** A token's id that names no token. */
  const noSuchToken = (id: string) =>
    new RefusedError(
      404,
      'no_such_token',
      `there is no deploy token "${id}" (GET /_deploy/tokens lists them)`,
    );

  app.post<{ Params: { id: string } }>(
    '/tokens/:id/rotate',
    { schema: { params: TOKEN_PARAMS } },
    async (request, reply) => {
      operatorOnly(request);
      const rotated = await options.tokens.rotate(request.params.id);
      if (!rotated) throw noSuchToken(request.params.id);
      options.log.info(`site: deploy token ${groupLabel(rotated.record)} rotated by the operator`);
      return reply.header('cache-control', 'no-store').send(issued(rotated));
    },
  );

  app.post<{ Params: { id: string } }>(
    '/tokens/:id/revoke',
    { schema: { params: TOKEN_PARAMS } },
    async (request, reply) => {
      operatorOnly(request);
      const revoked = await options.tokens.revoke(request.params.id);
      if (!revoked) throw noSuchToken(request.params.id);
      options.log.info(`site: deploy token ${groupLabel(revoked)} revoked by the operator`);
      return reply.header('cache-control', 'no-store').send(shown(revoked));
    },
  );
}
