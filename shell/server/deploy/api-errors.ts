/**
 * How the deploy API says no: one JSON shape, `{ error, message }`, for its own refusals, Fastify's
 * (body, schema, content type), the control plane's outages and calls it does not have.
 */
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { MAX_BODY } from '@site/contracts/deploy-api';
import { ControlPlaneUnavailableError } from '../control-plane';
import { RevokedTokenError } from '../control-plane/tokens';
import type { CredentialOf, DeployApiOptions } from './api-context';
import { RefusedError } from './patch';

/** A refusal as every client of the API reads it. */
export function refuse(reply: FastifyReply, status: number, error: string, message: string) {
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

/** Every error of the deploy API's routes, answered as a refusal (a 5xx is logged). */
export function apiErrors(
  app: FastifyInstance,
  options: DeployApiOptions,
  credentialOf: CredentialOf,
): void {
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
}
