import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { simpleParser } from 'mailparser';
import type { AddressObject } from 'mailparser';
import { backoffMs } from '../delivery/failures';
import { accept, ready, startPerTest, waitFor } from './helpers';
import { closedPort, type TestSmtp } from './relay';

const one = (a: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(a) ? a : a ? [a] : []).flatMap((x) => x.value);

describe('delivery over SMTP', () => {
  const start = startPerTest();
  let smtp: TestSmtp;

  beforeEach(async () => {
    smtp = await start.relay();
  });

  /** A service whose relay is down (its port closed), retrying quickly and without end. */
  async function withRelayDown() {
    const port = await closedPort();
    const h = start.harness({
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      RETRY_BASE_MS: '50',
      RETRY_MAX_MS: '200',
      MAX_ATTEMPTS: '1000',
    });
    await smtp.close();
    return { h, port };
  }

  test('the message arrives with the right From, To, Reply-To, Subject, Message-ID and body', async () => {
    const h = start.harness({ SMTP_URL: smtp.url });
    const body = {
      user: { name: 'Zoë "Z" <O\'Neill>', email: 'zoe@example.org' },
      message: {
        subject: 'Quote for a <b>new</b> site & app',
        body: 'Hi there,\r\n.\r\nRCPT TO:<victim@attacker.test>\r\n<script>alert(1)</script>\n\nZoë',
      },
    };
    const id = await accept(h, body);
    const { mail, envelope } = await waitFor(() => smtp.received.length === 1 && smtp.received[0]);

    expect(one(mail.from)).toEqual([
      { name: 'Highveld Digital website', address: 'website@highveld-digital.co.za' },
    ]);
    expect(one(mail.to)).toEqual([{ name: '', address: 'hello@highveld-digital.co.za' }]);
    expect(one(mail.replyTo)).toEqual([{ name: 'Zoë "Z" <O\'Neill>', address: 'zoe@example.org' }]);
    expect(mail.subject).toBe('Website enquiry: Quote for a <b>new</b> site & app');
    expect(mail.messageId).toBe(`<${id}@highveld-digital.co.za>`);
    // The SMTP envelope is the company's: the visitor's text cannot add a recipient.
    expect(envelope.mailFrom && envelope.mailFrom.address).toBe('website@highveld-digital.co.za');
    expect(envelope.rcptTo.map((r) => r.address)).toEqual(['hello@highveld-digital.co.za']);

    expect(mail.text).toContain('RCPT TO:<victim@attacker.test>');
    expect(mail.text).toContain('Name:    Zoë "Z" <O\'Neill>');
    expect(mail.text).toContain('E-mail:  zoe@example.org');
    const html = String(mail.html);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('Quote for a &lt;b&gt;new&lt;/b&gt; site &amp; app');
    expect(html).toContain('Zoë &quot;Z&quot; &lt;O&#39;Neill&gt;');
    expect(html).not.toMatch(/<script>|<b>new/);

    // No header beyond these: the visitor's text is only in Subject and Reply-To.
    expect([...mail.headers.keys()].sort()).toEqual([
      'content-type',
      'date',
      'from',
      'message-id',
      'mime-version',
      'reply-to',
      'subject',
      'to',
    ]);
    expect((await ready(h)).messages).toMatchObject({ delivered: 1, queued: 0 });
  });

  test('SMTP down when the message is accepted, then up: it arrives', async () => {
    const { h, port } = await withRelayDown();
    const id = await accept(h);

    const down = await waitFor(async () => {
      const r = await ready(h);
      return r.delivery.working === false && r;
    });
    expect(down.status).toBe('not_ready');
    expect(down.messages.queued).toBe(1);
    expect(down.delivery.lastError).toMatch(/^E[A-Z]+/);

    smtp = await start.relay(port);
    const { mail } = await waitFor(() => smtp.received[0]);
    expect(mail.messageId).toBe(`<${id}@highveld-digital.co.za>`);
    // The relay has the message; the outbox records it as delivered a moment after the send.
    const up = await waitFor(async () => {
      const r = await ready(h);
      return r.status === 'ready' && r.messages.delivered === 1 && r;
    });
    expect(up.messages).toMatchObject({ queued: 0, delivered: 1 });
    expect(smtp.received).toHaveLength(1);
  });

  test('a queued message whose stored form can no longer be read is set aside as failed; the ones behind it still arrive', async () => {
    const { h, port } = await withRelayDown();
    const broken = await accept(h);
    const fine = await accept(h);
    // The first one's stored payload is damaged in the database itself (a bad restore, a hand edit).
    const client = new Client({ connectionString: h.config.DATABASE_URL });
    await client.connect();
    await client.query(`UPDATE mail_messages SET payload = '{"user":' WHERE id = $1`, [broken]);
    await client.end();
    // Set aside at its next attempt, relay or not. (An attempt under way may have read the payload
    // before the damage: the relay comes up only once the damage has been read.)
    await waitFor(async () => (await h.outbox.statusOf(broken))?.status === 'failed');

    smtp = await start.relay(port);
    const { mail } = await waitFor(() => smtp.received[0]);
    expect(mail.messageId).toBe(`<${fine}@highveld-digital.co.za>`);
    const [failed] = await h.outbox.list({ status: 'failed', limit: 10 });
    expect(failed).toMatchObject({ id: broken, lastError: 'unreadable payload' });
    // It holds readiness red until an operator has looked at it.
    const r = await waitFor(async () => {
      const now = await ready(h);
      return now.messages.delivered === 1 && now;
    });
    expect(r.messages).toMatchObject({ queued: 0, delivered: 1, failed: 1 });
    expect(r.status).toBe('not_ready');
    expect(smtp.received).toHaveLength(1);
  });

  test('with nothing queued, /api/ready notices the relay going down and coming back', async () => {
    const port = await closedPort();
    await smtp.close();
    const h = start.harness({ SMTP_URL: `smtp://127.0.0.1:${port}` }, { pollMs: 100 });
    await h.worker.verify();
    const down = await request(h.app).get('/api/ready').expect(503);
    expect(down.body.delivery).toMatchObject({
      working: false,
      lastError: expect.stringMatching(/^E/),
    });
    smtp = await start.relay(port);
    await waitFor(async () => (await request(h.app).get('/api/ready')).status === 200);
  });

  test('a 4xx reply, then success: the message arrives once', async () => {
    smtp.reply = (attempt) =>
      attempt === 1 ? { code: 451, message: '4.3.0 Try again later' } : undefined;
    const h = start.harness({ SMTP_URL: smtp.url });
    const id = await accept(h);
    await waitFor(() => smtp.received.length > 0);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.dataAttempts).toBe(2);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]?.mail.messageId).toBe(`<${id}@highveld-digital.co.za>`);
    expect((await ready(h)).messages).toMatchObject({ delivered: 1, queued: 0, failed: 0 });
  });

  test('a 5xx reply: the message is kept as failed, not retried, not deleted', async () => {
    smtp.reply = () => ({ code: 550, message: '5.7.1 Message rejected' });
    const h = start.harness({ SMTP_URL: smtp.url });
    const id = await accept(h);
    const r = await waitFor(async () => {
      const x = await ready(h);
      return x.messages.failed === 1 && x;
    });
    expect(r.messages).toMatchObject({ failed: 1, queued: 0, delivered: 0 });
    expect(r.status).toBe('not_ready');
    await new Promise((res) => setTimeout(res, 200));
    expect(smtp.dataAttempts).toBe(1);
    expect(smtp.received).toHaveLength(0);
    expect(await h.outbox.statusOf(id)).toEqual({ status: 'failed', attempts: 1 });
  });

  test('transient failures are retried for QUEUE_LIFETIME, then the message is kept as failed', async () => {
    smtp.reply = () => ({ code: 452, message: '4.3.1 Insufficient system storage' });
    const h = start.harness({
      SMTP_URL: smtp.url,
      QUEUE_LIFETIME: '1',
      RETRY_BASE_MS: '50',
      RETRY_MAX_MS: '100',
    });
    const started = Date.now();
    const id = await accept(h);
    await waitFor(async () => (await ready(h)).messages.failed === 1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(smtp.dataAttempts).toBeGreaterThan(3);
    expect((await h.outbox.statusOf(id))?.status).toBe('failed');
  });
});

describe('delivery to the mailbox folder (no SMTP_URL)', () => {
  const start = startPerTest();

  test('each message is written as a parseable .eml file named after its id', async () => {
    const h = start.harness();
    const id = await accept(h);
    const file = await waitFor(() =>
      readdirSync(h.config.MAILBOX_DIR).find((n) => n.endsWith(`${id}.eml`)),
    );
    expect(readdirSync(h.config.MAILBOX_DIR)).toEqual([file]);
    const raw = readFileSync(path.join(h.config.MAILBOX_DIR, file));
    expect(raw.toString('latin1')).toMatch(/\r\n\r\n/);
    const mail = await simpleParser(raw);
    expect(mail.subject).toBe('Website enquiry: A new website');
    expect(one(mail.replyTo)).toEqual([{ name: 'Thandi Nkosi', address: 'thandi@example.co.za' }]);
    expect(one(mail.from)[0]?.address).toBe('website@highveld-digital.co.za');
    expect(mail.messageId).toBe(`<${id}@highveld-digital.co.za>`);
    expect(mail.text).toContain('we would like a quote.');
    await waitFor(async () => (await ready(h)).messages.delivered === 1);
  });
});

describe('backoff', () => {
  test('grows exponentially with jitter and stops at the cap', () => {
    const low = () => 0;
    const high = () => 1;
    expect(backoffMs(1, 5000, 600_000, low)).toBe(2500);
    expect(backoffMs(1, 5000, 600_000, high)).toBe(5000);
    expect(backoffMs(3, 5000, 600_000, high)).toBe(20_000);
    expect(backoffMs(30, 5000, 600_000, low)).toBe(300_000);
    expect(backoffMs(30, 5000, 600_000, high)).toBe(600_000);
  });
});
