/**
 * @jest-environment node
 */
import {
  BEACON_LIMIT,
  DEPLOY_TOKEN,
  METRICS_TOKEN,
  startFixture,
  type SiteFixture,
} from './site-fixture';

/**
 * The error beacon as a browser's `sendBeacon` and anyone else meet it (what it takes, its budget
 * per client address), and the metrics' scrape as a collector meets it.
 */
let fixture: SiteFixture;

beforeAll(async () => {
  fixture = await startFixture();
}, 180_000);

afterAll(() => fixture?.close());

const REPORT = { kind: 'page-error', group: 'probe', version: '1.0.0' };

const beacon = (body: unknown, remoteAddress: string, type = 'text/plain;charset=UTF-8') =>
  fixture.inject({
    method: 'POST',
    url: '/_beacon',
    remoteAddress,
    headers: { 'content-type': type },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });

const scrape = () =>
  fixture.inject({ url: '/_metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });

describe('POST /_beacon', () => {
  let cases = 0;

  test('a report is taken with 204 and no body, not to be stored, with the budget left', async () => {
    const answer = await beacon(REPORT, '192.0.2.10');
    expect(answer.statusCode).toBe(204);
    expect(answer.body).toBe('');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['x-ratelimit-limit']).toBe(String(BEACON_LIMIT));
    expect(answer.headers['x-ratelimit-remaining']).toBe(String(BEACON_LIMIT - 1));
  });

  test('JSON with a charset, as a fetch sends it, is taken too', async () => {
    const answer = await beacon(REPORT, '192.0.2.11', 'application/json; charset=utf-8');
    expect(answer.statusCode).toBe(204);
  });

  test.each([
    ['a version with a space', { ...REPORT, version: '1.0 .0' }],
    ['an empty version', { ...REPORT, version: '' }],
    ['a message over 1,000 characters', { ...REPORT, message: 'm'.repeat(1001) }],
    ['a group that is not a string', { ...REPORT, group: 7 }],
    ['an array', [REPORT]],
    ['null', 'null'],
  ])('%s is a 400 that names the schema, in plain text', async (_what, body) => {
    // An address per case: each refusal spends its budget.
    const answer = await beacon(body, `192.0.2.${100 + ++cases}`);
    expect(answer.statusCode).toBe(400);
    expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.body).toMatch(/^the report does not fit its schema: /);
  });

  test(`after ${BEACON_LIMIT} reports in a minute an address is refused with 429 and Retry-After; another address is not`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i < BEACON_LIMIT + 2; i++) {
      statuses.push((await beacon(REPORT, '192.0.2.20')).statusCode);
    }
    expect(statuses).toEqual([...Array<number>(BEACON_LIMIT).fill(204), 429, 429]);
    const refused = await beacon(REPORT, '192.0.2.20');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body).toBe(
      `Too many reports from this address: at most ${BEACON_LIMIT} a minute.\n`,
    );
    expect((await beacon(REPORT, '192.0.2.21')).statusCode).toBe(204);
  });

  test('refused reports spend the budget too: after that many bad ones, a good one is a 429', async () => {
    for (let i = 0; i < BEACON_LIMIT; i++) await beacon('not json', '192.0.2.30');
    const answer = await beacon(REPORT, '192.0.2.30');
    expect(answer.statusCode).toBe(429);
  });

  test('the addresses of one IPv6 /64 share one budget; the next /64 has its own', async () => {
    for (let i = 0; i < BEACON_LIMIT; i++) {
      expect((await beacon(REPORT, `2001:db8:1:1::${(i + 1).toString(16)}`)).statusCode).toBe(204);
    }
    expect((await beacon(REPORT, '2001:db8:1:1:ffff:ffff:ffff:ffff')).statusCode).toBe(429);
    expect((await beacon(REPORT, '2001:db8:1:2::1')).statusCode).toBe(204);
  });

  test('GET /_beacon is no page: the 404 page', async () => {
    const answer = await fixture.inject({ url: '/_beacon' });
    expect(answer.statusCode).toBe(404);
  });
});

describe('GET /_metrics', () => {
  test('with the token: the text format, not to be stored', async () => {
    const answer = await scrape();
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.body).toMatch(/^# HELP site_http_requests_total /m);
  });

  test('the deploy token, the token in another scheme, or in the query, is refused with 401 and nothing of the scrape', async () => {
    for (const request of [
      { url: '/_metrics', headers: { authorization: `Bearer ${DEPLOY_TOKEN}` } },
      { url: '/_metrics', headers: { authorization: `Basic ${METRICS_TOKEN}` } },
      { url: `/_metrics?token=${METRICS_TOKEN}`, headers: {} },
    ]) {
      const answer = await fixture.inject(request);
      expect([request.url, answer.statusCode]).toEqual([request.url, 401]);
      expect(answer.headers['www-authenticate']).toBe('Bearer');
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.body).not.toContain('site_');
    }
  });

  test('the requests it counts carry no path a client chose, however many there are', async () => {
    for (let i = 0; i < 5; i++) await fixture.inject(`/made-up-${i}?q=${i}`);
    await fixture.inject('/%zz');
    const { body } = await scrape();
    expect(body).not.toContain('made-up');
    expect(body).not.toContain('%zz');
    expect(body).toMatch(/^site_http_requests_total\{kind="page",status="4xx"\} [1-9]/m);
  });

  test('the rate-limited reports are counted as such', async () => {
    const { body } = await scrape();
    expect(body).toMatch(/^site_beacons_refused_total\{reason="rate_limited"\} [1-9]/m);
  });
});
