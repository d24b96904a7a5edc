import request from 'supertest';
import { RETENTION_DEFAULTS } from '@site/contracts/contact/retention';
import { startPerTest } from './helpers';

/** The site's privacy notice states what GET /api/privacy answers: the figures the outbox runs with. */
describe('GET /api/privacy', () => {
  const run = startPerTest();

  test('by default: the figures the notice is written with', async () => {
    const { app, config } = run.harness();
    const res = await request(app).get('/api/privacy');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(RETENTION_DEFAULTS);
    expect(res.body).toEqual({
      retentionDays: config.RETENTION_DAYS,
      spamRetentionDays: config.SPAM_RETENTION_DAYS,
      queueLifetimeSeconds: config.QUEUE_LIFETIME,
      rateLimitWindowSeconds: config.RATE_LIMIT_WINDOW,
    });
  });

  test('a changed setting is what the notice is told', async () => {
    const app = run.harness({ RETENTION_DAYS: '45', SPAM_RETENTION_DAYS: '3' }).app;
    const res = await request(app).get('/api/privacy');
    expect(res.body).toMatchObject({ retentionDays: 45, spamRetentionDays: 3 });
  });
});
