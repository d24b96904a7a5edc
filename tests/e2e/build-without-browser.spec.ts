import { company } from '@site/ui/company';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { SITE_REMOTES } from '@site/contracts/site';
import { BUILD_RECORD_VARIABLE, noBrowserEnvironment } from '../../scripts/lib/no-browser';
import { ROOT } from '../support/deployment';
import { NOT_FOUND, hubPages, servicePages, shellPages } from '../support/site';

/**
 * Building and exporting the site needs no browser. The build and the export run where no browser
 * can be found, and every Node.js process of them records whether it looked for one
 * (scripts/lib/no-browser.ts: a PATH without any program named like Chromium or Chrome, empty
 * folders for CHROME_PATH, PLAYWRIGHT_BROWSERS_PATH and HOME, and a preload that records each
 * process, child process and look-up under a name containing "chrom"), with no special rights, so
 * the test runs as any user on Linux or macOS.
 *
 * The build is the one `npm test` made before the browser tests, in that environment (it hands the
 * record over in NO_BROWSER_BUILD_RECORD); run on its own, this test builds a copy of the sources
 * itself. The export runs here, on a copy of the sources and their builds.
 *
 * Hiding the browser alone would prove little: a build that looked for one and, finding none, went
 * on would pass. The record shows that nothing looked, and it names the processes it watched, so a
 * preload that did not load fails the test too. Its remotes are listed at ports 3151 onwards (one a
 * group), away from the site the other tests use; nothing listens there.
 */
test('the site builds and exports with no browser anywhere, every page whole in its HTML', async () => {
  test.setTimeout(300_000);
  const work = path.join(ROOT, 'tests', '.tmp', 'no-browser');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const builtRecord = process.env[BUILD_RECORD_VARIABLE];
  const built = Boolean(builtRecord && existsSync(builtRecord));
  const folders = ['shared', 'shell', ...SITE_REMOTES.map((r) => r.folder), 'scripts'];
  for (const folder of folders) {
    cpSync(path.join(ROOT, folder), path.join(work, folder), {
      recursive: true,
      // The builds come along when `npm test` made them where no browser could be found.
      filter: (src) =>
        !(built ? /[/\\]node_modules([/\\]|$)/ : /[/\\](node_modules|dist)([/\\]|$)/).test(src),
    });
    const modules = path.join(ROOT, folder, 'node_modules');
    if (existsSync(modules)) symlinkSync(modules, path.join(work, folder, 'node_modules'));
  }
  for (const file of ['package.json', 'tsconfig.json', 'tsconfig.build.json']) {
    cpSync(path.join(ROOT, file), path.join(work, file));
  }
  // The root's node_modules links the workspaces relatively, so the copy's own folders are used.
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(work, 'node_modules'));

  const noBrowser = noBrowserEnvironment(path.join(work, '.no-browser'));
  const env: NodeJS.ProcessEnv = {
    ...noBrowser.env,
    ...Object.fromEntries(
      SITE_REMOTES.map((r, i) => [
        `REMOTE_${r.name.toUpperCase()}_URL`,
        `http://localhost:${3151 + i}`,
      ]),
    ),
    SITE_URL: 'https://www.example.com',
  };

  // No browser is on this PATH, by any of the names one goes by.
  const found = execFileSync(
    'sh',
    ['-c', 'for b in chromium chromium-browser google-chrome chrome; do command -v $b; done; true'],
    { env, encoding: 'utf8' },
  );
  expect(found.trim()).toBe('');

  const out = path.join(work, 'export');
  // Built by `npm test`: the copy's manifest is written from its builds, as a build ends.
  if (built) execFileSync('npm', ['run', 'manifest'], { cwd: work, env, stdio: 'pipe' });
  else execFileSync('npm', ['run', 'build'], { cwd: work, env, stdio: 'pipe' });
  execFileSync('npm', ['run', 'export', '--', '--out', out], { cwd: work, env, stdio: 'pipe' });

  const read = (file: string) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map(
        (line) =>
          JSON.parse(line) as {
            kind: string;
            argv?: string[];
            command?: string[];
            path?: string;
            url?: string;
          },
      );
  const buildRecord = read(built ? builtRecord! : noBrowser.log);
  const record = built ? [...buildRecord, ...read(noBrowser.log)] : buildRecord;
  // The record watched the run: the builds' webpack and the export were among its processes.
  const watchedIn = (entries: typeof record) =>
    entries.filter((e) => e.kind === 'process').map((e) => e.argv?.join(' ') ?? '');
  expect(watchedIn(buildRecord).some((argv) => /webpack/.test(argv))).toBe(true);
  expect(watchedIn(record).some((argv) => /export\.ts/.test(argv))).toBe(true);
  expect(buildRecord.some((e) => e.kind === 'spawn')).toBe(true);
  // And nothing started, opened, listed or loaded a browser. browserslist reads
  // electron-to-chromium, a table of which Chromium each Electron release carries: data about
  // browsers, not one.
  const BROWSER_DATA = /[/\\]node_modules[/\\]electron-to-chromium[/\\]/;
  const tried = record.filter((e) => {
    if (e.kind === 'process') return false;
    const what = e.kind === 'spawn' ? (e.command ?? []).join(' ') : (e.path ?? e.url ?? '');
    return /chrom/i.test(what) && !BROWSER_DATA.test(what);
  });
  expect(tried).toEqual([]);

  const pages = [{ path: '/', title: '' }, ...shellPages, ...hubPages, ...servicePages];
  for (const spec of pages) {
    const file = spec.path === '/' ? 'index.html' : `${spec.path.slice(1)}/index.html`;
    const html = readFileSync(path.join(out, file), 'utf8');
    const canonical = `https://www.example.com${spec.path}`;
    expect(/<title>([^<]*)<\/title>/.exec(html)?.[1], spec.path).toContain(company.name);
    const description = /<meta name="description" content="([^"]+)"/.exec(html)?.[1] ?? '';
    expect(description.length, spec.path).toBeGreaterThanOrEqual(50);
    expect(html, spec.path).toContain(`<link rel="canonical" href="${canonical}" />`);
    expect(html, spec.path).toContain(`<meta property="og:url" content="${canonical}" />`);
    expect(html, spec.path).toMatch(/<meta property="og:title" content="[^"]+"/);
    expect(html, spec.path).toMatch(/<meta property="og:description" content="[^"]+"/);
    const h1 = /<h1\b[^>]*>([^<]+)<\/h1>/.exec(html)?.[1];
    if (spec.title) expect(h1, spec.path).toBe(spec.title.replace(/&/g, '&amp;'));
    else expect(h1, spec.path).toBeTruthy();
    const main = /<main\b[^>]*>([\s\S]*)<\/main>/.exec(html)?.[1] ?? '';
    const words = main
      .replace(/<[^>]+>/g, ' ')
      .split(/\s+/)
      .filter(Boolean).length;
    expect(words, spec.path).toBeGreaterThan(150);
  }
  const notFound = readFileSync(path.join(out, '404.html'), 'utf8');
  expect(notFound).toContain(NOT_FOUND.heading);
  expect(notFound).toContain('<meta name="robots" content="noindex" />');
  const sitemap = readFileSync(path.join(out, 'sitemap.xml'), 'utf8');
  expect([...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)]).toHaveLength(pages.length);
  expect(readFileSync(path.join(out, 'robots.txt'), 'utf8')).toContain(
    'Sitemap: https://www.example.com/sitemap.xml',
  );
  rmSync(work, { recursive: true, force: true });
});
