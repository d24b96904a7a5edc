import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import {
  accept,
  getCsrf,
  post,
  ready,
  sleep,
  startPerTest,
  tempDir,
  validMessage,
  waitFor,
  type CsrfPair,
} from './helpers';
import { closedPort, type TestSmtp } from './relay';
import { queryOn, testStore } from './stores';
import { startService, type ServiceProcess } from './service-process';

/**
 * Several instances on one PostgreSQL, as a fleet runs them: one outbox, one set of idempotency
 * keys, one rate limit; an instance killed mid-delivery leaves its messages to the others. And the
 * database going away under them: the server is this file's own, to stop and start again.
 */

const store = testStore({ ownServer: true });
const start = startPerTest(store);

/** Runs `sql` on the test database. */
const query = queryOn(store);

describe('three instances, one outbox', () => {
  const dir = tempDir('cluster');
  const children: ChildProcess[] = [];
  let smtp: TestSmtp | undefined;
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await smtp?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('300 messages through all three with the relay down, one instance killed mid-delivery: each arrives, never sent by two at once', async () => {
    const port = await closedPort();
    const instances: ServiceProcess[] = [];
    for (let i = 0; i < 3; i++) {
      const instance = await startService({
        ...store.env,
        DATA_DIR: path.join(dir, `data-${i}`),
        // The EHLO name tells the relay which instance a session came from.
        SMTP_URL: `smtp://127.0.0.1:${port}/?name=instance-${i}`,
        SMTP_CONNECTIONS: '1',
        RETRY_BASE_MS: '200',
        RETRY_MAX_MS: '500',
        RATE_LIMIT_MAX: '1000',
      });
      children.push(instance.child);
      instances.push(instance);
    }
    const csrf: CsrfPair[] = [];
    for (const instance of instances) csrf.push(await getCsrf(instance.url));

    const ids: string[] = [];
    const sendOne = async (n: number) => {
      const i = n % 3;
      const body = { ...validMessage(), message: { subject: `m${n}`, body: `message ${n}` } };
      const res = await post(instances[i]!.url, csrf[i]!, body).expect(202);
      ids.push((res.body as { messageId: string }).messageId);
    };
    let next = 0;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next < 300) await sendOne(next++);
      }),
    );
    expect(new Set(ids).size).toBe(300);
    const queued = await request(instances[1]!.url).get('/api/ready');
    expect(queued.body.messages).toEqual({ queued: 300, delivered: 0, failed: 0, spam: 0 });

    // The relay comes up, slow: each DATA takes 30 ms.
    smtp = await start.relay(port);
    smtp.delayMs = 30;
    const relay = smtp;
    await waitFor(() => relay.received.length >= 30 && relay.sending.includes('instance-0'), {
      timeoutMs: 20_000,
      what: 'instance-0 in the middle of a send',
    });
    instances[0]!.child.kill('SIGKILL');
    await instances[0]!.exited;

    await waitFor(
      async () =>
        (await request(instances[2]!.url).get('/api/ready')).body.messages?.delivered === 300,
      { timeoutMs: 60_000, intervalMs: 200, what: 'all 300 delivered' },
    );
    const received = relay.received.map((r) => r.mail.messageId ?? '');
    expect(new Set(received)).toEqual(new Set(ids.map((id) => `<${id}@highveld-digital.co.za>`)));
    // Only the send in progress when instance-0 died can have arrived twice.
    expect(received.length - 300).toBeLessThanOrEqual(1);

    // No message was ever being sent by two sessions at once.
    const byMessage = new Map<string, { start: number; end: number }[]>();
    for (const s of relay.sessions) {
      const list = byMessage.get(s.messageId ?? '') ?? [];
      list.push(s);
      byMessage.set(s.messageId ?? '', list);
    }
    for (const sessions of byMessage.values()) {
      sessions.sort((a, b) => a.start - b.start);
      for (let i = 1; i < sessions.length; i++) {
        expect(sessions[i]!.start).toBeGreaterThanOrEqual(sessions[i - 1]!.end);
      }
    }
    // Every instance took part.
    const clients = new Set(relay.sessions.map((s) => s.client));
    expect(clients).toEqual(new Set(['instance-0', 'instance-1', 'instance-2']));

    for (const instance of instances.slice(1)) instance.child.kill('SIGTERM');
    for (const instance of instances.slice(1)) {
      expect(await instance.exited).toEqual({ code: 0, signal: null });
    }
  }, 120_000);
});

describe('an instance that stalls mid-delivery', () => {
  const dir = tempDir('stall');
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) {
      if (c.exitCode === null && c.signalCode === null) {
        c.kill('SIGCONT');
        c.kill('SIGKILL');
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });

  test('stopped (SIGSTOP) past its lease, then resumed: it sends nothing whose claim passed on; only its sends in flight are repeated', async () => {
    const smtp = await start.relay();
    // Each DATA takes 400 ms, so an instance's sends are in flight most of the time.
    smtp.delayMs = 400;
    const LEASE_MS = 800;
    const instance = async (name: string) => {
      const service = await startService({
        ...store.env,
        DATA_DIR: path.join(dir, name),
        SMTP_URL: `${smtp.url}/?name=${name}`,
        SMTP_CONNECTIONS: '2',
        CLAIM_LEASE_MS: String(LEASE_MS),
        RATE_LIMIT_MAX: '1000',
      });
      children.push(service.child);
      return service;
    };
    const a = await instance('instance-a');
    const b = await instance('instance-b');
    const csrf = await getCsrf(a.url);
    const total = 30;
    const ids: string[] = [];
    for (let n = 0; n < total; n++) {
      const body = { ...validMessage(), message: { subject: `m${n}`, body: `message ${n}` } };
      ids.push(
        ((await post(a.url, csrf, body).expect(202)).body as { messageId: string }).messageId,
      );
    }

    // A stops while both its connections are in the middle of a DATA, with more claimed behind.
    const inA = () => smtp.sending.filter((client) => client === 'instance-a').length;
    await waitFor(() => inA() === 2, {
      timeoutMs: 20_000,
      what: 'instance-a sending twice at once',
    });
    a.child.kill('SIGSTOP');
    const inFlight = inA();
    // B takes over everything once A's leases lapse, A's sends in flight among them.
    await waitFor(
      async () => (await request(b.url).get('/api/ready')).body.messages?.delivered === total,
      { timeoutMs: 60_000, intervalMs: 200, what: 'instance-b to deliver all' },
    );
    a.child.kill('SIGCONT');
    await request(a.url).get('/api/health').expect(200);
    // Resumed, A has what it claimed before the stop: it must send none of it. Nothing may
    // happen now, so the test waits a while to see that nothing does.
    await sleep(4 * LEASE_MS);

    const received = smtp.received.map((r) => r.mail.messageId ?? '');
    const duplicates = received.length - new Set(received).size;
    process.stdout.write(
      `stalled instance: ${received.length} deliveries of ${total} messages, ${duplicates} duplicate(s), ${inFlight} send(s) in flight when it stopped\n`,
    );
    expect(new Set(received)).toEqual(new Set(ids.map((id) => `<${id}@highveld-digital.co.za>`)));
    expect(duplicates).toBeLessThanOrEqual(inFlight);
    expect((await request(a.url).get('/api/ready')).body.messages?.delivered).toBe(total);

    for (const s of [a, b]) s.child.kill('SIGTERM');
    for (const s of [a, b]) expect(await s.exited).toEqual({ code: 0, signal: null });
  }, 120_000);
});

describe('claims', () => {
  test('a send that outlasts the lease keeps its claim: the other instance does not send the message too', async () => {
    const smtp = await start.relay();
    // Each DATA takes four leases' time; the claim is renewed every third of a lease.
    smtp.delayMs = 1200;
    const env = { SMTP_URL: smtp.url, SMTP_CONNECTIONS: '1', RATE_LIMIT_MAX: '100' };
    const a = start.harness(env, { leaseMs: 300, pollMs: 50 });
    // A second instance on the same database, looking for due messages every 50 ms.
    start.harness(env, { leaseMs: 300, pollMs: 50 });
    const csrf = await getCsrf(a.app);
    for (let i = 0; i < 3; i++) {
      await post(a.app, csrf, { ...validMessage(), message: { subject: `s${i}`, body: 'x' } });
    }
    await waitFor(async () => (await a.outbox.counts()).delivered === 3, {
      timeoutMs: 20_000,
      what: 'all three delivered',
    });
    expect(smtp.received).toHaveLength(3);
    expect(new Set(smtp.received.map((r) => r.mail.messageId)).size).toBe(3);
    expect(smtp.sessions).toHaveLength(3);
  }, 30_000);
});

describe('waking', () => {
  test('a message stored through one instance wakes an idle worker of another at once, not at its next poll', async () => {
    const smtp = await start.relay();
    const env = { SMTP_URL: smtp.url, RATE_LIMIT_MAX: '100' };
    // This instance only takes requests: its worker is stopped.
    const intake = start.harness(env, { pollMs: 60_000 });
    await intake.worker.stop();
    // This one only delivers; it has looked at the empty outbox and would look again in a minute.
    const deliverer = start.harness(env, { pollMs: 60_000 });
    await waitFor(async () => (await request(deliverer.app).get('/api/ready')).status === 200);
    await sleep(300);

    const csrf = await getCsrf(intake.app);
    const stored = Date.now();
    await post(intake.app, csrf, validMessage()).expect(202);
    await waitFor(() => smtp.received.length === 1, { timeoutMs: 5000, what: 'the delivery' });
    expect(Date.now() - stored).toBeLessThan(5000);
  });
});

describe('idempotency keys and the rate limit, shared', () => {
  test('a retried request with the same key through another instance is answered as the first and stored once', async () => {
    const instances = [0, 1, 2].map(() => start.harness({ RATE_LIMIT_MAX: '100' }));
    const key = { 'Idempotency-Key': 'form-7f3a' };
    const csrf = await getCsrf(instances[0]!.app);
    const first = await post(instances[0]!.app, csrf, validMessage(), key).expect(202);
    const again = await post(instances[1]!.app, csrf, validMessage(), key).expect(202);
    expect(again.body).toEqual(first.body);
    const other = { ...validMessage(), message: { subject: 'Another', body: 'Other text' } };
    await post(instances[2]!.app, csrf, other, key).expect(422);

    // The same key through all three at once: one message, one id for all.
    const racing = { 'Idempotency-Key': 'form-race' };
    const answers = await Promise.all(
      instances.map((h) => post(h.app, csrf, validMessage(), racing).expect(202)),
    );
    expect(new Set(answers.map((a) => (a.body as { messageId: string }).messageId)).size).toBe(1);

    const rows = await query<{ n: number }>('SELECT COUNT(*)::integer AS n FROM mail_messages');
    expect(rows[0]?.n).toBe(2);
  });

  test('the rate limit counts a client across instances', async () => {
    const instances = [0, 1, 2].map(() => start.harness({ RATE_LIMIT_MAX: '5' }));
    const csrf = await getCsrf(instances[0]!.app);
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) {
      const h = instances[i % 3]!;
      const res = await post(h.app, csrf, {
        ...validMessage(),
        message: { subject: `s${i}`, body: 'x' },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429, 429, 429, 429]);
    // Counters hold a hash of the client, not its address.
    const keys = await query<{ key: string }>('SELECT key FROM mail_rate_limits');
    expect(keys).toHaveLength(1);
    expect(keys[0]?.key).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('the database down', () => {
  test('no false 202: requests are 503 and readiness is red while PostgreSQL is down; then all is delivered', async () => {
    const smtp = await start.relay();
    const h = start.harness({ SMTP_URL: smtp.url, RATE_LIMIT_MAX: '100' }, { pollMs: 100 });
    const csrf = await getCsrf(h.app);
    const before = await post(h.app, csrf, validMessage()).expect(202);
    await waitFor(() => smtp.received.length === 1);

    await store.postgres!.pause();
    try {
      const refused = await post(h.app, csrf, validMessage());
      expect(refused.status).toBe(503);
      expect(refused.body.error).toBe('storage_unavailable');
      expect(refused.headers['retry-after']).toBe('60');
      const red = await request(h.app).get('/api/ready');
      expect(red.status).toBe(503);
      expect(red.body.problems).toContain('outbox_not_writable');
    } finally {
      await store.postgres!.resume();
    }
    const after = await waitFor(async () => {
      const res = await post(h.app, csrf, validMessage());
      return res.status === 202 && (res.body as { messageId: string });
    });
    await waitFor(() => smtp.received.length === 2, { what: 'the message after the outage' });
    expect(smtp.received.map((r) => r.mail.messageId)).toEqual([
      `<${(before.body as { messageId: string }).messageId}@highveld-digital.co.za>`,
      `<${after.messageId}@highveld-digital.co.za>`,
    ]);
    await waitFor(async () => (await request(h.app).get('/api/ready')).status === 200, {
      what: 'readiness green again',
    });
  }, 60_000);
});

describe('the database away while delivery results are recorded', () => {
  test('each message is sent once; delivery waits, readiness is red until the database is back', async () => {
    const smtp = await start.relay();
    // Each DATA takes a second: the database goes away while a send is in flight.
    smtp.delayMs = 1000;
    const h = start.harness({ SMTP_URL: smtp.url, RATE_LIMIT_MAX: '100' }, { pollMs: 100 });
    const ids = [await accept(h), await accept(h), await accept(h)];
    const relay = smtp;
    await waitFor(() => relay.sending.length > 0, { what: 'a send in flight' });

    await store.postgres!.pause();
    try {
      const halted = await waitFor(async () => {
        const r = await ready(h);
        return r.delivery.recording === false && r;
      });
      expect(halted.code).toBe(503);
      expect(halted.problems).toContain('results_not_recorded');
      await sleep(1500);
      // Nothing is sent again while a result cannot be written, and nothing new is started.
      const sent = smtp.received.map((r) => r.mail.messageId);
      expect(new Set(sent).size).toBe(sent.length);
      expect(smtp.sending).toEqual([]);
    } finally {
      await store.postgres!.resume();
    }
    const recovered = await waitFor(
      async () => {
        const r = await ready(h);
        return r.code === 200 && r.messages.delivered === 3 && r;
      },
      { timeoutMs: 30_000, what: 'recovery once the database is back' },
    );
    expect(recovered.messages.queued).toBe(0);
    expect(smtp.received.map((r) => r.mail.messageId).sort()).toEqual(
      ids.map((id) => `<${id}@highveld-digital.co.za>`).sort(),
    );
  }, 60_000);
});

describe('the database unreachable, as an operator and a client see it', () => {
  test('every request that needs the database is a 503 with Retry-After, never a 500; the log says the database cannot be reached', async () => {
    const dir = tempDir('outage');
    const service = await startService({
      ...store.env,
      DATA_DIR: path.join(dir, 'data'),
      MAILBOX_DIR: path.join(dir, 'mailbox'),
      METRICS_TOKEN: 'metrics-token-0123456789',
      RATE_LIMIT_MAX: '100',
    });
    try {
      const csrf = await getCsrf(service.url);
      // The server secret is kept in the database; this instance has not read it yet.
      await store.postgres!.pause();
      try {
        const answers = {
          formToken: await request(service.url).get('/api/form-token'),
          sendmail: await post(service.url, csrf, validMessage()),
          replay: await post(service.url, csrf, validMessage(), { 'Idempotency-Key': 'k-9' }),
          metrics: await request(service.url)
            .get('/api/metrics')
            .set('Authorization', 'Bearer metrics-token-0123456789'),
          held: await request(service.url).get(
            `/api/held/00000000-0000-4000-8000-000000000000/${'A'.repeat(43)}`,
          ),
        };
        for (const [what, res] of Object.entries(answers)) {
          expect({ what, status: res.status, retryAfter: res.headers['retry-after'] }).toEqual({
            what,
            status: 503,
            retryAfter: '60',
          });
        }
        expect(answers.sendmail.body.error).toBe('storage_unavailable');
        expect((await request(service.url).get('/api/ready')).status).toBe(503);
        await request(service.url).get('/api/health').expect(200);
      } finally {
        await store.postgres!.resume();
      }
      const logs = service.logs.join('\n');
      expect(logs).toMatch(/the database \(DATABASE_URL\) cannot be reached/);
      await waitFor(
        async () => (await request(service.url).get('/api/form-token')).status === 200,
        {
          what: 'form tokens again once the database is back',
        },
      );
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
