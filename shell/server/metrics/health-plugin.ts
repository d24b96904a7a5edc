/**
 * What a load balancer or an operator asks a replica about itself:
 *
 * - `GET /_health` (liveness): 200 whenever the process answers at all. A replica that does not
 *   answer it is hung or gone, and restarting it is the cure.
 * - `GET /_ready` (readiness): 200 when it can serve as it should, 503 with the reasons when not:
 *   the control plane's database is out of reach (the last manifest read is still served, deploys
 *   are refused), or the shell's render processes are not up. Not ready is no reason to restart it:
 *   it gets well by itself once what it waits for is back. Groups whose pages were served from their
 *   last good composition lately (their render failing) are named too (`lastGood`): the site still
 *   serves them, so it is ready, but an operator should look.
 *
 * With a replica name (REPLICA_NAME), every answer says which replica gave it (`X-Replica`), so an
 * operator can tell the replicas apart through the load balancer.
 */
import fp from 'fastify-plugin';

export const REPLICA_HEADER = 'x-replica';

/** How long `/_ready` waits for the shell's render processes to start before it says they are not. */
const RENDER_WAIT_MS = 1000;

/** How recently a group's pages must have stood in for `/_ready` to name it. */
const LAST_GOOD_WITHIN_MS = 5 * 60 * 1000;

export default fp(
  async (app) => {
    // This replica's name, sent in `X-Replica` with every answer (REPLICA_NAME); none without it.
    const replicaName = app.config.REPLICA_NAME;
    if (replicaName) {
      app.addHook('onRequest', async (_request, reply) => {
        reply.header(REPLICA_HEADER, replicaName);
      });
    }
    const noStore = { 'cache-control': 'no-store' };

    app.get('/_health', async (_request, reply) =>
      reply
        .headers(noStore)
        .send({ status: 'ok', ...(replicaName ? { replica: replicaName } : {}) }),
    );

    app.get('/_ready', async (_request, reply) => {
      const problems: string[] = [];
      if (!app.controlPlane.reachable()) {
        problems.push('the control-plane database is unreachable: deploys are refused');
      }
      const shell = app.renderPools().shell;
      if (shell.running === 0) {
        // A render process that died is started again on demand: this asks for one, so readiness
        // comes back by itself.
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          shell.warm().catch(() => undefined),
          new Promise((resolve) => (timer = setTimeout(resolve, RENDER_WAIT_MS))),
        ]);
        clearTimeout(timer);
        if (shell.running === 0) problems.push('no render process of the shell is up');
      }
      const lastGood = app.metrics.lastGoodRecently(LAST_GOOD_WITHIN_MS);
      return reply
        .code(problems.length ? 503 : 200)
        .headers(noStore)
        .send({
          status: problems.length ? 'not ready' : 'ready',
          ...(replicaName ? { replica: replicaName } : {}),
          manifest: app.controlPlane.peek()?.version ?? null,
          problems,
          ...(lastGood.length ? { lastGood } : {}),
        });
    });
  },
  { name: 'health', dependencies: ['control-plane', 'metrics', 'render'] },
);
