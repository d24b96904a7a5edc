/**
 * A group's own changes: a deploy of its new version (or a preview of it, or a canary beside the
 * live one), and its rollback.
 */
import type { FastifyInstance } from 'fastify';
import {
  MAX_BODY,
  NAME,
  deployBody,
  rollbackBody,
  type DeployBody,
  type RollbackBody,
} from '@site/contracts/deploy-api';
import { canaryPlan, canaryPlanProblem } from '@site/contracts/canary-plan';
import type { CredentialOf, DeployApiOptions } from './api-context';
import { changeOf } from './api-deadline';
import { RefusedError } from './patch';

export function remoteRoutes(
  app: FastifyInstance,
  options: DeployApiOptions,
  credentialOf: CredentialOf,
): void {
  app.put<{ Params: { name: string }; Body: DeployBody }>(
    '/remotes/:name',
    {
      bodyLimit: MAX_BODY,
      schema: { params: { type: 'object', properties: { name: NAME } }, body: deployBody },
    },
    async (request, reply) => {
      const { base, entry, version, serverIntegrity } = request.body;
      const credential = credentialOf(request);
      const change = changeOf(request.body, credential);
      const published = {
        name: request.params.name,
        entry,
        version,
        ...(serverIntegrity ? { serverIntegrity } : {}),
      };
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
          published,
          request.body.canary,
          change,
          canaryPlan.parse(plan ?? {}),
        );
        return reply.header('cache-control', 'no-store').send(started);
      }
      if (request.body.preview) {
        const { remote: checked, page } = await options.deployer.preview(
          published,
          base,
          credential,
        );
        const link = options.preview.link(checked, request.body.previewSeconds, page.path);
        options.log.info(
          `site: preview of ${checked.name} ${checked.version} signed for ${change.by} (${credential.label})`,
        );
        return reply.header('cache-control', 'no-store').send({
          preview: {
            remote: checked.name,
            version: checked.version,
            url: link.url,
            page: page.path,
            pageWhy: page.why,
            expiresAt: link.expiresAt.toISOString(),
          },
        });
      }
      const done = await options.deployer.deploy(published, change);
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
      const done = await options.deployer.rollback(
        request.params.name,
        request.body.to,
        changeOf(request.body, credentialOf(request)),
      );
      return reply.header('cache-control', 'no-store').send(done);
    },
  );
}
