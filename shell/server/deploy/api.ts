/**
 * The deploy API: how a page-group team publishes its remote's entry in the live manifest, and only
 * that entry, in the spirit of single-spa's import-map-deployer, with more checked before anything
 * goes live (see deployer.ts).
 *
 *   GET  /_deploy/manifest                     { version, manifest, unconfirmed? } (unconfirmed: the
 *                                                database is out of reach, this is the server's copy)
 *   GET  /_deploy/history[?remote=name]        every change: who, when, from, to, why
 *   PUT  /_deploy/remotes/:name                { base, entry, version, serverIntegrity?, reason?, by?,
 *                                                preview?, previewSeconds? }
 *
 * With `canary: <percent>` (1-50) the version goes live beside the stable one for that share of
 * visits (canary/judge.ts); a deploy of the same version promotes it, a rollback ends it, and the site
 * ends it by itself when it judges it failing. `plan` (@site/contracts/canary-plan) sets how it is
 * judged and the steps by which the site raises its share and promotes it.
 *   GET  /_deploy/canaries                     every running canary: share, views, errors, the
 *                                                stable version's rate, the last decision and why
 *
 * With `preview: true` a deploy runs every check and goes live for no one: the answer is
 * `{ preview: { remote, version, url, page, pageWhy, expiresAt } }`, a signed link that shows this
 * version of the group to the browser that opens it (previews/preview.ts), landing on the page the version
 * changes (touched-page.ts).
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
 * a group's token changes only the groups it names (403 `group_not_allowed` otherwise; a release
 * needs every group it names), and reads only theirs: the history and the canaries of its own
 * groups, and the manifest without other groups' canaries. `base` is the manifest
 * version the team's change was made against: if the live manifest has moved on, the answer is 409
 * and nothing changes (compare-and-swap). Every answer is JSON; a refusal is `{ error, message }`.
 *
 * The calls are in api-remotes.ts, api-releases.ts and api-tokens.ts; the refusals in api-errors.ts.
 */
import { sameText } from '@site/serving/signatures';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NAME, type ManifestAnswer } from '@site/contracts/deploy-api';
import { ControlPlaneUnavailableError, type LiveManifest } from '../control-plane';
import { groupLabel } from '../control-plane/tokens';
import type { DeployApiOptions } from './api-context';
import { apiErrors, refuse } from './api-errors';
import { releaseRoutes } from './api-releases';
import { remoteRoutes } from './api-remotes';
import { tokenRoutes } from './api-tokens';
import { OPERATOR, type Credential } from './change';
import { ownCanaries, ownManifest, readable } from './api-reads';

/** What the manifest answer says while the database is out of reach. */
const UNCONFIRMED =
  'the control-plane database is unreachable: this is the manifest this server serves, which a change made meanwhile may have replaced';

export async function deployApi(app: FastifyInstance, options: DeployApiOptions): Promise<void> {
  const credentials = new WeakMap<FastifyRequest, Credential>();
  /** The credential the request was authenticated with (the hook below runs before every route). */
  const credentialOf = (request: FastifyRequest): Credential => credentials.get(request)!;
  // Bodies are JSON alone: Fastify's text/plain parser would hand a JSON body sent as text to the
  // schema as a string, refused as "body must be object" instead of by its type (415).
  app.removeContentTypeParser('text/plain');

  app.addHook('onRequest', async (request, reply) => {
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    // Compared in constant time: the answer's timing tells nothing of the token.
    if (given && sameText(given, options.token)) {
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

  apiErrors(app, options, credentialOf);

  // While the database is out of reach, the manifest this server serves, marked unconfirmed: an
  // operator still reads it, and a command settling a lost answer keeps asking.
  app.get('/manifest', async (request, reply) => {
    const own = (live: LiveManifest) => ownManifest(live.json, credentialOf(request));
    let answer: ManifestAnswer;
    try {
      const live = await options.current();
      answer = { version: live.version, manifest: own(live) };
    } catch (error) {
      if (!(error instanceof ControlPlaneUnavailableError)) throw error;
      const served = await options.served();
      answer = { version: served.version, manifest: own(served), unconfirmed: UNCONFIRMED };
    }
    return reply.header('cache-control', 'no-store').send(answer);
  });

  // Every running canary with its figures and last decision (npm run deploy -- --status).
  app.get('/canaries', async (request, reply) =>
    reply
      .header('cache-control', 'no-store')
      .send(ownCanaries(await options.canaries(), credentialOf(request))),
  );

  app.get<{ Querystring: { remote?: string } }>(
    '/history',
    { schema: { querystring: { type: 'object', properties: { remote: NAME } } } },
    async (request, reply) => {
      const credential = credentialOf(request);
      const { remote } = request.query;
      if (remote !== undefined) readable(credential, remote);
      return reply
        .header('cache-control', 'no-store')
        .send({ history: await options.deployer.history(remote, credential) });
    },
  );

  remoteRoutes(app, options, credentialOf);
  releaseRoutes(app, options, credentialOf);
  tokenRoutes(app, options, credentialOf);
}
