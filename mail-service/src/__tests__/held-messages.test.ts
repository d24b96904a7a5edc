import request from 'supertest';
import { FORM_STARTED_TOKEN_FIELD } from '../form-token';
import { getCsrf, post, startPerTest, validMessage, waitFor, type Harness } from './helpers';

/**
 * Every prospect's message reaches a person: delivered, or held as spam and shown to sales in the
 * daily digest, from which each one can be released. A weak signal alone (a form sent within a
 * second, as autofill allows) never holds a message; nothing is dropped.
 */

const DAY = 86_400_000;

describe('held messages', () => {
  const start = startPerTest();

  const formToken = async (h: Harness) =>
    ((await request(h.app).get('/api/form-token').expect(200)).body as { token: string }).token;
  const statusOf = async (h: Harness, id: string) => {
    const [row] = await h.outbox.list({ ids: [id] });
    return { status: row?.status, reasons: row?.spamReasons };
  };

  test('a form filled and sent within a second reaches the relay; its signal is kept with it', async () => {
    const smtp = await start.relay();
    const h = start.harness({ SMTP_URL: smtp.url });
    const csrf = await getCsrf(h.app);
    const token = await formToken(h);
    const subject = `Autofilled ${Date.now()}`;
    const res = await post(h.app, csrf, {
      ...validMessage(),
      message: { subject, body: 'Filled by the browser, sent at once.' },
      [FORM_STARTED_TOKEN_FIELD]: token,
    }).expect(202);
    const id = (res.body as { messageId: string }).messageId;
    await waitFor(() => smtp.received.length === 1, { what: 'the delivery' });
    expect(smtp.received[0]!.mail.subject).toBe(`Website enquiry: ${subject}`);
    // The relay has the message a moment before the outbox records its delivery.
    await waitFor(async () => (await statusOf(h, id)).status === 'delivered', {
      what: 'the delivery recorded',
    });
    const stored = await statusOf(h, id);
    expect(stored.status).toBe('delivered');
    expect(stored.reasons).toEqual([
      expect.stringMatching(/^submitted 0\.\d s after the form was first used$/),
    ]);
    expect((await h.outbox.counts()).spam).toBe(0);
  });

  test('a message with several strong signals is held, listed in the digest sales receive, and delivered once released from its link', async () => {
    const smtp = await start.relay();
    const h = start.harness({ SMTP_URL: smtp.url, RATE_LIMIT_MAX: '100' }, { digestEveryMs: 0 });
    const csrf = await getCsrf(h.app);
    const links = Array.from({ length: 7 }, (_, i) => `https://example.com/${i}`).join(' ');
    const subject = `Offer ${Date.now()}`;
    const res = await post(h.app, csrf, {
      ...validMessage(),
      website: 'https://spam.example',
      message: { subject, body: `Cheap links: ${links}` },
      [FORM_STARTED_TOKEN_FIELD]: 'not-a-token',
    }).expect(202);
    const id = (res.body as { messageId: string }).messageId;
    const reasons = [
      'honeypot field filled',
      'form token invalid',
      '7 links in the message (more than 5)',
    ];
    expect(await statusOf(h, id)).toEqual({ status: 'spam', reasons });
    // And one that is delivered, so the digest is not mistaken for it.
    await post(h.app, csrf, validMessage()).expect(202);
    await waitFor(() => smtp.received.length === 1, { what: 'the other message' });

    expect(await h.service.sendDigest()).toBe(1);
    expect(smtp.received).toHaveLength(2);
    const digest = smtp.received[1]!;
    expect(digest.mail.subject).toBe('Website: 1 message(s) held as possible spam');
    expect(digest.envelope.rcptTo.map((r) => r.address)).toEqual(['hello@highveld-digital.co.za']);
    const text = digest.mail.text ?? '';
    expect(text).toContain('Thandi Nkosi <thandi@example.co.za>');
    expect(text).toContain(`Subject:  ${subject}`);
    expect(text).toContain(`Why held: ${reasons.join('; ')}`);
    const link = /Release and deliver it: (http\S+)/.exec(text)?.[1] ?? '';
    expect(link).toMatch(new RegExp(`^http://localhost:3000/api/held/${id}/[A-Za-z0-9_-]{43}$`));
    // Shown once: the next digest has nothing to list.
    expect(await h.service.sendDigest()).toBe(0);
    expect(smtp.received).toHaveLength(2);

    const path = new URL(link).pathname;
    // Opening the link (as a mail program's link check would) releases nothing.
    const page = await request(h.app).get(path).expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('Release this message?');
    expect((await statusOf(h, id)).status).toBe('spam');
    await request(h.app)
      .get(path.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')))
      .expect(404);
    await request(h.app)
      .post(path.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')))
      .expect(404);

    const released = await request(h.app).post(path).expect(200);
    expect(released.text).toContain('Released');
    await waitFor(() => smtp.received.length === 3, { what: 'the released message' });
    expect(smtp.received[2]!.mail.subject).toBe(`Website enquiry: ${subject}`);
    await waitFor(async () => (await statusOf(h, id)).status === 'delivered');
    // The reasons stay with it; the link now says so instead of releasing twice.
    expect((await statusOf(h, id)).reasons).toEqual(reasons);
    expect((await request(h.app).post(path).expect(200)).text).toContain('released already');
  });

  test('a held message no digest has shown is kept past its retention; once shown, it is deleted in time', async () => {
    let offset = 0;
    const smtp = await start.relay();
    const h = start.harness(
      { SMTP_URL: smtp.url },
      { digestEveryMs: 0, now: () => Date.now() + offset },
    );
    const csrf = await getCsrf(h.app);
    const res = await post(h.app, csrf, { ...validMessage(), website: 'x' }).expect(202);
    const id = (res.body as { messageId: string }).messageId;
    // The relay refuses the digest: nothing was shown to anyone.
    smtp.reply = () => ({ code: 451, message: '4.3.0 Try again later' });
    expect(await h.service.sendDigest()).toBe(0);
    offset = 8 * DAY;
    expect(await h.service.applyRetention()).toMatchObject({ deleted: 0 });
    expect((await statusOf(h, id)).status).toBe('spam');
    smtp.reply = () => undefined;
    expect(await h.service.sendDigest()).toBe(1);
    expect(await h.service.applyRetention()).toMatchObject({ deleted: 1 });
    expect((await statusOf(h, id)).status).toBeUndefined();
  });
});
