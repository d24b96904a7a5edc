import { readdirSync } from 'node:fs';
import request from 'supertest';
import { CONTACT_MESSAGES } from '@site/contracts/contact';
import { BODY_LIMIT_BYTES } from '../config';
import { ORIGIN, getCsrf, post, startPerTest, validMessage, waitFor, useHarness } from './helpers';

describe('the HTTP API', () => {
  const h = useHarness({ RATE_LIMIT_MAX: '1000' });
  const start = startPerTest();

  test('GET /api/health answers 200 { status: ok }', async () => {
    const res = await request(h.app).get('/api/health').expect(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  test('GET /api/ready reports the outbox, delivery and the counts', async () => {
    const res = await request(h.app).get('/api/ready').expect(200);
    expect(res.body).toMatchObject({
      status: 'ready',
      outbox: { writable: true },
      delivery: { mode: 'mailbox' },
      messages: { queued: 0, delivered: 0, failed: 0, spam: 0 },
    });
  });

  test('GET /api/ready answers 503 when the outbox cannot be written', async () => {
    h.outbox.close();
    const res = await request(h.app).get('/api/ready').expect(503);
    expect(res.body).toMatchObject({ status: 'not_ready', outbox: { writable: false } });
  });

  test('GET /api/csrf sets a readable, strict, same-site token cookie and returns it', async () => {
    const res = await request(h.app).get('/api/csrf').expect(200);
    const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).join('\n');
    const token = (res.body as { token: string }).token;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie).toContain(`XSRF-TOKEN=${token}`);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/HttpOnly/i);
    expect(cookie).not.toMatch(/Secure/i);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  test('the token cookie is Secure when the request came over https through the trusted proxy', async () => {
    const proxied = start.harness({ TRUST_PROXY: 'loopback' });
    const res = await request(proxied.app).get('/api/csrf').set('X-Forwarded-Proto', 'https');
    expect(String(res.headers['set-cookie'])).toMatch(/; Secure/i);
  });

  test('a valid message is answered 202 with a messageId and lands in the mailbox', async () => {
    const res = await post(h.app, h.csrf, validMessage()).expect(202);
    const { messageId } = res.body as { messageId: string };
    expect(messageId).toMatch(/^[0-9a-f-]{36}$/);
    const files = await waitFor(() => {
      const names = readdirSync(h.config.MAILBOX_DIR).filter((n) => n.endsWith('.eml'));
      return names.length > 0 && names;
    });
    expect(files).toEqual([expect.stringContaining(messageId)]);
  });

  test('invalid input: 400 with every field error, in the texts the form shows', async () => {
    const res = await post(h.app, h.csrf, {
      user: { name: '', email: 'not-an-address' },
      message: { subject: '   ', body: 'x'.repeat(5001) },
    }).expect(400);
    expect(res.body).toEqual({
      error: 'invalid_message',
      message: 'Please fill in the missing fields..',
      fields: [
        { path: 'user.name', message: CONTACT_MESSAGES.nameRequired },
        { path: 'user.email', message: 'Please enter a valid email address..' },
        { path: 'message.subject', message: CONTACT_MESSAGES.subjectRequired },
        { path: 'message.body', message: CONTACT_MESSAGES.bodyTooLong },
      ],
    });
  });

  test('malformed JSON: 400 with a clear message', async () => {
    const res = await post(h.app, h.csrf, '{"user": {"name": "Ann",').expect(400);
    expect(res.body).toEqual({
      error: 'invalid_json',
      message: 'The request body is not valid JSON.',
    });
  });

  test('invalid UTF-8 is refused, not silently repaired', async () => {
    const raw = Buffer.concat([
      Buffer.from('{"user":{"name":"Ann'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('","email":"ann@example.com"},"message":{"subject":"Hi","body":"Hello"}}'),
    ]);
    const res = await post(h.app, h.csrf, raw)
      .serialize((b: unknown) => b as string)
      .expect(400);
    expect(res.body).toEqual({
      error: 'invalid_encoding',
      message: 'The request body is not valid UTF-8 text.',
    });
  });

  test('when the message cannot be stored: 503 with Retry-After, never a false 202', async () => {
    h.outbox.close();
    const res = await post(h.app, h.csrf, validMessage()).expect(503);
    expect(res.headers['retry-after']).toBe('60');
    expect(res.body).toEqual({ error: 'storage_unavailable', message: expect.any(String) });
  });

  test('a body that is not JSON: 415', async () => {
    const res = await post(h.app, h.csrf, 'name=Ann', {
      'Content-Type': 'application/x-www-form-urlencoded',
    }).expect(415);
    expect(res.body.error).toBe('unsupported_media_type');
    expect(res.body.message).toMatch(/JSON/);
  });

  test(`a body over ${BODY_LIMIT_BYTES} bytes: 413`, async () => {
    const big = {
      ...validMessage(),
      message: { subject: 'x', body: 'y'.repeat(BODY_LIMIT_BYTES) },
    };
    const res = await post(h.app, h.csrf, big).expect(413);
    expect(res.body).toEqual({
      error: 'payload_too_large',
      message: 'The message is too large: at most 16 KB of JSON is accepted.',
    });
  });

  test('a 5000-character message in a three-byte script, with every field at its limit, fits', async () => {
    const body = {
      user: {
        name: '名'.repeat(100),
        email: `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.co.za`,
      },
      message: { subject: '題'.repeat(200), body: '文'.repeat(5000) },
    };
    expect(Buffer.byteLength(JSON.stringify(body))).toBeGreaterThan(16_000);
    await post(h.app, h.csrf, body).expect(202);
  });

  test('unknown paths and wrong methods answer JSON errors', async () => {
    const missing = await request(h.app).get('/api/nothing').expect(404);
    expect(missing.body).toEqual({ error: 'not_found', message: expect.any(String) });
    const wrong = await request(h.app).get('/api/sendmail').expect(405);
    expect(wrong.headers.allow).toBe('POST');
    expect(wrong.body.error).toBe('method_not_allowed');
  });

  test('security headers are set (helmet)', async () => {
    const res = await request(h.app).get('/api/health');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  describe('honeypot', () => {
    test('a filled-in website field is answered like any message, stored as spam, never delivered', async () => {
      const res = await post(h.app, h.csrf, {
        ...validMessage(),
        website: 'http://spam.example',
      }).expect(202);
      expect(res.body.messageId).toEqual(expect.any(String));
      const ready = await request(h.app).get('/api/ready').expect(200);
      expect(ready.body.messages).toMatchObject({ spam: 1, queued: 0, delivered: 0 });
      await new Promise((r) => setTimeout(r, 150));
      expect(readdirSync(h.config.MAILBOX_DIR).filter((n) => n.endsWith('.eml'))).toEqual([]);
    });

    test('an empty website field is a normal message', async () => {
      await post(h.app, h.csrf, { ...validMessage(), website: '' }).expect(202);
      const ready = await request(h.app).get('/api/ready');
      expect(ready.body.messages.spam).toBe(0);
    });
  });

  describe('Idempotency-Key', () => {
    test('the same key returns the same messageId and stores and sends nothing twice', async () => {
      const key = 'form-7f9c2a1e-2b4d-4c55-9d11-0a7b3c6e8f21';
      const first = await post(h.app, h.csrf, validMessage(), { 'Idempotency-Key': key }).expect(
        202,
      );
      const again = await post(h.app, h.csrf, validMessage(), { 'Idempotency-Key': key }).expect(
        202,
      );
      expect(again.body.messageId).toBe(first.body.messageId);
      await waitFor(
        async () => (await request(h.app).get('/api/ready')).body.messages.delivered === 1,
      );
      const third = await post(h.app, h.csrf, validMessage(), { 'Idempotency-Key': key }).expect(
        202,
      );
      expect(third.body.messageId).toBe(first.body.messageId);
      await new Promise((r) => setTimeout(r, 100));
      const ready = await request(h.app).get('/api/ready');
      expect(ready.body.messages).toMatchObject({ queued: 0, delivered: 1 });
      expect(readdirSync(h.config.MAILBOX_DIR).filter((n) => n.endsWith('.eml'))).toHaveLength(1);
    });

    test('concurrent requests with one key get one message', async () => {
      const key = 'double-click';
      const answers = await Promise.all(
        [1, 2, 3].map(() => post(h.app, h.csrf, validMessage(), { 'Idempotency-Key': key })),
      );
      expect(answers.map((a) => a.status)).toEqual([202, 202, 202]);
      expect(new Set(answers.map((a) => a.body.messageId)).size).toBe(1);
      const ready = await request(h.app).get('/api/ready');
      const { queued, delivered } = ready.body.messages;
      expect(queued + delivered).toBe(1);
    });

    test.each([
      ['too long', 'k'.repeat(201)],
      ['a control character', 'a\tb'],
      ['a non-ASCII character', 'cl\u00e9'],
    ])('a key with %s is refused with 400', async (_what, key) => {
      const res = await post(h.app, h.csrf, validMessage(), { 'Idempotency-Key': key }).expect(400);
      expect(res.body.error).toBe('invalid_idempotency_key');
    });

    test('a key of exactly 200 printable characters is fine', async () => {
      await post(h.app, h.csrf, validMessage(), { 'Idempotency-Key': '~'.repeat(200) }).expect(202);
    });
  });
});

describe('rate limiting', () => {
  const h = useHarness({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW: '600', TRUST_PROXY: 'loopback' });

  test('after RATE_LIMIT_MAX messages a client gets 429 with Retry-After in seconds', async () => {
    for (let i = 0; i < 3; i++) await post(h.app, h.csrf, validMessage()).expect(202);
    const res = await post(h.app, h.csrf, validMessage()).expect(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(590);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(600);
    expect(res.body).toEqual({
      error: 'rate_limited',
      message: expect.stringMatching(/try again in 10 minutes/),
    });
  });

  test('clients behind the trusted proxy are told apart by X-Forwarded-For', async () => {
    const from = (ip: string) => ({ 'X-Forwarded-For': ip });
    for (let i = 0; i < 3; i++)
      await post(h.app, h.csrf, validMessage(), from('203.0.113.7')).expect(202);
    await post(h.app, h.csrf, validMessage(), from('203.0.113.7')).expect(429);
    await post(h.app, h.csrf, validMessage(), from('198.51.100.20')).expect(202);
  });

  test('an idempotent repeat does not count against the limit', async () => {
    for (let i = 0; i < 3; i++) {
      await post(h.app, h.csrf, validMessage(), { 'Idempotency-Key': 'same' }).expect(202);
    }
    await post(h.app, h.csrf, validMessage()).expect(202);
  });

  test('invalid messages do not use up the allowance', async () => {
    for (let i = 0; i < 5; i++) await post(h.app, h.csrf, { user: {} }).expect(400);
    await post(h.app, h.csrf, validMessage()).expect(202);
  });
});

describe('rate limiting without a trusted proxy', () => {
  const start = startPerTest();

  test('with TRUST_PROXY=false a forged X-Forwarded-For does not dodge the limit', async () => {
    const h = start.harness({ RATE_LIMIT_MAX: '1', TRUST_PROXY: 'false' });
    const csrf = await getCsrf(h.app);
    await post(h.app, csrf, validMessage(), { 'X-Forwarded-For': '203.0.113.1' }).expect(202);
    await post(h.app, csrf, validMessage(), { 'X-Forwarded-For': '203.0.113.2' }).expect(429);
  });
});

describe('CSRF and CORS', () => {
  const h = useHarness({ RATE_LIMIT_MAX: '1000' });

  const send = (headers: Record<string, string | undefined>) => {
    let req = request(h.app).post('/api/sendmail').set('Content-Type', 'application/json');
    for (const [name, value] of Object.entries(headers))
      if (value !== undefined) req = req.set(name, value);
    return req.send(JSON.stringify(validMessage()));
  };

  test.each<[string, Record<string, string | undefined>, string]>([
    ['a foreign Origin', { Origin: 'https://evil.example' }, 'forbidden_origin'],
    ['Origin "null" (sandboxed frame, file:)', { Origin: 'null' }, 'forbidden_origin'],
    [
      'an allowlisted host on another port',
      { Origin: 'http://localhost:3001' },
      'forbidden_origin',
    ],
    [
      'Sec-Fetch-Site: cross-site without Origin',
      { 'Sec-Fetch-Site': 'cross-site' },
      'forbidden_origin',
    ],
    [
      'Sec-Fetch-Site: same-site without Origin',
      { 'Sec-Fetch-Site': 'same-site' },
      'forbidden_origin',
    ],
    ['neither Origin nor Sec-Fetch-Site', {}, 'forbidden_origin'],
    [
      'no token at all',
      { Origin: ORIGIN, Cookie: undefined, 'X-XSRF-TOKEN': undefined },
      'invalid_csrf_token',
    ],
    ['a cookie but no header', { Origin: ORIGIN, 'X-XSRF-TOKEN': undefined }, 'invalid_csrf_token'],
    ['a header but no cookie', { Origin: ORIGIN, Cookie: undefined }, 'invalid_csrf_token'],
    [
      'a mismatched token',
      { Origin: ORIGIN, 'X-XSRF-TOKEN': 'A'.repeat(43) },
      'invalid_csrf_token',
    ],
    [
      'a token of the wrong shape in both',
      { Origin: ORIGIN, Cookie: 'XSRF-TOKEN=x', 'X-XSRF-TOKEN': 'x' },
      'invalid_csrf_token',
    ],
  ])('403 for %s, and nothing is stored', async (_what, headers, error) => {
    const defaults = { Cookie: h.csrf.cookie, 'X-XSRF-TOKEN': h.csrf.token };
    const res = await send({ ...defaults, ...headers }).expect(403);
    expect(res.body).toEqual({ error, message: expect.any(String) });
    const ready = await request(h.app).get('/api/ready');
    expect(ready.body.messages).toEqual({ queued: 0, delivered: 0, failed: 0, spam: 0 });
  });

  test('Sec-Fetch-Site: same-origin without Origin is accepted', async () => {
    await send({
      'Sec-Fetch-Site': 'same-origin',
      Cookie: h.csrf.cookie,
      'X-XSRF-TOKEN': h.csrf.token,
    }).expect(202);
  });

  test('the CSRF check comes before anything else, even a non-JSON body', async () => {
    await request(h.app)
      .post('/api/sendmail')
      .set('Origin', 'https://evil.example')
      .set('Content-Type', 'text/plain')
      .send('hello')
      .expect(403);
  });

  test('preflight from an allowlisted origin is answered with CORS headers', async () => {
    const res = await request(h.app)
      .options('/api/sendmail')
      .set('Origin', ORIGIN)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type, x-xsrf-token, idempotency-key')
      .expect(204);
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.headers['access-control-allow-methods']).toContain('POST');
    expect(res.headers['access-control-allow-headers']).toMatch(/X-XSRF-TOKEN/i);
    expect(res.headers.vary).toMatch(/Origin/);
  });

  test('other origins get no CORS headers, on preflight or otherwise', async () => {
    const pre = await request(h.app)
      .options('/api/sendmail')
      .set('Origin', 'https://evil.example')
      .set('Access-Control-Request-Method', 'POST');
    expect(pre.status).toBe(403);
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    const get = await request(h.app).get('/api/health').set('Origin', 'https://evil.example');
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
    expect(get.headers['access-control-allow-credentials']).toBeUndefined();
  });
});
