/**
 * The control plane (PostgreSQL, shared by every replica): the live manifest, its history and the
 * groups' deploy tokens. `app.live()` is the manifest every request starts from; whoever
 * must act when it changes (the render processes of a version that is no longer live) is told.
 */
import path from 'node:path';
import fp from 'fastify-plugin';
import type { ControlPlane, LiveManifest } from './index';
import { PostgresControlPlane } from './postgres';

declare module 'fastify' {
  interface FastifyInstance {
    controlPlane: ControlPlane;
    /** The live manifest (at once when it is known to be current). */
    live(): Promise<LiveManifest> | LiveManifest;
    /** Called with the live manifest whenever a new version of it is first seen. */
    onLive(listener: (live: LiveManifest) => void): void;
  }
}

export default fp(
  async (app) => {
    const store = new PostgresControlPlane({
      url: app.config.DATABASE_URL,
      deployDir: path.resolve(app.config.DEPLOY_DIR),
      log: app.log.child({ part: 'control-plane' }),
    });
    await store.start();
    const listeners: ((live: LiveManifest) => void)[] = [];
    let seen = '';
    const notice = (live: LiveManifest): LiveManifest => {
      if (live.version !== seen) {
        seen = live.version;
        for (const listener of listeners) listener(live);
      }
      return live;
    };
    app.decorate('controlPlane', store);
    app.decorate('live', () => {
      const known = store.peek();
      return known ? notice(known) : store.get().then(notice);
    });
    app.decorate('onLive', (listener: (live: LiveManifest) => void) => {
      listeners.push(listener);
    });
    app.addHook('onClose', () => store.close());
  },
  { name: 'control-plane' },
);
