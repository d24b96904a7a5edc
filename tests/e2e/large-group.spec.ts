import path from 'node:path';
import { company } from '@site/ui/company';
import { expect } from '@playwright/test';
import { LEADING_PAGES } from '@site/contracts';
import { watchConsole } from '../support/console';
import { ready } from '../support/ready';
import { test } from '../support/deployment';
import { TRAINING_REGIONS, buildPublicHealthNext } from '../support/team-build';

/**
 * A group with more pages than every page names: the public-health team's next version has 15
 * pages past its overview (its three, Field Training and eleven regional training pages). Pages name
 * the first ten; the rest are reached through the group's overview, and the browser fetches the
 * group's whole route table when the visitor goes there, once, without a page load.
 */
test.describe('a group with more pages than the navigation names', () => {
  test('the menu names its first ten pages and leads to the overview for all fifteen; a page past them opens in place, and entered directly it is taken over without an error', async ({
    page,
    deployment,
  }) => {
    test.setTimeout(150_000);
    const site = await deployment.startSite(3210);
    const work = await buildPublicHealthNext('mfe-public-health-large');
    await deployment.startRemote(path.join(work, 'dist'), 3214);
    await deployment.writeManifest({
      dists: { public_health: path.join(work, 'dist') },
      urls: { public_health: 'http://localhost:3214' },
    });
    const errors = watchConsole(page);
    const tables: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/_routes/')) tables.push(r.url());
    });

    await page.goto(`${site}/public-health/MandE-tools`);
    await ready(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('button', { name: 'Services' }).click();
    const group = nav.getByRole('list', { name: 'Public Health' });
    const named = await group.getByRole('link').allTextContents();
    expect(named).toHaveLength(LEADING_PAGES + 1);
    expect(named.slice(0, 4)).toEqual([
      'M & E Solutions',
      'M & E Tools',
      'Analytics & Reporting',
      'Field Training',
    ]);
    expect(named.at(-1)).toBe('All 15 Public Health services');
    expect(tables).toEqual([]);

    // The visit so far is one document: a page load would start another.
    await page.evaluate(() => ((window as unknown as { visit: string }).visit = 'the same'));
    await group.getByRole('link', { name: 'All 15 Public Health services' }).click();
    await expect(page).toHaveURL(`${site}/public-health`);
    const last = TRAINING_REGIONS.at(-1)!;
    const card = page.getByRole('main').getByRole('link', { name: new RegExp(last[1]) });
    await card.click();
    await expect(page).toHaveURL(`${site}/public-health/training-${last[0]}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Training in ${last[1]}`);
    await expect(page).toHaveTitle(`Training in ${last[1]} | ${company.name}`);
    expect(await page.evaluate(() => (window as unknown as { visit?: string }).visit)).toBe(
      'the same',
    );
    expect(tables).toEqual([`${site}/_routes/public_health`]);

    // Another page past the ten, and back: the table is not asked for again.
    await page.goBack();
    await expect(page).toHaveURL(`${site}/public-health`);
    await page
      .getByRole('main')
      .getByRole('link', { name: /Gauteng/ })
      .click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Training in Gauteng');
    expect(tables).toHaveLength(1);

    // Entered directly, the page carries its own route: the client takes it over as it is.
    await page.goto(`${site}/public-health/training-${last[0]}`);
    await ready(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Training in ${last[1]}`);
    await page
      .getByRole('navigation', { name: 'Breadcrumb' })
      .getByRole('link', { name: 'Public Health' })
      .click();
    await expect(page).toHaveURL(`${site}/public-health`);
    expect(errors).toEqual([]);
  });
});
