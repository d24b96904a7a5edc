import { testManifest, testRemote, testRoute } from '@site/build/testing/manifest';
import { readManifest } from '../manifest';
import { LEADING_PAGES, leadingRoutes, namesEveryPage, pageManifestJson } from '../page-manifest';

/** A remote with two prefixes: `/a` with its overview and `count` pages, `/b` with two. */
function twoPrefixes(count: number) {
  const remote = testRemote('grown', 'http://localhost:3001', '/a', [
    '/a',
    ...Array.from({ length: count }, (_, i) => `/a/p${i + 1}`),
  ]);
  remote.prefixes.push('/b');
  // The table's order as the team wrote it: `/b`'s pages in between `/a`'s.
  remote.routes.splice(3, 0, testRoute('/b/one'), testRoute('/b'));
  return remote;
}

describe('what a page carries of a group', () => {
  test(`each prefix's overview and its first ${LEADING_PAGES} pages, in the table's order`, () => {
    const { remotes } = readManifest(testManifest([twoPrefixes(25)]));
    const paths = leadingRoutes(remotes[0]!).map((r) => r.path);
    expect(paths).toEqual([
      '/a',
      '/a/p1',
      '/a/p2',
      '/b/one',
      '/b',
      ...Array.from({ length: LEADING_PAGES - 2 }, (_, i) => `/a/p${i + 3}`),
    ]);
  });

  test('the embedded manifest: a large group cut to its leading pages with its counts, nothing else changed', () => {
    const json = { ...testManifest([twoPrefixes(25)]), canaries: [{ keep: 'as it is' }] };
    const live = readManifest(json);
    const carried = pageManifestJson(json);
    expect(carried.canaries).toEqual(json.canaries);
    const read = readManifest(carried);
    const grown = read.remotes[0]!;
    // Each prefix's overview, `/a`'s first pages and `/b`'s one.
    expect(grown.routes).toHaveLength(3 + LEADING_PAGES);
    expect(grown.pages).toEqual({ '/a': 26, '/b': 2 });
    expect(namesEveryPage(grown)).toBe(false);
    expect(namesEveryPage(live.remotes[0]!)).toBe(true);
  });

  test('a group within the limit is carried as it is, byte for byte', () => {
    const json = testManifest([twoPrefixes(LEADING_PAGES - 2)]);
    expect(JSON.stringify(pageManifestJson(json))).toBe(JSON.stringify(json));
  });

  test('entries the reader sets aside are carried as they are, and set aside in the browser for the same reasons', () => {
    const good = twoPrefixes(30);
    const json = testManifest<unknown>([
      good,
      { name: 'broken', prefixes: ['/broken'], routes: 'not a list' },
      { ...twoPrefixes(30), prefixes: ['/a'] },
      42,
    ]);
    const live = readManifest(json);
    const carried = pageManifestJson(json);
    expect((carried.remotes as unknown[]).slice(1)).toEqual(json.remotes.slice(1));
    expect(readManifest(carried).unavailable).toEqual(live.unavailable);
    expect(live.unavailable).toHaveLength(3);
  });

  test('counts that do not cover the pages listed set the entry aside', () => {
    const remote = { ...twoPrefixes(3), pages: { '/a': 2, '/b': 2 } };
    const read = readManifest(testManifest([remote]));
    expect(read.remotes).toEqual([]);
    expect(read.unavailable?.[0]?.reason).toMatch(/pages must count/);
    const elsewhere = { ...twoPrefixes(3), pages: { '/c': 10 } };
    expect(readManifest(testManifest([elsewhere])).remotes).toEqual([]);
  });
});
