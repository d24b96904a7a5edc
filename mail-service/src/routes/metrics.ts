/**
 * GET /api/metrics: the Prometheus metrics, for a scraper holding METRICS_TOKEN. Not public by
 * default: without the token there is nothing here (the site forwards all of /api/* to this
 * service).
 */
import type { RequestHandler } from 'express';
import type { Config } from '../config';
import { tokensMatch } from '../csrf';
import { sendError, storageUnavailable } from '../errors';
import type { Metrics } from '../metrics';

export interface MetricsRouteDeps {
  config: Pick<Config, 'METRICS_TOKEN'>;
  metrics?: Metrics | undefined;
}

export function metricsEndpoint({ config, metrics }: MetricsRouteDeps): RequestHandler {
  return async (req, res) => {
    const auth = req.get('authorization') ?? '';
    const token = auth.startsWith('Bearer ') ? auth.slice('Bearer '.length) : '';
    if (!config.METRICS_TOKEN || !metrics || !tokensMatch(token, config.METRICS_TOKEN)) {
      return sendError(res, 404, 'not_found', 'There is nothing at this address.');
    }
    let text: string;
    try {
      text = await metrics.registry.metrics();
    } catch {
      // The outbox's figures are read at scrape time: none while the database cannot be read.
      return storageUnavailable(res, 'The outbox cannot be read just now.');
    }
    res.type(metrics.registry.contentType).send(text);
  };
}
