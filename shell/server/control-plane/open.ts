import path from 'node:path';
import { FileControlPlane } from './files';
import type { ControlPlane } from './index';
import { PostgresControlPlane } from './postgres';
import type { LastGoodStore } from '../pages/last-good';
import type { Logger } from '../http/logger';
import { FileLastGoodStore } from './last-good-files';
import { PostgresLastGoodStore } from './last-good-postgres';

/**
 * The control plane a site server was configured with: PostgreSQL when it has a database URL
 * (replicas share it), else the files in DEPLOY_DIR (one server, nothing else to run).
 */
export function openControlPlane(options: {
  deployDir: string;
  databaseUrl?: string | undefined;
  log: Logger;
}): ControlPlane {
  const deployDir = path.resolve(options.deployDir);
  return options.databaseUrl
    ? new PostgresControlPlane({ url: options.databaseUrl, deployDir, log: options.log })
    : new FileControlPlane(deployDir, options.log);
}

/** Where the last good pages are kept: beside the live manifest, in its database or its folder. */
export function openLastGoodStore(options: {
  deployDir: string;
  databaseUrl?: string | undefined;
}): LastGoodStore {
  return options.databaseUrl
    ? new PostgresLastGoodStore(options.databaseUrl)
    : new FileLastGoodStore(path.resolve(options.deployDir));
}
