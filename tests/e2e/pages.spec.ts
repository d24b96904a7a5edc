import { expect, test } from '@playwright/test';
import { followMainLink, ready } from '../support/ready';

test.describe('service pages', () => {
  // Each page's title, breadcrumb, call to action and accordions are checked in its one visit,
  // in every-page.spec.ts.
  test('the frontend and backend counters count up to 01, 02, 03 and 04', async ({ page }) => {
    for (const path of ['/services/custom-dev/frontend-dev', '/services/custom-dev/backend-dev']) {
      await page.goto(path);
      await ready(page);
      const counters = page.getByTestId('counter-value');
      await expect(counters).toHaveCount(4);
      await counters.first().scrollIntoViewIfNeeded();
      await expect(counters).toHaveText(['01', '02', '03', '04'], { timeout: 6_000 });
      if (path.endsWith('frontend-dev')) await expect(page.locator('main')).toContainText('420+');
    }
  });

  const crossLinks: [string, string, string][] = [
    [
      '/services/custom-dev/software-dev',
      '/services/custom-dev/web-app-dev',
      'Web App Development',
    ],
    [
      '/services/custom-dev/software-dev',
      '/services/custom-dev/mobile-app-dev',
      'Mobile App Development',
    ],
    [
      '/services/custom-dev/software-dev',
      '/services/custom-dev/cloud-app-dev',
      'Cloud App Development',
    ],
    [
      '/services/custom-dev/mobile-app-dev',
      '/services/custom-dev/mobile-app-dev/ios',
      'iOS App Development',
    ],
    [
      '/services/custom-dev/mobile-app-dev',
      '/services/custom-dev/mobile-app-dev/android',
      'Android App Development',
    ],
    [
      '/services/custom-dev/mobile-app-dev',
      '/services/custom-dev/mobile-app-dev/cross-platform',
      'Cross-Platform App Development',
    ],
    [
      '/services/custom-dev/web-app-dev',
      '/services/custom-dev/frontend-dev',
      'Frontend Development',
    ],
    ['/services/custom-dev/web-app-dev', '/services/custom-dev/backend-dev', 'Backend Development'],
    ['/services/custom-dev/web-app-dev', '/services/custom-dev/integration', 'Systems Integration'],
  ];
  for (const [from, to, title] of crossLinks) {
    test(`${from} links to ${title}`, async ({ page }) => {
      await page.goto(from);
      await ready(page);
      await page.getByRole('main').locator(`a[href="${to}"]`).first().click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    });
  }

  test('Big Data has a Learn More button to Data Engineering', async ({ page }) => {
    await followMainLink(
      page,
      '/services/data-analytics/big-data',
      'Learn More',
      '/services/data-analytics/data-engineering',
    );
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Data Engineering');
  });

  test('the pages carry the figures the company claims', async ({ page }) => {
    const claims: [string, RegExp[]][] = [
      ['/services/custom-dev/mobile-app-dev', [/80%/, /70%/]],
      ['/services/enterprise/sharepoint', [/14\+/, /week/i]],
      [
        '/services/enterprise/enterprise-support',
        [
          /2-hour|2 hours/i,
          /4-hour|4 hours/i,
          /8 AM/i,
          /6 PM/i,
          /24\/7/,
          /40 hours/i,
          /fixed monthly/i,
        ],
      ],
      [
        '/about',
        [
          /2008/,
          /Africa and Europe/,
          /20\+/,
          /24 years/,
          /21\+/,
          /15\+/,
          /Manufacturing/,
          /Motor industry/,
        ],
      ],
    ];
    for (const [path, patterns] of claims) {
      await page.goto(path);
      await ready(page);
      const text = await page.locator('main').textContent();
      for (const pattern of patterns) expect(text, `${path} ${pattern}`).toMatch(pattern);
    }
  });
});

test.describe("what a client reads about today's Microsoft estate", () => {
  test('the EPM page does not offer Project Online as a product to buy: it sells the move off it', async ({
    page,
  }) => {
    await page.goto('/services/enterprise/epm');
    await ready(page);
    const main = page.getByRole('main');
    // No platform on offer is Project Online.
    for (const heading of await main.getByRole('heading').allTextContents()) {
      expect(heading.trim()).not.toMatch(/^(Microsoft )?Project Online$/);
    }
    const text = (await main.locator('h1, h2, h3, p, li').allTextContents()).join('\n');
    expect(text).toContain('30 September 2026');
    const naming = text
      .split(/(?<=[.!?:])\s+|\n/)
      .filter((sentence) => sentence.includes('Project Online'));
    expect(naming.length).toBeGreaterThan(0);
    for (const sentence of naming) {
      expect(sentence).toMatch(
        /retired|stopped selling|switched it off|move|moving|migration|did|can go now|after/i,
      );
    }
  });
});
