export { migrate, migrationFiles, type MigrationOptions } from './migrate';
export { listen, type ListenOptions, type Listener } from './listen';
export { databaseUrlProblem, isUnreachable, reasonOf, redactUrl } from './errors';
export { holdConnection, transaction, type HeldConnection } from './transaction';
