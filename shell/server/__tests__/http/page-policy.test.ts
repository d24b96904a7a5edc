/**
 * @jest-environment node
 */
import { createHash } from 'node:crypto';
import { METRICS_TOKEN, SITE_URL, startFixture, type SiteFixture } from './site-fixture';
import { SPECULATION_HASH } from '../../pages/policy';

/**
 * The policy each page answer carries, as a browser enforces it: scripts from the site and the
 * page's own group only (the site's one inline script by its hash), connections likewise, the
 * contact page with no group at all and never framed; and the reports of what the policy stopped,
 * counted per group.
 */
let fixture: SiteFixture;

beforeAll(async () => {
  fixture = await startFixture();
}, 180_000);

afterAll(() => fixture?.close());

const get = (url: string) => fixture.inject({ method: 'GET', url });

/** The policy's directives by name. */
function directives(answer: { headers: Record<string, unknown> }): Record<string, string[]> {
  const policy = String(answer.headers['content-security-policy'] ?? '');
  return Object.fromEntries(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

/** The hash of every inline script of a page that a browser would run. */
const inlineHashes = (html: string): string[] =>
  [...html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/g)]
    .filter(([, attributes = '']) => !/\bsrc=|\btype="?application\//.test(attributes))
    .map(([, , body]) => `'sha256-${createHash('sha256').update(body!).digest('base64')}'`);

describe('the policy of a page', () => {
  test("a group's page runs and reaches the site and that group's origin alone", async () => {
    const answer = await get('/probe/hello');
    const policy = directives(answer);
    const hashes = inlineHashes(answer.body);
    expect(hashes).toHaveLength(1);
    expect(policy['script-src']).toEqual(["'self'", fixture.origin, ...hashes, SPECULATION_HASH]);
    expect(policy['connect-src']).toEqual(["'self'", fixture.origin]);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    expect(policy['report-uri']).toEqual(['/_csp']);
  });

  test("a path under a group's prefix that it does not have (the 404 page) is that group's document, as the browser takes it", async () => {
    const answer = await get('/probe/no-such-page');
    expect(answer.statusCode).toBe(404);
    const policy = directives(answer);
    expect(policy['script-src']).toEqual([
      "'self'",
      fixture.origin,
      ...inlineHashes(answer.body),
      SPECULATION_HASH,
    ]);
    expect(policy['connect-src']).toEqual(["'self'", fixture.origin]);
  });

  test('the contact page runs and reaches nothing but the site, and no page may frame it', async () => {
    const answer = await get('/contact');
    const policy = directives(answer);
    expect(policy['script-src']).toEqual([
      "'self'",
      ...inlineHashes(answer.body),
      SPECULATION_HASH,
    ]);
    expect(policy['connect-src']).toEqual(["'self'"]);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    expect(answer.headers['x-frame-options']).toBe('DENY');
    expect(answer.headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  test('the shell pages run and reach no group, and every page keeps its limits', async () => {
    for (const url of ['/', '/about', '/no-such-page', '/contact', '/probe/hello']) {
      const answer = await get(url);
      const policy = directives(answer);
      const all = Object.values(policy).flat();
      expect([url, all.filter((v) => /unsafe|\*|data:|blob:/.test(v))]).toEqual([url, []]);
      expect([url, policy['script-src']?.slice(-2)]).toEqual([
        url,
        [...inlineHashes(answer.body), SPECULATION_HASH],
      ]);
      expect([url, policy['base-uri'], policy['object-src'], policy['form-action']]).toEqual([
        url,
        ["'self'"],
        ["'none'"],
        ["'self'"],
      ]);
      expect([url, policy['worker-src']]).toEqual([url, ["'none'"]]);
      if (url !== '/contact' && url !== '/probe/hello') {
        expect([url, policy['script-src']]).toEqual([
          url,
          ["'self'", ...inlineHashes(answer.body), SPECULATION_HASH],
        ]);
        expect([url, policy['connect-src']]).toEqual([url, ["'self'"]]);
      }
      if (url !== '/contact') {
        expect([url, answer.headers['cross-origin-opener-policy']]).toEqual([
          url,
          'noopener-allow-popups',
        ]);
      }
    }
  });
});

describe('POST /_csp', () => {
  const report = (body: unknown, type = 'application/csp-report', remoteAddress = '10.9.0.1') =>
    fixture.inject({
      method: 'POST',
      url: '/_csp',
      remoteAddress,
      headers: { 'content-type': type },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const violation = (documentUri: string, directive: string) => ({
    'csp-report': {
      'document-uri': documentUri,
      'effective-directive': directive,
      'violated-directive': directive,
      'blocked-uri': 'https://attacker.example',
    },
  });
  const count = async (group: string, directive: string): Promise<number> => {
    const text = (
      await fixture.inject({
        url: '/_metrics',
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      })
    ).body;
    const line = text
      .split('\n')
      .find((l) =>
        l.startsWith(`site_csp_violations_total{group="${group}",directive="${directive}"}`),
      );
    return line ? Number(line.split(' ').pop()) : 0;
  };

  test('a violation is counted for the group whose page it was, the shell, or unknown', async () => {
    expect((await report(violation(`${SITE_URL}/probe/hello`, 'connect-src'))).statusCode).toBe(
      204,
    );
    await report(violation(`${SITE_URL}/about`, 'script-src-elem'));
    await report(violation('https://elsewhere.example/probe/hello', 'connect-src'));
    await report(
      [
        {
          type: 'csp-violation',
          body: { documentURL: `${SITE_URL}/other/page`, effectiveDirective: 'made-up-src' },
        },
      ],
      'application/reports+json',
    );
    expect(await count('probe', 'connect-src')).toBe(1);
    expect(await count('shell', 'script-src-elem')).toBe(1);
    expect(await count('unknown', 'connect-src')).toBe(1);
    expect(await count('other', 'other')).toBe(1);
  });

  test('what is not a report is refused with its reason', async () => {
    const notJson = await report('{', 'application/csp-report', '10.9.0.2');
    expect(notJson.statusCode).toBe(400);
    const wrongShape = await report({ hello: 1 }, 'application/csp-report', '10.9.0.2');
    expect([wrongShape.statusCode, wrongShape.body]).toEqual([
      400,
      'the body is not a Content-Security-Policy violation report\n',
    ]);
    const big = await report(
      violation(`${SITE_URL}/${'x'.repeat(10_000)}`, 'connect-src'),
      'application/csp-report',
      '10.9.0.2',
    );
    expect(big.statusCode).toBe(413);
    const form = await report('a=1', 'application/x-www-form-urlencoded', '10.9.0.2');
    expect(form.statusCode).toBe(415);
  });

  test('one address has a budget of reports a minute', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      statuses.push(
        (
          await report(
            violation(`${SITE_URL}/about`, 'connect-src'),
            'application/csp-report',
            '10.9.0.3',
          )
        ).statusCode,
      );
    }
    expect(statuses.slice(0, 60).every((s) => s === 204)).toBe(true);
    expect(statuses[60]).toBe(429);
  });
});
