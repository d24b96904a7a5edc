/**
 * One log line per request, the same for every server of ours (the site server and the
 * mail-service): method, path (never the query, which may carry what a visitor typed), status and
 * time in milliseconds, under the message "request". Nothing of a body or a header is logged. `npm
 * start` shows it as `GET /contact 200 3.1 ms` (scripts/lib/processes.ts).
 */
import pino from 'pino';

/** The most log text a server holds while its output is not taken in; more is dropped. */
export const LOG_BUFFER_BYTES = 16 * 1024 * 1024;

/** Log lines this process dropped because its output was not taken in. */
let dropped = 0;

/**
 * Where a server's log lines go (standard output or error), written asynchronously (pino's
 * destination, sonic-boom): the lines of many requests go out in one write, and a reader that stops
 * taking them in (a full pipe) never holds up an answer; beyond LOG_BUFFER_BYTES lines are dropped
 * (and counted: `droppedSinceLastCall`), and what is held is written when the process exits.
 */
export function logDestination(fd: 1 | 2) {
  const destination = pino.destination({ dest: fd, sync: false, maxLength: LOG_BUFFER_BYTES });
  destination.on('drop', (data: string | Buffer) => {
    const text = String(data);
    dropped += Math.max(1, text.split('\n').length - 1);
  });
  return destination;
}

/**
 * For a metric of dropped log lines read at scrape time: each call of what this returns gives the
 * lines this process dropped since the call before.
 */
export function droppedSinceLastCall(): () => number {
  let seen = 0;
  return () => {
    const added = dropped - seen;
    seen = dropped;
    return added;
  };
}

export interface RequestEntry {
  method: string;
  path: string;
  status: number;
  ms: number;
}

/** What a logger needs to take a request line (pino's). */
interface RequestLogger {
  info(entry: RequestEntry, message: string): void;
  debug(entry: RequestEntry, message: string): void;
}

const REQUEST_MESSAGE = 'request';

/** The path of a request target, without its query or fragment. */
export const pathOf = (target: string): string => target.replace(/[?#].*$/s, '');

/**
 * Logs a request; one a probe polls (health, readiness, metrics) at debug level, so that a log at
 * info shows what people and clients asked.
 */
export function logRequest(logger: RequestLogger, entry: RequestEntry, polled = false): void {
  const line = { ...entry, ms: Math.round(entry.ms * 10) / 10 };
  if (polled) logger.debug(line, REQUEST_MESSAGE);
  else logger.info(line, REQUEST_MESSAGE);
}

/** A request line as a person reads it: `GET /contact 200 3.1 ms`; undefined for any other record. */
export function requestLine(record: Record<string, unknown>): string | undefined {
  const { msg, method, path, status, ms } = record;
  if (msg !== REQUEST_MESSAGE || typeof method !== 'string' || typeof path !== 'string')
    return undefined;
  return `${method} ${path} ${String(status)} ${String(ms)} ms`;
}
