import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { Writable } from 'node:stream';
import { requestLog } from '../middleware/request-log';

/** A logger at `level` whose JSON lines are kept. */
function keptLogger(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level }, stream), lines };
}

test('each request is one line: method, path without its query, status and time, no body', async () => {
  const { logger, lines } = keptLogger('info');
  const app = express();
  app.use(requestLog(logger));
  app.post('/api/sendmail', express.json(), (_req, res) => res.status(202).json({ ok: true }));
  await request(app)
    .post('/api/sendmail?email=someone%40example.com')
    .send({ name: 'Thandi', message: 'Our budget is R 4.2m' })
    .expect(202);
  await request(app).get('/api/health').expect(404);
  expect(lines).toHaveLength(1);
  const [line] = lines;
  expect(line).toMatchObject({
    msg: 'request',
    method: 'POST',
    path: '/api/sendmail',
    status: 202,
  });
  expect(typeof line!.ms).toBe('number');
  expect(JSON.stringify(line)).not.toMatch(/Thandi|budget|someone/);
});

test("a held message's release link is logged without its signature", async () => {
  const { logger, lines } = keptLogger('info');
  const app = express();
  app.use(requestLog(logger));
  await request(app).get('/api/held/42/signature-0123456789abcdef').expect(404);
  expect(lines).toEqual([expect.objectContaining({ path: '/api/held/(link)', status: 404 })]);
});

test('the polled probes are logged at debug level only', async () => {
  const { logger, lines } = keptLogger('debug');
  const app = express();
  app.use(requestLog(logger));
  await request(app).get('/api/health').expect(404);
  expect(lines).toEqual([expect.objectContaining({ level: 20, path: '/api/health', status: 404 })]);
});
