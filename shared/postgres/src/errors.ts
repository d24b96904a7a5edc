import { types } from 'node:util';
import { DatabaseError } from 'pg';

/** An Error, also one made in another realm (Node's own modules seen from a VM context). */
const isError = (error: unknown): error is Error =>
  error instanceof Error || types.isNativeError(error);

/**
 * Whether an error says the database could not be reached, rather than that it refused a
 * statement: a connection exception, an operator intervention (shutdown, recovery) or a lack of
 * resources by its SQLSTATE class, or no answer at all (a socket error, a time-out, "Connection
 * terminated": pg reports those as plain errors, never as a DatabaseError).
 */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof DatabaseError) return /^(08|57P|53)/.test(error.code ?? '');
  return isError(error);
}

/** What went wrong, in a few words: the message, or the code of an error that has none. */
export function reasonOf(error: unknown): string {
  if (!isError(error)) return String(error);
  const code = (error as { code?: unknown }).code;
  // Node's AggregateError for a refused connection has no message, only a code.
  return error.message || (typeof code === 'string' ? code : error.name);
}

/** A database URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href;
  } catch {
    return 'the configured URL';
  }
}

/**
 * What is wrong with a DATABASE_URL, or undefined when it names a PostgreSQL database: the one rule
 * of the site server and the mail-service. The URL may hold a password, so it is described, never
 * echoed.
 */
export function databaseUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not a URL (expected postgres://user:password@host:5432/database)';
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    return 'must start with postgres:// or postgresql://';
  }
  if (!url.hostname && !url.searchParams.get('host')) return 'names no host';
  if (url.pathname.length <= 1) return 'names no database (postgres://host/database)';
  return undefined;
}
