/**
 * @jest-environment node
 */
import { testManifest, testRemote } from '@site/build/testing/manifest';
import { live, manifestText } from '../control-plane';
import { CanaryViews, cohortOf, placeVisitor } from '../canary/judge';
import { ViewSigner, viewKeyOf } from '../canary/view-tokens';

const signer = new ViewSigner(viewKeyOf('a secret every replica shares'));
const other = new ViewSigner(viewKeyOf('another site'));
const signed = (cohort: number) => `site_cohort=${signer.cohortValue(cohort)}`;

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36';
const stable = testRemote('data', 'https://cdn.example.com/data', '/services/data', [
  '/services/data/x',
]);
const withCanaries = (canaries: unknown) =>
  live(manifestText({ ...testManifest([stable]), canaries }));
const canaryEntry = {
  ...stable,
  entry: 'https://cdn.example.com/data/1.1.0/remoteEntry.js',
  version: '1.1.0',
};

describe('canary cohorts and manifests', () => {
  test.each([
    [undefined],
    [''],
    ['site_cohort=100'],
    ['site_cohort=-1'],
    ['site_cohort=7x'],
    ['site_cohort=%ZZ'],
    ['site_cohort'],
    ['=;=;;'],
    // Set by hand: a cohort the site did not sign is no cohort.
    ['site_cohort=0'],
    ['site_cohort=42'],
    [`site_cohort=${other.cohortValue(0)}`],
    [`site_cohort=0.${signer.cohortValue(42).split('.')[1]}`],
  ])('a cookie header %j gives no cohort', (header) => {
    expect(cohortOf(header, signer)).toBeNull();
  });

  test('a kept cohort is read; a crawler or a request without a user agent gets none', () => {
    expect(cohortOf(`a=1; ${signed(42)}`, signer)).toBe(42);
    expect(placeVisitor(signed(42), BROWSER, false, signer)).toEqual({ cohort: 42 });
    expect(
      placeVisitor(undefined, 'Googlebot/2.1 (+http://www.google.com/bot.html)', false, signer),
    ).toEqual({
      cohort: null,
    });
    expect(placeVisitor(undefined, undefined, false, signer)).toEqual({ cohort: null });
    const placed = placeVisitor(undefined, BROWSER, true, signer);
    expect(placed.cohort).toBeGreaterThanOrEqual(0);
    expect(placed.cohort).toBeLessThan(100);
    expect(placed.setCookie).toMatch(
      /^site_cohort=\d{1,2}\.[\w-]{16}; Max-Age=86400; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    );
    // A hand-set cookie is replaced by a cohort of the site's choosing.
    expect(placeVisitor('site_cohort=0', BROWSER, false, signer).setCookie).toBeDefined();
  });

  test('a view token names its group, version and cohort, and counts for nothing altered, foreign or expired', () => {
    let now = 1_000_000;
    const clock = new ViewSigner(viewKeyOf('a secret every replica shares'), () => now);
    const { token, claims } = clock.sign('data', '1.1.0', 3);
    expect(clock.verify(token)).toEqual(claims);
    expect(claims).toMatchObject({ group: 'data', version: '1.1.0', cohort: 3 });
    const [payload, mac] = token.split('.') as [string, string];
    const forged = Buffer.from(
      JSON.stringify(['data', '1.1.0', 3, claims.expiresAt, 'another']),
    ).toString('base64url');
    expect(clock.verify(`${forged}.${mac}`)).toBeNull();
    expect(clock.verify(`${payload}.${mac.slice(1)}x`)).toBeNull();
    expect(other.verify(token)).toBeNull();
    expect(clock.verify('')).toBeNull();
    expect(clock.verify('x'.repeat(5000))).toBeNull();
    expect(clock.fromCookie(`site_view=${token}`)).toEqual(claims);
    now += 30 * 60 * 1000;
    expect(clock.verify(token)).toBeNull();
  });

  test.each([
    ['not a list', 'nope'],
    ['a share out of range', [{ ...canaryEntry, percent: 90 }]],
    ['a share that is not whole', [{ ...canaryEntry, percent: 2.5 }]],
    ['a group that is not live', [{ ...canaryEntry, name: 'ghost', percent: 10 }]],
    ['an entry that does not parse', [{ name: 'data', percent: 10, entry: 'ftp://x' }]],
  ])('a manifest whose canaries hold %s shows every visitor the stable version', (_, canaries) => {
    const manifest = withCanaries(canaries);
    expect(manifest.canaries).toEqual([]);
    expect(new CanaryViews().view(manifest, 0)).toBe(manifest);
  });

  test('a cohort below the share sees the canary; above it, and crawlers, the stable entry', () => {
    const manifest = withCanaries([{ ...canaryEntry, percent: 10 }]);
    const views = new CanaryViews();
    const seen = views.view(manifest, 3);
    expect(seen.manifest.remotes[0]?.version).toBe('1.1.0');
    expect(seen.text).not.toContain('canaries');
    expect(views.view(manifest, 3)).toBe(seen);
    expect(views.view(manifest, 10)).toBe(manifest);
    expect(views.view(manifest, null)).toBe(manifest);
  });
});
