/**
 * The groups' deploy tokens, for the operator alone: list, make, rotate and revoke them
 * (control-plane/tokens.ts keeps them).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_BODY, TOKEN_PARAMS, tokenBody, type TokenBody } from '@site/contracts/deploy-api';
import { groupLabel, type GroupToken, type IssuedToken } from '../control-plane/tokens';
import type { CredentialOf, DeployApiOptions } from './api-context';
import { OPERATOR } from './change';
import { RefusedError } from './patch';

/** A group token as the API shows it: what it may change, never its secret. */
const shown = (record: GroupToken) => ({ ...record, credential: groupLabel(record) });
const issued = ({ token, record }: IssuedToken) => ({ token, ...shown(record) });

export function tokenRoutes(
  app: FastifyInstance,
  options: DeployApiOptions,
  credentialOf: CredentialOf,
): void {
  /** The groups' tokens are the operator's to manage. */
  function operatorOnly(request: FastifyRequest): void {
    if (credentialOf(request) === OPERATOR) return;
    throw new RefusedError(
      403,
      'operator_only',
      `only the site's operator token (DEPLOY_TOKEN) can make, list, rotate or revoke deploy tokens, not ${credentialOf(request).label}`,
    );
  }

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
