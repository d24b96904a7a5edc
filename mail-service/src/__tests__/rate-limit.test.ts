import { RateLimiter, clientKey } from '../rate-limit';

describe('RateLimiter', () => {
  test('allows max per window, then says how long to wait, then allows again', () => {
    let now = 1_000_000;
    const limiter = new RateLimiter({ max: 2, windowMs: 60_000, now: () => now });
    expect(limiter.consume('a').allowed).toBe(true);
    now += 10_000;
    expect(limiter.consume('a').allowed).toBe(true);
    expect(limiter.consume('a')).toEqual({ allowed: false, retryAfterSeconds: 50 });
    expect(limiter.consume('b').allowed).toBe(true);
    now += 50_000;
    expect(limiter.consume('a').allowed).toBe(true);
  });

  test('forgets clients whose window has passed', () => {
    let now = 0;
    const limiter = new RateLimiter({ max: 1, windowMs: 1000, now: () => now });
    for (let i = 0; i < 100; i++) limiter.consume(`client-${i}`);
    now += 5000;
    limiter.consume('late');
    expect(limiter.size).toBe(1);
  });
});

describe('clientKey', () => {
  test.each([
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    [undefined, 'unknown'],
  ])('%s is counted as %s', (ip, key) => {
    expect(clientKey(ip)).toBe(key);
  });
});
