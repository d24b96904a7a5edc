import { expect, test } from '@playwright/test';
import { ready } from '../support/ready';
import { remotes } from '../support/site';

test.describe('module federation', () => {
  for (const remote of remotes) {
    test(`${remote.name}'s code is fetched from its own origin, only on its pages`, async ({
      page,
    }) => {
      const requests: string[] = [];
      page.on('request', (req) => requests.push(req.url()));
      await page.goto('/about');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('About Us');
      expect(requests.filter((u) => u.startsWith(remote.origin))).toEqual([]);

      await page.goto(remote.sample);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      const fromRemote = requests.filter((u) => u.startsWith(remote.origin));
      expect(fromRemote.some((u) => /\/remoteEntry\.js$/.test(u))).toBe(true);
      // no other remote was loaded for this page
      for (const other of remotes.filter((r) => r !== remote)) {
        expect(requests.filter((u) => u.startsWith(other.origin))).toEqual([]);
      }
    });
  }

  test('React is downloaded once, from the shell, whatever page is entered', async ({ page }) => {
    const scripts: { url: string; body: string }[] = [];
    page.on('response', async (res) => {
      if (res.request().resourceType() === 'script')
        scripts.push({ url: res.url(), body: await res.text().catch(() => '') });
    });
    await page.goto('/services/custom-dev/software-dev');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Software Development');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Big Data' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Big Data');
    await page.waitForLoadState('networkidle');
    // react-dom's client carries this error-decoder URL; exactly one downloaded script may contain it
    const withReactDom = scripts.filter(
      (s) => s.body.includes('react.dev/errors/') && s.body.includes('createRoot'),
    );
    expect(withReactDom.map((s) => new URL(s.url).origin)).toEqual(['http://localhost:3000']);
  });

  test('hovering a link into a group preloads that group before the click', async ({ page }) => {
    await page.goto('/');
    await ready(page);
    const loaded: string[] = [];
    page.on('request', (req) => loaded.push(req.url()));
    await page.getByRole('contentinfo').getByRole('link', { name: 'e-Learning' }).hover();
    await expect
      .poll(() =>
        loaded.some((u) => u.startsWith('http://localhost:3003/') && u.endsWith('remoteEntry.js')),
      )
      .toBe(true);
  });

  test('a bad deployment manifest is a clear error in the page and the console', async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.route('**/remotes.json', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '{"schemaVersion":1}' }),
    );
    await page.goto('/about');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('The site could not load');
    await expect(page.getByRole('alert')).toContainText('configuration could not be read');
    expect(errors.join('\n')).toContain('remotes');
  });

  test('a missing deployment manifest is a clear error too', async ({ page }) => {
    await page.route('**/remotes.json', (route) =>
      route.fulfill({ status: 404, body: 'not found' }),
    );
    await page.goto('/');
    await expect(page.getByRole('alert')).toContainText('HTTP 404');
  });
});
