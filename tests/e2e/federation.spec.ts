import { expect, type Page } from '@playwright/test';
import { alteredVersion } from '../support/altered-version';
import { test, type TestDeployment } from '../support/deployment';
import { ready } from '../support/ready';
import { saveData } from '../support/save-data';
import { remotes } from '../support/site';

test.describe('module federation', () => {
  for (const remote of remotes) {
    test(`${remote.name}'s code is fetched from its own origin, only on its pages`, async ({
      page,
    }) => {
      // Warming off: only what each page itself loads is counted.
      await saveData(page);
      const requests: string[] = [];
      page.on('request', (req) => requests.push(req.url()));
      await page.goto('/about');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('About Us');
      expect(requests.filter((u) => u.startsWith(remote.origin))).toEqual([]);

      await page.goto(remote.sample);
      // The heading is in the server's HTML; the group's code arrives when the client takes over.
      await ready(page);
      const fromRemote = requests.filter((u) => u.startsWith(remote.origin));
      expect(fromRemote.some((u) => /\/remoteEntry\.js$/.test(u))).toBe(true);
      // no other remote was loaded for this page
      for (const other of remotes.filter((r) => r !== remote)) {
        expect(requests.filter((u) => u.startsWith(other.origin))).toEqual([]);
      }
    });
  }

  test('each group lists the files of every one of its pages, which the site server preloads', async ({
    request,
  }) => {
    const manifest = (await (await request.get('/remotes.json')).json()) as {
      remotes: { name: string; entry: string; routes: { path: string }[] }[];
    };
    for (const remote of manifest.remotes) {
      const assets = (await (
        await request.get(new URL('page-assets.json', remote.entry).href)
      ).json()) as { pages: Record<string, string[]> };
      for (const { path } of remote.routes) {
        expect(assets.pages[path]?.length ?? 0, `${remote.name} ${path}`).toBeGreaterThan(0);
      }
    }
  });

  test('React comes from the shell alone, once per document, whatever page is entered', async ({
    page,
  }) => {
    const scripts: { url: string; body: string }[] = [];
    // Each body is read as its response arrives; all of them are waited for before they are looked
    // at, so a script whose body is still being read is not missed.
    const reading: Promise<void>[] = [];
    page.on('response', (res) => {
      if (res.request().resourceType() !== 'script') return;
      reading.push(
        res.text().then(
          (body) => void scripts.push({ url: res.url(), body }),
          () => void scripts.push({ url: res.url(), body: '' }),
        ),
      );
    });
    await page.goto('/services/custom-dev/software-dev');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Software Development');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Big Data' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Big Data');
    // Taken over: every script the page runs has been fetched. (Not "network idle": a document
    // fetched ahead by the speculation rules can leave a request open that the page never uses.)
    await ready(page);
    await Promise.all(reading);
    // react-dom's client carries this error-decoder URL; one script of each document may contain
    // it (the move into another group is a page load: two documents, the second of which may take
    // it from the memory cache unseen), and only the shell's.
    const withReactDom = scripts.filter(
      (s) => s.body.includes('react.dev/errors/') && s.body.includes('createRoot'),
    );
    expect(withReactDom.length).toBeGreaterThanOrEqual(1);
    expect(withReactDom.length).toBeLessThanOrEqual(2);
    expect(new Set(withReactDom.map((s) => new URL(s.url).origin))).toEqual(
      new Set(['http://localhost:3000']),
    );
    expect(new Set(withReactDom.map((s) => s.url)).size).toBe(1);
  });

  /**
   * The data group deployed as if built against another version of a shared package: every range
   * its entry declares that `pattern` matches becomes `range` (the entry holds each range as webpack
   * encodes it: `^19.3.1` is `[1,19,3,1]`). Its own site (`sitePort`) and host (`sitePort + 1`)
   * serve it, its files pinned as built. Returns the site and the scripts the page downloads.
   */
  async function deployedBuiltFor(
    page: Page,
    deployment: TestDeployment,
    sitePort: number,
    range: string,
    pattern = /\[1,19,\d+,\d+\]/g,
  ) {
    const encoded = `[1,${range.replace(/^\^/, '').split('.').join(',')}]`;
    const { dist, changed } = alteredVersion('data', '1.0.1', (code, file) =>
      file === 'remoteEntry.js' ? code.replace(pattern, encoded) : code,
    );
    expect(changed).toBeGreaterThan(0);
    const host = `http://localhost:${sitePort + 1}`;
    await deployment.startRemote(dist, sitePort + 1);
    const site = await deployment.startSite(sitePort);
    await deployment.writeManifest({ dists: { data: dist }, urls: { data: host } });
    const scripts: { url: string; body: string }[] = [];
    page.on('response', async (res) => {
      if (res.request().resourceType() === 'script')
        scripts.push({ url: res.url(), body: await res.text().catch(() => '') });
    });
    return { site, scripts };
  }

  const reactDomCopies = (scripts: { url: string; body: string }[]) =>
    scripts.filter((s) => s.body.includes('react.dev/errors/') && s.body.includes('createRoot'));

  test('a remote built against another minor of React runs on the shell’s copy, silently', async ({
    page,
    deployment,
  }) => {
    const warnings: string[] = [];
    page.on('console', (m) => ['warning', 'error'].includes(m.type()) && warnings.push(m.text()));
    const { site, scripts } = await deployedBuiltFor(page, deployment, 3187, '^19.0.0');
    await page.goto(`${site}/services/data-analytics/big-data`);
    // The heading is in the server's HTML; the scripts arrive when the client takes over.
    await ready(page);
    await page.waitForLoadState('networkidle');
    // The group's code ran: its page is live (a page whose code did not arrive keeps a notice).
    await expect(page.getByRole('status').filter({ hasText: 'interactive parts' })).toHaveCount(0);
    expect(scripts.some((s) => s.url.startsWith('http://localhost:3188/1.0.1/'))).toBe(true);
    await expect.poll(() => reactDomCopies(scripts).length).toBe(1);
    expect(warnings.filter((w) => /satisfy|shared|integrity/i.test(w))).toEqual([]);
  });

  test('a remote that needs an incompatible shared package is reported, not given a second copy', async ({
    page,
    deployment,
  }) => {
    // The remote's pages are data drawn by the UI package's renderer, so the singleton it
    // consumes at run time is @site/ui (the deploy API refuses such a version before it goes
    // live; this is what the browser does if one is served anyway).
    const warnings: string[] = [];
    page.on('console', (m) => ['warning', 'error'].includes(m.type()) && warnings.push(m.text()));
    const { site, scripts } = await deployedBuiltFor(
      page,
      deployment,
      3197,
      '^2.0.0',
      /\[1,1,0,0\]/g,
    );
    await page.goto(`${site}/services/data-analytics/big-data`);
    await ready(page);
    await page.waitForLoadState('networkidle');
    await expect
      .poll(() => reactDomCopies(scripts).map((s) => new URL(s.url).origin))
      .toEqual(['http://localhost:3197']);
    expect(warnings.join('\n')).toMatch(/shared singleton module @site\/ui \(required \^2\.0\.0\)/);
  });

  test('hovering a link to another page of the group preloads that page before the click; a link into another group loads none of its code', async ({
    page,
  }) => {
    await page.goto('/services/enterprise');
    await ready(page);
    const loaded: string[] = [];
    page.on('request', (req) => loaded.push(req.url()));
    await page.getByRole('contentinfo').getByRole('link', { name: 'Big Data' }).hover();
    await page.getByRole('contentinfo').getByRole('link', { name: 'e-Learning' }).hover();
    await expect.poll(() => loaded.some((u) => u.startsWith('http://localhost:3003/'))).toBe(true);
    await page.waitForLoadState('networkidle');
    expect(loaded.filter((u) => u.startsWith('http://localhost:3002/'))).toEqual([]);
  });
});
