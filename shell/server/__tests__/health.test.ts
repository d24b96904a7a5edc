/**
 * @jest-environment node
 */
import { startFixture, type SiteFixture } from './http/site-fixture';

/**
 * What a replica says of itself to a balancer and an operator: alive (`/_health`), ready to serve
 * (`/_ready`), and, with a name, which replica gave each answer (`X-Replica`).
 */
let named: SiteFixture;
let plain: SiteFixture;

beforeAll(async () => {
  [named, plain] = await Promise.all([
    startFixture({ settings: { REPLICA_NAME: 'site-2' } }),
    startFixture(),
  ]);
}, 180_000);

afterAll(async () => {
  await Promise.all([named?.close(), plain?.close()]);
});

test('a named replica names itself on every answer: pages, files, its health, refusals', async () => {
  for (const url of ['/', '/about', '/favicon.svg', '/_health', '/_ready', '/no-such-page']) {
    const answer = await named.inject(url);
    expect([url, answer.headers['x-replica']]).toEqual([url, 'site-2']);
  }
  const health = await named.inject('/_health');
  expect(health.statusCode).toBe(200);
  expect(health.headers['cache-control']).toBe('no-store');
  expect(health.json()).toEqual({ status: 'ok', replica: 'site-2' });
});

test('ready when its manifest store answers and the shell renders; without a name, no header', async () => {
  const ready = await plain.inject('/_ready');
  expect(ready.statusCode).toBe(200);
  expect(ready.headers['x-replica']).toBeUndefined();
  expect(ready.json()).toEqual({
    status: 'ready',
    manifest: expect.stringMatching(/^[0-9a-f]{12}$/),
    problems: [],
  });
  expect((await plain.inject('/about')).headers['x-replica']).toBeUndefined();
});
