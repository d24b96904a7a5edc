/**
 * One server under test, in its own process so that it does not share an event loop with the
 * load generator: `durable` is the real app (outbox and rate limit in the bench's PostgreSQL, CSRF,
 * delivery running),
 * `bare` is Express parsing the same JSON and answering 202. Reports its port over IPC.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import express from 'express';
import pino from 'pino';
import { loadConfig } from '../src/config';
import { createService } from '../src/service';

const kind = process.argv[2];
const dir = process.env.BENCH_DIR;
const database = process.env.BENCH_DATABASE_URL;
if ((kind !== 'durable' && kind !== 'bare') || !dir || (kind === 'durable' && !database)) {
  throw new Error(
    'usage: target.ts durable|bare, with BENCH_DIR (and for durable BENCH_DATABASE_URL) set',
  );
}

let stop: () => Promise<Record<string, unknown>> = async () => ({});
let app: http.RequestListener;

if (kind === 'bare') {
  const bare = express();
  bare.post('/api/sendmail', express.json({ limit: '16kb' }), (_req, res) => {
    res.status(202).json({ messageId: randomUUID() });
  });
  app = bare;
} else {
  const config = loadConfig({
    DATABASE_URL: database,
    MAILBOX_DIR: path.join(dir, 'mailbox'),
    RATE_LIMIT_MAX: '1000000000',
    LOG_LEVEL: 'silent',
    ...(process.env.BENCH_SMTP_URL ? { SMTP_URL: process.env.BENCH_SMTP_URL } : {}),
  });
  const service = createService(config, {
    logger: pino({ level: 'silent' }),
    ...(process.env.BENCH_IN_FLOW_DELAY_MS
      ? { inFlowDelayMs: Number(process.env.BENCH_IN_FLOW_DELAY_MS) }
      : {}),
  });
  if (!process.env.BENCH_NO_WORKER) void service.start();
  app = service.app;
  // The parent asks for the delivered count during the load, to measure delivery under it.
  process.on('message', (m) => {
    if (m === 'counts') void service.outbox.counts().then((live) => process.send?.({ live }));
  });
  stop = async () => {
    const counts = await service.outbox.counts();
    await service.stop();
    return counts;
  };
}

const server = http.createServer(app);
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
process.on('message', (m) => {
  if (m !== 'stop') return;
  server.close();
  server.closeAllConnections();
  void stop().then((counts) => {
    process.send?.({ counts }, () => process.exit(0));
  });
});
