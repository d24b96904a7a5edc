import { company } from '@site/shared/company';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ROOT } from '../support/deployment';
import { NOT_FOUND, servicePages, shellPages } from '../support/site';

/**
 * Building and exporting the site needs no browser. A copy of the sources is built and exported in
 * a process that cannot find one: Debian's Chromium is hidden behind empty mounts in a mount
 * namespace of its own, and neither CHROME_PATH nor Playwright's browsers lead anywhere. Its
 * remotes are deployed at ports 3151-3154, away from the site the other tests use.
 */
test('the site builds and exports with no browser anywhere, every page whole in its HTML', async () => {
  test.setTimeout(300_000);
  const work = path.join(ROOT, 'tests', '.tmp', 'no-browser');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const folders = [
    'shared',
    'shell',
    'mfe-custom-dev',
    'mfe-data',
    'mfe-enterprise-education',
    'mfe-public-health',
    'scripts',
  ];
  for (const folder of folders) {
    cpSync(path.join(ROOT, folder), path.join(work, folder), {
      recursive: true,
      filter: (src) => !/[/\\](node_modules|dist)([/\\]|$)/.test(src),
    });
    const modules = path.join(ROOT, folder, 'node_modules');
    if (existsSync(modules)) symlinkSync(modules, path.join(work, folder, 'node_modules'));
  }
  for (const file of ['package.json', 'tsconfig.json', 'tsconfig.build.json']) {
    cpSync(path.join(ROOT, file), path.join(work, file));
  }
  // The root's node_modules links the workspaces relatively, so the copy's own folders are used.
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(work, 'node_modules'));

  const out = path.join(work, 'export');
  const script = [
    'mount --bind /dev/null /usr/bin/chromium 2>/dev/null || true',
    'if [ -d /usr/lib/chromium ]; then mount -t tmpfs none /usr/lib/chromium; fi',
    // Proof that no browser can be started from here.
    'if chromium --version >/dev/null 2>&1 || /usr/bin/chromium --version >/dev/null 2>&1; then echo "a browser is still reachable" >&2; exit 3; fi',
    'npm run build',
    `npm run export -- --out ${JSON.stringify(out)}`,
  ].join(' && ');
  execFileSync('unshare', ['--mount', 'sh', '-c', script], {
    cwd: work,
    stdio: 'pipe',
    env: {
      ...process.env,
      CHROME_PATH: '/nonexistent/chromium',
      PLAYWRIGHT_BROWSERS_PATH: '/nonexistent',
      REMOTE_CUSTOM_DEV_URL: 'http://localhost:3151',
      REMOTE_DATA_URL: 'http://localhost:3152',
      REMOTE_ENTERPRISE_EDUCATION_URL: 'http://localhost:3153',
      REMOTE_PUBLIC_HEALTH_URL: 'http://localhost:3154',
      SITE_URL: 'https://www.example.com',
    },
  });

  const pages = [{ path: '/', title: '' }, ...shellPages, ...servicePages];
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
