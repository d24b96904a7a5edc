import request from 'supertest';
import { getCsrf, post, startPerTest, validMessage, waitFor } from './helpers';

describe('clients and operations', () => {
  const start = startPerTest();

  const from = (ip: string) => ({ 'X-Forwarded-For': ip });

  describe('client identity', () => {
    test('by default X-Forwarded-For is not believed: 20 forged addresses get 5 messages, not 20', async () => {
      const h = start.harness({ RATE_LIMIT_MAX: '5' });
      const csrf = await getCsrf(h.app);
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) {
        const forged = i % 2 ? `203.0.113.${i}` : `anything-${i}`;
        statuses.push((await post(h.app, csrf, validMessage(), from(forged))).status);
      }
      expect(statuses.filter((s) => s === 202)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    });

    test('IPv6 clients are counted by their /64', async () => {
      const h = start.harness({ RATE_LIMIT_MAX: '1', TRUST_PROXY: 'loopback' });
      const csrf = await getCsrf(h.app);
      await post(h.app, csrf, validMessage(), from('2001:db8:1:2::1')).expect(202);
      await post(h.app, csrf, validMessage(), from('2001:db8:1:2::ffff')).expect(429);
      await post(h.app, csrf, validMessage(), from('2001:db8:1:3::1')).expect(202);
    });
  });

  describe('Idempotency-Key bound to the client and the message', () => {
    test('the same key with a different message is a 422 that says so, and stores nothing', async () => {
      const h = start.harness({ RATE_LIMIT_MAX: '100' });
      const csrf = await getCsrf(h.app);
      const key = { 'Idempotency-Key': 'k-1' };
      const first = await post(h.app, csrf, validMessage(), key).expect(202);
      const other = { ...validMessage(), message: { subject: 'Another', body: 'Other text' } };
      const res = await post(h.app, csrf, other, key).expect(422);
      expect(res.body).toEqual({
        error: 'idempotency_key_reused',
        message: expect.stringMatching(/already used for a different message/),
      });
      const again = await post(h.app, csrf, validMessage(), key).expect(202);
      expect(again.body.messageId).toBe(first.body.messageId);
      const counts = await h.outbox.counts();
      expect(counts.queued + counts.delivered).toBe(1);
    });

    test('another client using the same key gets a message of its own', async () => {
      const h = start.harness({ RATE_LIMIT_MAX: '100', TRUST_PROXY: 'loopback' });
      const csrf = await getCsrf(h.app);
      const key = { 'Idempotency-Key': 'shared-key' };
      const a = await post(h.app, csrf, validMessage(), { ...key, ...from('198.51.100.1') });
      const b = await post(h.app, csrf, validMessage(), { ...key, ...from('198.51.100.2') });
      expect(a.status).toBe(202);
      expect(b.status).toBe(202);
      expect(b.body.messageId).not.toBe(a.body.messageId);
    });
  });

  describe('fair delivery', () => {
    test('a message from a new client is delivered ahead of a flood from another', async () => {
      const smtp = await start.relay();
      smtp.delayMs = 20;
      const h = start.harness({
        SMTP_URL: smtp.url,
        RATE_LIMIT_MAX: '1000',
        TRUST_PROXY: 'loopback',
        SMTP_CONNECTIONS: '1',
      });
      const csrf = await getCsrf(h.app);
      const flood = Array.from({ length: 60 }, (_, i) => ({
        ...validMessage(),
        message: { subject: `flood ${i}`, body: 'x' },
      }));
      await Promise.all(flood.map((m) => post(h.app, csrf, m, from('203.0.113.66')).expect(202)));
      await post(
        h.app,
        csrf,
        { ...validMessage(), message: { subject: 'A real enquiry', body: 'Hello' } },
        from('198.51.100.7'),
      ).expect(202);
      const position = await waitFor(() => {
        const i = smtp.received.findIndex((r) => r.mail.subject?.endsWith('A real enquiry'));
        return i >= 0 ? i : undefined;
      });
      expect(position).toBeLessThan(25);
    });

    test('deliveries go on while requests keep arriving', async () => {
      const smtp = await start.relay();
      const h = start.harness({ SMTP_URL: smtp.url, RATE_LIMIT_MAX: '100000' });
      const csrf = await getCsrf(h.app);
      const end = Date.now() + 2000;
      let accepted = 0;
      const lane = async () => {
        while (Date.now() < end) {
          if ((await post(h.app, csrf, validMessage())).status === 202) accepted += 1;
        }
      };
      const before = smtp.received.length;
      await Promise.all(Array.from({ length: 10 }, lane));
      const during = smtp.received.length - before;
      expect(accepted).toBeGreaterThan(50);
      // Delivery is not starved: it keeps a real share while requests keep coming. (Starved, it
      // delivers next to nothing; its share here is 8 to 13 % on a busy two-core machine, so the
      // bar is set where a machine's load cannot cross it and starvation cannot reach it.)
      expect(during).toBeGreaterThan(accepted / 25);
    });
  });

  describe('retention', () => {
    test('delivered messages lose their personal data after RETENTION_DAYS, spam (once in a digest) is deleted sooner', async () => {
      let now = Date.now();
      const h = start.harness(
        { RATE_LIMIT_MAX: '100', RETENTION_DAYS: '30', SPAM_RETENTION_DAYS: '2' },
        { now: () => now, digestEveryMs: 0 },
      );
      const csrf = await getCsrf(h.app);
      const res = await post(h.app, csrf, validMessage()).expect(202);
      await post(h.app, csrf, { ...validMessage(), website: 'spam' }).expect(202);
      await waitFor(async () => (await h.outbox.counts()).delivered === 1);
      expect(await h.service.sendDigest()).toBe(1);

      now += 3 * 86_400_000;
      expect(await h.service.applyRetention()).toEqual({ redacted: 0, deleted: 1 });
      now += 28 * 86_400_000;
      expect(await h.service.applyRetention()).toEqual({ redacted: 1, deleted: 0 });
      const [row] = await h.outbox.list({ ids: [res.body.messageId], withContent: true });
      expect(row).toMatchObject({ status: 'delivered', redacted: true, payload: null });
      expect(row?.emailDomain).toBe('example.co.za');
      expect(await h.outbox.counts()).toMatchObject({ delivered: 1, spam: 0 });
    });
  });

  describe('metrics', () => {
    const TOKEN = 'metrics-token-0123456789';

    test('there is no metrics endpoint unless METRICS_TOKEN is set', async () => {
      const h = start.harness();
      await request(h.app).get('/api/metrics').expect(404);
    });

    test('with the token: counts by state, oldest queued age, delivery latency', async () => {
      const h = start.harness({ METRICS_TOKEN: TOKEN });
      const csrf = await getCsrf(h.app);
      await post(h.app, csrf, validMessage()).expect(202);
      await waitFor(async () => (await h.outbox.counts()).delivered === 1);
      await request(h.app).get('/api/metrics').set('Authorization', 'Bearer wrong').expect(404);
      const res = await request(h.app)
        .get('/api/metrics')
        .set('Authorization', `Bearer ${TOKEN}`)
        .expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.text).toContain('mail_outbox_messages{state="delivered"} 1');
      expect(res.text).toContain('mail_outbox_oldest_queued_age_seconds 0');
      expect(res.text).toMatch(/mail_delivery_latency_seconds_count 1/);
      expect(res.text).toContain('mail_delivery_attempts_total{outcome="delivered",kind="none"} 1');
    });
  });
});
