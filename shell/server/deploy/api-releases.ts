/**
 * Releases: several groups changed in one compare-and-swap (as canaries, with `canary`), and taken
 * back as one.
 */
import type { FastifyInstance } from 'fastify';
import {
  MAX_BODY,
  RELEASE_ID,
  releaseBody,
  releaseRollbackBody,
  type ReleaseBody,
  type ReleaseRollbackBody,
} from '@site/contracts/deploy-api';
import { canaryPlan, canaryPlanProblem } from '@site/contracts/canary-plan';
import type { CredentialOf, DeployApiOptions } from './api-context';
import { changeOf } from './api-deadline';
import { RefusedError } from './patch';

export function releaseRoutes(
  app: FastifyInstance,
  options: DeployApiOptions,
  credentialOf: CredentialOf,
): void {
  app.post<{ Body: ReleaseBody }>(
    '/releases',
    { bodyLimit: MAX_BODY, schema: { body: releaseBody } },
    async (request, reply) => {
      const { entries, canary, plan } = request.body;
      const change = changeOf(request.body, credentialOf(request));
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
      const done = await options.deployer.rollbackRelease(
        request.params.id,
        changeOf(request.body, credentialOf(request)),
      );
      return reply.header('cache-control', 'no-store').send(done);
    },
  );
}
