/**
 * @jest-environment node
 */
import { startFixture, type SiteFixture } from './http/site-fixture';

/**
 * The site server writes one line per request in the mail-service's format (method, path, status,
 * time): pages, API calls and deploys at info, what a page loads and what probes poll at debug.
 */
let site: SiteFixture;
const lines: string[] = [];

beforeAll(async () => {
  site = await startFixture({ hooks: { log: (line) => lines.push(line) } });
}, 180_000);

afterAll(async () => {
  await site?.close();
});

test('a page, a refusal and a missing page each log method, path without its query, status and time', async () => {
  lines.length = 0;
  await site.inject('/about?email=someone%40example.com');
  await site.inject('/no-such-page');
  await site.inject({ method: 'POST', url: '/about', payload: 'name=Thandi' });
  // A preview link's token is a credential: the line names the link only.
  await site.inject('/_preview/secret-preview-token-0123456789');
  const requests = lines.filter((l) => /^(GET|POST|HEAD) /.test(l));
  expect(requests).toEqual([
    expect.stringMatching(/^GET \/about 200 \d+(\.\d)? ms$/),
    expect.stringMatching(/^GET \/no-such-page 404 \d+(\.\d)? ms$/),
    expect.stringMatching(/^POST \/about 405 \d+(\.\d)? ms$/),
    expect.stringMatching(/^GET \/_preview\/\(link\) \d{3} \d+(\.\d)? ms$/),
  ]);
  expect(lines.join('\n')).not.toMatch(/someone|Thandi|secret-preview-token/);
});

test('a target holding U+2028, NUL, a lone surrogate or a megabyte is logged as sent, on one line', async () => {
  lines.length = 0;
  const odd = '/x%E2%80%A8%00%ED%A0%80';
  await site.inject(odd);
  const long = `/${'a'.repeat(1024 * 1024)}`;
  const answer = await site.inject(long);
  expect(answer.statusCode).toBeLessThan(500);
  const requests = lines.filter((l) => /^GET /.test(l));
  // A target the router cannot decode is refused, 400, and logged as any other.
  expect(requests[0]).toMatch(new RegExp(`^GET ${odd} 400 \\d+(\\.\\d)? ms$`));
  expect(requests.every((l) => !['\n', '\u2028', '\u0000'].some((c) => l.includes(c)))).toBe(true);
  expect((await site.inject('/about')).statusCode).toBe(200);
});

test('files and probes are not logged at info', async () => {
  lines.length = 0;
  await site.inject('/favicon.svg');
  await site.inject('/_health');
  await site.inject('/_ready');
  expect(lines.filter((l) => /^(GET|POST|HEAD) /.test(l))).toEqual([]);
});
