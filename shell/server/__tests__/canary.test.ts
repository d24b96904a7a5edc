/**
 * @jest-environment node
 */
import { testManifest, testRemote } from '@site/build/testing/manifest';
import { live, manifestText } from '../control-plane';
import { CanaryViews, cohortOf, placeVisitor } from '../canary';

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
  ])('a cookie header %j gives no cohort', (header) => {
    expect(cohortOf(header)).toBeNull();
  });

  test('a kept cohort is read; a crawler or a request without a user agent gets none', () => {
    expect(cohortOf('a=1; site_cohort=42')).toBe(42);
    expect(placeVisitor('site_cohort=42', BROWSER, false)).toEqual({ cohort: 42 });
    expect(
      placeVisitor(undefined, 'Googlebot/2.1 (+http://www.google.com/bot.html)', false),
    ).toEqual({
      cohort: null,
    });
    expect(placeVisitor(undefined, undefined, false)).toEqual({ cohort: null });
    const placed = placeVisitor(undefined, BROWSER, true);
    expect(placed.cohort).toBeGreaterThanOrEqual(0);
    expect(placed.cohort).toBeLessThan(100);
    expect(placed.setCookie).toMatch(
      /^site_cohort=\d{1,2}; Max-Age=86400; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    );
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
