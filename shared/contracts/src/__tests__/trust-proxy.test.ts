import { trustProxySetting } from '../trust-proxy';

/** TRUST_PROXY as the site server and the mail-service both read it (one variable in `.env`). */
const read = (value: string) => {
  const result = trustProxySetting.safeParse(value);
  return result.success ? { accepted: result.data } : { refused: result.error.issues[0]?.message };
};

describe('TRUST_PROXY', () => {
  test.each([
    ['false', false],
    ['none', false],
    [' none ', false],
    ['0', 0],
    ['1', 1],
    ['12', 12],
    ['loopback', ['loopback']],
    ['linklocal', ['linklocal']],
    ['uniquelocal', ['uniquelocal']],
    ['loopback, 10.0.0.1', ['loopback', '10.0.0.1']],
    ['10.0.0.0/8', ['10.0.0.0/8']],
    ['10.0.0.0/255.0.0.0', ['10.0.0.0/255.0.0.0']],
    ['::1', ['::1']],
    ['fd00::/8', ['fd00::/8']],
  ])('takes %j', (value, expected) => {
    expect(read(value)).toEqual({ accepted: expected });
  });

  test('refuses true, saying why', () => {
    expect(read('true').refused).toMatch(/^true would believe X-Forwarded-For from anyone/);
  });

  test.each([
    '10.0.0.0/33',
    'fd00::/129',
    'fd00::/ffff::',
    '10.0.0.1/8/8',
    'proxy.internal',
    'yes',
    ' , ',
    '-1',
    '1.5',
    '',
  ])('refuses %j, naming the entry', (value) => {
    expect(read(value).refused).toMatch(/is not false, none, a hop count/);
  });
});
