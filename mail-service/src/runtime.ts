/**
 * Imported first by the server and the command line: the local outbox needs Node's built-in SQLite
 * (`node:sqlite`, Node.js 22.13 and newer). Started by an older Node, the service stops with a
 * message saying which Node to use, instead of an unknown-module stack trace.
 */
import { isBuiltin } from 'node:module';

if (!isBuiltin('node:sqlite')) {
  process.stderr.write(
    `mail-service: Node.js ${process.versions.node} has no built-in SQLite (node:sqlite). ` +
      'Run it on the Node.js 24 LTS the project pins: through npm (npm start, npm run start -w ' +
      'mail-service), or with the version in .nvmrc.\n',
  );
  process.exit(1);
}
