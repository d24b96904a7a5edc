/**
 * One log line per request (method, path, status, time), and `Cache-Control: no-store` on every
 * answer. The probes that are polled (health, ready, metrics) are logged at debug level.
 */
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';

const POLLED = new Set(['/api/health', '/api/ready', '/api/metrics']);

export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const entry = {
        method: req.method,
        path: req.path,
        status: res.statusCode,
        ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
      };
      if (POLLED.has(req.path)) logger.debug(entry, 'request');
      else logger.info(entry, 'request');
    });
    res.set('Cache-Control', 'no-store');
    next();
  };
}
