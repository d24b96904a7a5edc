import { logDestination, requestLine } from '@site/serving/request-log';

/**
 * What the site server's parts log with: Fastify's logger (pino), or a child of it that names the
 * part (`{ part: 'render' }`). A part takes the three levels it uses, so a test can hand it a
 * logger that keeps the lines.
 */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** A logger that hands each message to `write`, whatever its level. */
export function lineLogger(write: (line: string) => void): Logger {
  return { info: write, warn: write, error: write };
}

/**
 * Fastify's logger options for `createSite`: JSON lines on stderr, or each message handed to
 * `write` (what the tests read; a request's line as `GET /about 200 1.2 ms`). What a request logs
 * carries its id.
 * Standard error is written asynchronously (@site/serving's `logDestination`).
 */
export function loggerOptions(write?: (line: string) => void, level = 'info') {
  if (!write) {
    return { level, stream: logDestination(2) };
  }
  return {
    level,
    stream: {
      write(line: string) {
        try {
          const record = JSON.parse(line) as Record<string, unknown>;
          write(requestLine(record) ?? String(record.msg ?? line));
        } catch {
          write(line);
        }
      },
    },
  };
}
