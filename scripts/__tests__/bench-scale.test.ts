import { existsSync, lstatSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GROWN, SCALE_PORTS, growSite } from '../bench/scale-grow';

/**
 * The scale benchmark grows a scratch copy of the site the way teams grow it: routes in the grown
 * group's table, each with a content file copied from a real page; this checkout is never written.
 */
const root = path.join(__dirname, '..', '..');
const tableOf = (folder: string) =>
  JSON.parse(readFileSync(path.join(folder, 'src', 'routes.json'), 'utf8')) as {
    prefixes: string[];
    routes: { path: string; title: string }[];
  };

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'bench-scale-test-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('a grown copy has the extra routes, each with its content file, and the checkout is untouched', async () => {
  const checkout = path.join(root, GROWN.folder);
  const original = tableOf(checkout);
  const contentBefore = readdirSync(path.join(checkout, 'src', 'content')).sort();

  const site = await growSite(dir, 12);

  const grown = tableOf(path.join(site, GROWN.folder));
  expect(grown.routes).toHaveLength(original.routes.length + 12);
  expect(grown.routes.slice(0, original.routes.length)).toEqual(original.routes);
  const paths = grown.routes.map((r) => r.path);
  expect(new Set(paths).size).toBe(paths.length);
  for (const route of grown.routes.slice(original.routes.length)) {
    expect(grown.prefixes.some((p) => route.path.startsWith(`${p}/`))).toBe(true);
    const slug = route.path.slice(route.path.lastIndexOf('/') + 1);
    expect(existsSync(path.join(site, GROWN.folder, 'src', 'content', `${slug}.ts`))).toBe(true);
  }

  // The scratch site table names this measurement's ports; the other groups are the checkout's.
  const table = JSON.parse(
    readFileSync(path.join(site, 'shared', 'contracts', 'site.json'), 'utf8'),
  ) as { remotes: { folder: string; port: number }[] };
  expect(table.remotes.map((r) => r.port)).toEqual(SCALE_PORTS.groups);
  for (const r of table.remotes.filter((x) => x.folder !== GROWN.folder))
    expect(lstatSync(path.join(site, r.folder)).isSymbolicLink()).toBe(true);

  expect(tableOf(checkout)).toEqual(original);
  expect(readdirSync(path.join(checkout, 'src', 'content')).sort()).toEqual(contentBefore);
});
