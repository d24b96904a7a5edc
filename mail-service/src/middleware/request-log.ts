/**
 * One log line per request (method, path, status, time: @site/serving's request log, as the site
 * server writes it), and `Cache-Control: no-store` on every answer. The probes that are polled
 * (health, ready, metrics) are logged at debug level.
 */
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { logRequest } from '@site/serving/request-log';
import { RELEASE_PATH } from '../delivery/digest';

const POLLED = new Set(['/api/health', '/api/ready', '/api/metrics']);

/** A held message's release link carries its signature: the log names the link, never it. */
const shown = (path: string) =>
  path.startsWith(`${RELEASE_PATH}/`) ? `${RELEASE_PATH}/(link)` : path;

export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logRequest(
        logger,
        { method: req.method, path: shown(req.path), status: res.statusCode, ms },
        POLLED.has(req.path),
      );
    });
    res.set('Cache-Control', 'no-store');
    next();
  };
}
