/**
 * Reading the site as visitors move through it: no section is ever blank however the visitor gets
 * to it (the End key, an anchor, a capture of the whole page), a counter not watched counting
 * shows its figure, and the phone's services menu opens one group at a time.
 */
import { expect, test, type Page } from '@playwright/test';
import { yearsSinceFounding } from '@site/ui/company';
import { ready } from '../support/ready';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 844 };
const SIZES = [
  ['a phone', PHONE],
  ['a desktop', DESKTOP],
] as const;

/**
 * The share of a region's pixels that stand out from its most common colour (by more than a
 * faint, fading trace would): about 0 for a blank band, a few per cent for one with words.
 */
async function ink(page: Page, png: Buffer, regions: { y: number; height: number }[]) {
  const decoder = await page.context().newPage();
  try {
    return await decoder.evaluate(
      async ({ data, regions }) => {
        const image = new Image();
        image.src = `data:image/png;base64,${data}`;
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = image.width;
        canvas.height = image.height;
        const context = canvas.getContext('2d')!;
        context.drawImage(image, 0, 0);
        return regions.map(({ y, height }) => {
          const { data: px } = context.getImageData(0, y, image.width, height);
          const counts = new Map<number, number>();
          for (let i = 0; i < px.length; i += 4)
            counts.set(
              (px[i]! << 16) | (px[i + 1]! << 8) | px[i + 2]!,
              (counts.get((px[i]! << 16) | (px[i + 1]! << 8) | px[i + 2]!) ?? 0) + 1,
            );
          const common = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
          const [r, g, b] = [(common >> 16) & 255, (common >> 8) & 255, common & 255];
          let standing = 0;
          for (let i = 0; i < px.length; i += 4) {
            const diff = Math.max(
              Math.abs(px[i]! - r),
              Math.abs(px[i + 1]! - g),
              Math.abs(px[i + 2]! - b),
            );
            if (diff > 64) standing += 1;
          }
          return standing / (px.length / 4);
        });
      },
      { data: png.toString('base64'), regions },
    );
  } finally {
    await decoder.close();
  }
}

/** Each section of the page's main area in view, as a band of the screen (at least 120 px of it). */
async function sectionsInView(page: Page) {
  return page.locator('main section').evaluateAll((sections) =>
    sections.flatMap((section) => {
      const box = section.getBoundingClientRect();
      const y = Math.max(0, Math.round(box.top));
      const bottom = Math.min(window.innerHeight, Math.round(box.bottom));
      const name = section.querySelector('h2')?.textContent ?? section.className;
      return bottom - y >= 120 ? [{ name, y, height: bottom - y }] : [];
    }),
  );
}

/** Every section in view has words and pictures on it, judged by the screen's pixels. */
async function expectNoBlankSection(page: Page, shot: string) {
  const bands = await sectionsInView(page);
  expect(bands.length).toBeGreaterThan(0);
  const png = await page.screenshot({ path: `test-results/screens/${shot}.png` });
  const shares = await ink(page, png, bands);
  const blank = bands.filter((_, i) => shares[i]! < 0.004).map((b) => b.name);
  expect(blank, `blank sections in view: ${blank.join(', ')}`).toEqual([]);
}

/**
 * A capture of the whole page as it stands (what a capture tool, or a visitor scrolling back,
 * sees): every section of the main area has words and pictures on it.
 */
async function expectWholePageShown(page: Page, shot: string) {
  const png = await page.screenshot({ fullPage: true, path: `test-results/screens/${shot}.png` });
  const bands = await page.locator('main section').evaluateAll((sections) =>
    sections.map((section) => {
      const box = section.getBoundingClientRect();
      return {
        name: section.querySelector('h2')?.textContent ?? section.className,
        y: Math.round(box.top + window.scrollY),
        height: Math.round(box.height),
      };
    }),
  );
  const shares = await ink(page, png, bands);
  const blank = bands.filter((_, i) => shares[i]! < 0.004).map((b) => b.name);
  expect(blank, `blank sections: ${blank.join(', ')}`).toEqual([]);
}

async function open(page: Page, path: string) {
  await page.goto(path);
  await ready(page);
  await page.evaluate(() => document.fonts.ready);
}

const atBottom = (page: Page) =>
  page.evaluate(
    () => window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2,
  );

for (const [name, size] of SIZES) {
  test.describe(`sections on ${name}`, () => {
    test.use({ viewport: size });

    test('after the End key, no section in view is blank', async ({ page }) => {
      await open(page, '/');
      // The jump is animated (smooth scrolling); on a busy machine it can end short of a page
      // that is still growing, where a visitor presses End once more.
      await expect(async () => {
        if (!(await atBottom(page))) await page.keyboard.press('End');
        expect(await atBottom(page)).toBe(true);
      }).toPass({ intervals: [1_000, 2_000, 3_000], timeout: 20_000 });
      await expectNoBlankSection(page, `home-end-${size.width}`);
      // Nor is any the jump passed over: scrolling back up, or capturing the page, finds them.
      await expectWholePageShown(page, `home-end-full-${size.width}`);
    });

    test('after a jump to an anchor, no section in view is blank', async ({ page }) => {
      await open(page, '/');
      await page.evaluate(() => {
        const link = document.createElement('a');
        link.href = '#approach';
        document.body.append(link);
        link.click();
      });
      await expect
        .poll(() =>
          page.evaluate(() =>
            Math.round(document.getElementById('approach')!.getBoundingClientRect().top),
          ),
        )
        // Under the sticky navbar (the anchor's scroll margin).
        .toBeLessThan(100);
      await expectNoBlankSection(page, `home-anchor-${size.width}`);
      await expectWholePageShown(page, `home-anchor-full-${size.width}`);
    });

    test('after find in page, no section in view is blank', async ({ page }) => {
      await open(page, '/');
      // The browser's find (Ctrl+F) selects the text and scrolls it into view at once.
      const last = await page.locator('main section h2').last().textContent();
      expect(
        await page.evaluate(
          (text) => (window as unknown as { find(text: string): boolean }).find(text!),
          last,
        ),
      ).toBe(true);
      await expect
        .poll(() =>
          page
            .locator('main section h2')
            .last()
            .evaluate((h) => h.getBoundingClientRect().top),
        )
        .toBeLessThan(size.height);
      await expectNoBlankSection(page, `home-find-${size.width}`);
    });

    test('after a fast fling down the page, no section in view is blank', async ({ page }) => {
      await open(page, '/');
      // Half the page in four quick flicks, landing among the sections, not at the footer.
      const half = await page.evaluate(() => Math.round(document.documentElement.scrollHeight / 2));
      await page.mouse.move(size.width / 2, size.height / 2);
      for (let i = 0; i < 4; i++) await page.mouse.wheel(0, half / 4);
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(half - 200);
      await expectNoBlankSection(page, `home-fling-${size.width}`);
    });

    test('printed, every section shows', async ({ page }) => {
      await open(page, '/');
      await page.emulateMedia({ media: 'print' });
      await expectWholePageShown(page, `home-print-${size.width}`);
    });

    test('a capture of the whole page shows every section, once the bands are laid out by themselves', async ({
      page,
    }) => {
      await open(page, '/about');
      // The bands below the first screen are laid out one at a time in the quiet moments after the
      // client takes over (shell/src/hooks/use-stepwise-layout.ts), with no scroll to prompt it.
      await expect(page.locator('html[data-laid-out]')).toBeAttached({ timeout: 10_000 });
      await expectWholePageShown(page, `about-full-${size.width}`);
    });
  });
}

test.describe('a counter on a phone', () => {
  test.use({ viewport: PHONE });

  test('brought into view by a jump, it shows its real figure at once, never 0', async ({
    page,
  }) => {
    await open(page, '/');
    const digits = page.getByTestId('counter-value').first();
    // The visitor scrolls until the counter is just under the screen, then jumps to it.
    const under = await digits.evaluate((el) => el.getBoundingClientRect().top - innerHeight + 60);
    expect(under).toBeGreaterThan(0);
    await page.mouse.move(200, 400);
    await page.mouse.wheel(0, under);
    await expect
      .poll(() => digits.evaluate((el) => Math.round(el.getBoundingClientRect().top - innerHeight)))
      .toBeLessThan(100);
    const shown = await digits.evaluate((el) => {
      el.scrollIntoView({ block: 'center' });
      return el.textContent;
    });
    expect(shown).toBe(`${yearsSinceFounding()}+`);
  });
});

test.describe('the services menu on a phone', () => {
  test.use({ viewport: PHONE });

  /** What the services panel shows: its links and buttons drawn on screen. */
  const entries = (page: Page) =>
    page
      .locator('.mega')
      .locator('a, button')
      .evaluateAll((els) =>
        els
          .filter((el) => el.getClientRects().length > 0)
          .map((el) => el.textContent?.trim() ?? ''),
      );

  test('lists the groups, each opening its pages, never more than twelve entries at once', async ({
    page,
  }) => {
    await open(page, '/');
    await page.getByRole('button', { name: 'Menu' }).click();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: 'Services' })
      .click();
    const top = await entries(page);
    expect(top.length, top.join(' | ')).toBeLessThanOrEqual(12);
    expect(top).toContain('All services');
    const groups = page.locator('.mega__toggle');
    const count = await groups.count();
    expect(count).toBeGreaterThanOrEqual(6);
    for (let i = 0; i < count; i++) {
      const group = groups.nth(i);
      await group.click();
      await expect(group).toHaveAttribute('aria-expanded', 'true');
      const open = await entries(page);
      expect(open.length, open.join(' | ')).toBeLessThanOrEqual(12);
      const pages = page.getByRole('list', { name: (await group.textContent()) ?? '' });
      await expect(pages.getByRole('link').first()).toBeVisible();
      if (i === 0) await page.screenshot({ path: 'test-results/screens/phone-menu-group-390.png' });
      await group.click();
      await expect(group).toHaveAttribute('aria-expanded', 'false');
    }
    await page.screenshot({ path: 'test-results/screens/phone-menu-390.png' });
  });

  test('from the keyboard: Enter opens a group, arrows move through it, Escape steps back', async ({
    page,
  }) => {
    await open(page, '/');
    await page.getByRole('button', { name: 'Menu' }).click();
    const services = page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: 'Services' });
    await services.click();
    const first = page.locator('.mega__toggle').first();
    await first.focus();
    await page.keyboard.press('Enter');
    await expect(first).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('ArrowDown');
    await expect(page.locator('.mega .is-open ul a').first()).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(first).toHaveAttribute('aria-expanded', 'false');
    await expect(first).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(services).toHaveAttribute('aria-expanded', 'false');
    await expect(services).toBeFocused();
  });
});

test.describe('the services menu on a desktop', () => {
  test.use({ viewport: DESKTOP });

  test('group headings look like links, underlined on hover and on keyboard focus', async ({
    page,
  }) => {
    await open(page, '/');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: 'Services' })
      .click();
    const heading = page.locator('.mega__title-link').first();
    const look = () =>
      heading.evaluate((el) => {
        const style = getComputedStyle(el);
        return { line: style.textDecorationLine, colour: style.color };
      });
    // A grey label no more: the heading is in a link's colour, not its group title's grey.
    const title = await page
      .locator('.mega__title')
      .first()
      .evaluate((el) => getComputedStyle(el).color);
    const resting = await look();
    expect(resting).toMatchObject({ line: 'none' });
    expect(resting.colour).not.toBe(title);
    await heading.hover();
    await expect.poll(look).toMatchObject({ line: 'underline' });
    await page.mouse.move(0, 0);
    await expect.poll(async () => (await look()).line).toBe('none');
    // Arrows move the focus through the menu from its button, as a keyboard user would.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: 'Services' })
      .focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(heading).toBeFocused();
    await expect.poll(async () => (await look()).line).toBe('underline');
    await page.screenshot({ path: 'test-results/screens/desktop-menu-1280.png' });
  });
});
