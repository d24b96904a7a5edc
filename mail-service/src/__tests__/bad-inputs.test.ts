import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { ORIGIN, useHarness, validMessage } from './helpers';

/**
 * Hostile and broken requests. Every one must get a 4xx with a JSON `{ error, message }`: never a
 * 5xx, never a crash, nothing stored, and never a response header the sender wrote.
 */

const INJECT = '\r\nBcc: victim@attacker.test\r\nX-Injected: yes';

const v = validMessage();
const withUser = (user: Record<string, unknown>) => ({ ...v, user: { ...v.user, ...user } });
const withMessage = (message: Record<string, unknown>) => ({
  ...v,
  message: { ...v.message, ...message },
});
const nest = (depth: number, inner: string) => '{"a":'.repeat(depth) + inner + '}'.repeat(depth);
const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
/** A message whose name is `text` followed by the raw bytes given. */
const nameWithBytes = (text: string, raw: number[]) =>
  bytes(
    `{"user":{"name":"${text}`,
    raw,
    '","email":"a@example.com"},"message":{"subject":"s","body":"b"}}',
  );

interface Case {
  name: string;
  body: unknown;
  headers?: Record<string, string>;
  /** The expected status, 400 unless said. */
  status?: 413 | 415;
}

/** A body (a valid message unless given) sent as `contentType` ('' sends none): a 415. */
const sentAs = (name: string, contentType: string, body: unknown = JSON.stringify(v)): Case => ({
  name,
  body,
  headers: { 'Content-Type': contentType },
  status: 415,
});

const cases: Case[] = [
  // wrong types
  { name: 'an array', body: [] },
  { name: 'null', body: 'null' },
  { name: 'a number', body: '42' },
  { name: 'a string', body: '"hello"' },
  { name: 'true', body: 'true' },
  { name: 'user as a string', body: { ...v, user: 'Ann' } },
  { name: 'user as an array', body: { ...v, user: ['Ann', 'ann@example.com'] } },
  { name: 'user as null', body: { ...v, user: null } },
  { name: 'message as a number', body: { ...v, message: 7 } },
  { name: 'name as a number', body: withUser({ name: 12 }) },
  { name: 'name as an object', body: withUser({ name: { first: 'Ann' } }) },
  { name: 'name as an array', body: withUser({ name: ['Ann'] }) },
  { name: 'email as a number', body: withUser({ email: 5 }) },
  { name: 'email as null', body: withUser({ email: null }) },
  { name: 'subject as a boolean', body: withMessage({ subject: true }) },
  { name: 'body as an object', body: withMessage({ body: { text: 'hi' } }) },
  { name: 'body as an array of lines', body: withMessage({ body: ['a', 'b'] }) },
  { name: 'website as a number', body: { ...v, website: 1 } },
  { name: 'website as an object', body: { ...v, website: { url: 'x' } } },
  // missing fields
  { name: 'an empty object', body: {} },
  { name: 'no user', body: { message: v.message } },
  { name: 'no message', body: { user: v.user } },
  { name: 'no name', body: { ...v, user: { email: v.user.email } } },
  { name: 'no email', body: { ...v, user: { name: v.user.name } } },
  { name: 'no subject', body: { ...v, message: { body: v.message.body } } },
  { name: 'no body', body: { ...v, message: { subject: v.message.subject } } },
  {
    name: 'all fields empty',
    body: { user: { name: '', email: '' }, message: { subject: '', body: '' } },
  },
  {
    name: 'all fields blank',
    body: { user: { name: '  ', email: ' ' }, message: { subject: '\t', body: '\n\n' } },
  },
  // extra fields
  { name: 'an extra top-level field', body: { ...v, cc: 'x@attacker.test' } },
  { name: 'an extra field in user', body: withUser({ bcc: 'x@attacker.test' }) },
  { name: 'extra headers in message', body: withMessage({ headers: { Bcc: 'x@attacker.test' } }) },
  { name: 'a __proto__ key', body: `{"__proto__":{"admin":true},${JSON.stringify(v).slice(1)}` },
  { name: 'a constructor key in user', body: withUser({ constructor: { prototype: { x: 1 } } }) },
  // over-long values
  { name: 'a name of 101 characters', body: withUser({ name: 'n'.repeat(101) }) },
  {
    name: 'an email of 255 characters',
    body: withUser({ email: `${'e'.repeat(64)}@${'d'.repeat(186)}.com` }),
  },
  { name: 'a subject of 201 characters', body: withMessage({ subject: 's'.repeat(201) }) },
  { name: 'a body of 5001 characters', body: withMessage({ body: 'b'.repeat(5001) }) },
  { name: 'a website of 201 characters', body: { ...v, website: 'w'.repeat(201) } },
  // CR/LF and header injection, in every field that reaches a header
  { name: 'CRLF + headers in the name', body: withUser({ name: `Ann${INJECT}` }) },
  { name: 'a bare LF in the name', body: withUser({ name: 'Ann\nBcc: victim@attacker.test' }) },
  { name: 'a bare CR in the name', body: withUser({ name: 'Ann\rBcc: victim@attacker.test' }) },
  { name: 'CRLF + headers in the email', body: withUser({ email: `ann@example.com${INJECT}` }) },
  {
    name: 'a LF in the email',
    body: withUser({ email: 'ann@example.com\nTo: victim@attacker.test' }),
  },
  {
    name: 'a second address in the email',
    body: withUser({ email: 'ann@example.com, victim@attacker.test' }),
  },
  { name: 'a display name in the email', body: withUser({ email: 'Evil <victim@attacker.test>' }) },
  {
    name: 'an angle-bracket break-out in the email',
    body: withUser({ email: 'ann@example.com>victim@attacker.test' }),
  },
  { name: 'CRLF + headers in the subject', body: withMessage({ subject: `Hi${INJECT}` }) },
  {
    name: 'a LF + MIME header in the subject',
    body: withMessage({ subject: 'Hi\nContent-Type: text/html' }),
  },
  { name: 'a tab in the subject', body: withMessage({ subject: 'Hi\tthere' }) },
  { name: 'a DEL in the subject', body: withMessage({ subject: 'Hi\u007f' }) },
  // null bytes and other control characters
  { name: 'a null byte in the name', body: withUser({ name: 'Ann\u0000' }) },
  { name: 'a null byte in the email', body: withUser({ email: 'ann\u0000@example.com' }) },
  { name: 'a null byte in the subject', body: withMessage({ subject: 'Hi\u0000there' }) },
  { name: 'a null byte in the body', body: withMessage({ body: 'Hello\u0000world' }) },
  { name: 'an escape character in the body', body: withMessage({ body: 'Hello \u001b[31mred' }) },
  { name: 'a form feed in the body', body: withMessage({ body: 'page\u000cbreak' }) },
  // invalid UTF-8
  { name: 'a 0xFF byte in the name', body: nameWithBytes('Ann', [0xff]) },
  { name: 'an overlong encoding of "/"', body: nameWithBytes('', [0xc0, 0xaf]) },
  {
    name: 'a truncated multi-byte sequence',
    body: bytes(
      '{"user":{"name":"Ann","email":"a@example.com"},"message":{"subject":"s","body":"',
      [0xe6, 0x96],
      '"}}',
    ),
  },
  { name: 'a UTF-8-encoded surrogate', body: nameWithBytes('', [0xed, 0xa0, 0x80]) },
  {
    name: 'Latin-1 bytes declared as JSON',
    body: Buffer.from(JSON.stringify(withUser({ name: 'Zoë' })), 'latin1'),
  },
  // deeply nested JSON
  { name: '5000 nested arrays', body: '['.repeat(5000) + ']'.repeat(5000) },
  {
    name: 'a deeply nested name',
    body: `{"user":{"name":${nest(1500, '1')},"email":"a@example.com"},"message":${JSON.stringify(v.message)}}`,
  },
  {
    name: 'a deeply nested extra field',
    body: `{${JSON.stringify(v).slice(1, -1)},"x":${nest(1500, '1')}}`,
  },
  // huge bodies
  { name: 'a 17 KB message', body: withMessage({ body: 'x'.repeat(17 * 1024) }), status: 413 },
  { name: '200 KB of JSON', body: withMessage({ body: 'y'.repeat(200 * 1024) }), status: 413 },
  {
    name: 'a small message padded with 20 KB of spaces',
    body: JSON.stringify(v) + ' '.repeat(20 * 1024),
    status: 413,
  },
  // malformed JSON
  { name: 'truncated JSON', body: '{"user":{"name":"Ann"' },
  { name: 'a trailing comma', body: JSON.stringify(v).slice(0, -1) + ',}' },
  { name: 'single-quoted JSON', body: "{'user':{'name':'Ann'}}" },
  { name: 'an empty body', body: '' },
  { name: 'NaN', body: '{"user":NaN}' },
  { name: 'two JSON values', body: JSON.stringify(v) + JSON.stringify(v) },
  { name: 'a JavaScript object literal', body: '{user:{name:"Ann"}}' },
  // wrong content types and encodings
  sentAs('text/plain', 'text/plain'),
  sentAs('a form post', 'application/x-www-form-urlencoded', 'user[name]=Ann'),
  sentAs('multipart', 'multipart/form-data; boundary=x', '--x\r\n\r\nhi\r\n--x--'),
  sentAs('XML', 'application/xml', '<user><name>Ann</name></user>'),
  sentAs('JSON declared as UTF-16', 'application/json; charset=utf-16'),
  sentAs('JSON declared as Latin-1', 'application/json; charset=iso-8859-1'),
  sentAs('a JSON Patch media type', 'application/json-patch+json'),
  sentAs('no content type', ''),
  {
    name: 'a gzipped body',
    body: gzipSync(JSON.stringify(v)),
    headers: { 'Content-Encoding': 'gzip' },
    status: 415,
  },
  // a broken Idempotency-Key
  { name: 'an empty Idempotency-Key', body: v, headers: { 'Idempotency-Key': '' } },
  {
    name: 'an Idempotency-Key of 201 characters',
    body: v,
    headers: { 'Idempotency-Key': 'k'.repeat(201) },
  },
  { name: 'an Idempotency-Key with a tab', body: v, headers: { 'Idempotency-Key': 'a\tb' } },
];

describe('bad inputs', () => {
  const h = useHarness({ RATE_LIMIT_MAX: '1000' }, { shared: true });

  test('the table is big enough', () => {
    expect(cases.length).toBeGreaterThanOrEqual(50);
  });

  test.each(cases.map((c) => [c.name, c] as const))('%s: a 4xx JSON error', async (_name, c) => {
    const headers: Record<string, string> = {
      Origin: ORIGIN,
      Cookie: h.csrf.cookie,
      'X-XSRF-TOKEN': h.csrf.token,
      'Content-Type': 'application/json',
      ...c.headers,
    };
    let req = request(h.app).post('/api/sendmail');
    for (const [name, value] of Object.entries(headers)) {
      req =
        name === 'Content-Type' && value === '' ? req.unset('Content-Type') : req.set(name, value);
    }
    // Sent exactly as written: superagent would otherwise turn a Buffer into JSON of its bytes.
    const body =
      typeof c.body === 'string' || Buffer.isBuffer(c.body) ? c.body : JSON.stringify(c.body);
    const res = await req.serialize((b: unknown) => b as string).send(body);

    expect(res.status).toBe(c.status ?? 400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual(
      expect.objectContaining({ error: expect.any(String), message: expect.any(String) }),
    );
    for (const [name, value] of Object.entries(res.headers)) {
      expect(name).not.toMatch(/^(bcc|x-injected|to|cc)$/i);
      expect(String(value)).not.toMatch(/attacker|injected/i);
    }
  });

  test('after all that the service is up and has stored nothing', async () => {
    await request(h.app).get('/api/health').expect(200);
    const ready = await request(h.app).get('/api/ready').expect(200);
    expect(ready.body.messages).toEqual({ queued: 0, delivered: 0, failed: 0, spam: 0 });
  });
});
