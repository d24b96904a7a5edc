/**
 * @jest-environment node
 */
import { testManifest } from '@site/build/testing/manifest';
import { live, manifestText } from '../control-plane';
import { ByPage } from '../pages/by-page';

/**
 * What a page answer needs, worked out once per manifest and path: the same value as working it
 * out each time, for any path a request can carry, and no stream of made-up paths held.
 */
const manifest = () => live(manifestText(testManifest([])));

test('each path of a manifest is worked out once, and a new manifest works it out again', () => {
  const made: string[] = [];
  const byPage = new ByPage((_live, pagePath) => {
    made.push(pagePath);
    return `value of ${pagePath}`;
  });
  const first = manifest();
  expect(byPage.get(first, '/about')).toBe('value of /about');
  expect(byPage.get(first, '/about')).toBe('value of /about');
  expect(made).toEqual(['/about']);
  expect(byPage.get(manifest(), '/about')).toBe('value of /about');
  expect(made).toEqual(['/about', '/about']);
});

test('hostile paths get their own value each time; a long or endless stream of them is not kept', () => {
  let calls = 0;
  const byPage = new ByPage((_live, pagePath) => {
    calls += 1;
    return pagePath.length;
  });
  const view = manifest();
  const strange = ['/\u2028', '/\0', '/\ud800', '/\udfff\ud800', `/${'x'.repeat(1024 * 1024)}`];
  for (const pagePath of strange) expect(byPage.get(view, pagePath)).toBe(pagePath.length);
  // The megabyte path is over the length kept: worked out again, never held.
  const before = calls;
  expect(byPage.get(view, strange[4]!)).toBe(strange[4]!.length);
  expect(calls).toBe(before + 1);
  // Ten thousand made-up paths: every answer right, and a path asked for again after them is
  // worked out again (the entries started over), so the set never grew past its bound.
  for (let i = 0; i < 10_000; i++)
    expect(byPage.get(view, `/made-up/${i}`)).toBe(`/made-up/${i}`.length);
  const afterStream = calls;
  byPage.get(view, '/\u2028');
  expect(calls).toBe(afterStream + 1);
});
