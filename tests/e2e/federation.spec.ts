import { expect, test, type Page } from '@playwright/test';
import { ready } from '../support/ready';
import { releaseRoutes } from '../support/routes';
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
   * Serves the data remote's entry as if the remote had been built against another version of a
   * shared package: every range it declares that `pattern` matches becomes `range`. The entry
   * holds each range as webpack encodes it (`^19.3.1` is `[1,19,3,1]`). Returns the scripts the
   * page downloads.
   */
  async function remoteBuiltFor(page: Page, range: string, pattern = /\[1,19,\d+,\d+\]/g) {
    const encoded = `[1,${range.replace(/^\^/, '').split('.').join(',')}]`;
    const scripts: { url: string; body: string }[] = [];
    page.on('response', async (res) => {
      if (res.request().resourceType() === 'script')
        scripts.push({ url: res.url(), body: await res.text().catch(() => '') });
    });
    let replaced = 0;
    await page.route('http://localhost:3002/**/remoteEntry.js', async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace(pattern, () => {
        replaced += 1;
        return encoded;
      });
      await route.fulfill({ response, body });
    });
    return { scripts, replaced: () => replaced };
  }

  const reactDomCopies = (scripts: { url: string; body: string }[]) =>
    scripts.filter((s) => s.body.includes('react.dev/errors/') && s.body.includes('createRoot'));

  test('a remote built against another minor of React runs on the shell’s copy, silently', async ({
    page,
  }) => {
    const warnings: string[] = [];
    page.on('console', (m) => ['warning', 'error'].includes(m.type()) && warnings.push(m.text()));
    const { scripts, replaced } = await remoteBuiltFor(page, '^19.0.0');
    await page.goto('/services/data-analytics/big-data');
    // The heading is in the server's HTML; the scripts arrive when the client takes over.
    await ready(page);
    await page.waitForLoadState('networkidle');
    expect(replaced()).toBeGreaterThan(0);
    await expect.poll(() => reactDomCopies(scripts).length).toBe(1);
    expect(warnings.filter((w) => /satisfy|shared/i.test(w))).toEqual([]);
    await releaseRoutes(page);
  });

  test('a remote that needs an incompatible shared package is reported, not given a second copy', async ({
    page,
  }) => {
    // The remote's pages are data drawn by the UI package's renderer, so the singleton it
    // consumes at run time is @site/ui (the deploy API refuses such a version before it goes
    // live; this is what the browser does if one is served anyway).
    const warnings: string[] = [];
    page.on('console', (m) => ['warning', 'error'].includes(m.type()) && warnings.push(m.text()));
    const { scripts, replaced } = await remoteBuiltFor(page, '^2.0.0', /\[1,1,0,0\]/g);
    await page.goto('/services/data-analytics/big-data');
    await ready(page);
    await page.waitForLoadState('networkidle');
    expect(replaced()).toBeGreaterThan(0);
    await expect
      .poll(() => reactDomCopies(scripts).map((s) => new URL(s.url).origin))
      .toEqual(['http://localhost:3000']);
    expect(warnings.join('\n')).toMatch(/shared singleton module @site\/ui \(required \^2\.0\.0\)/);
    await releaseRoutes(page);
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
