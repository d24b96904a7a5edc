import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/** Runs axe-core's WCAG 2.0/2.1/2.2 A and AA rules (and heading order) and expects no violations. */
export async function expectNoViolations(
  page: Page,
  options: { include?: string; label?: string } = {},
): Promise<void> {
  let builder = new AxeBuilder({ page }).withTags(WCAG);
  if (options.include) builder = builder.include(options.include);
  const results = await builder.analyze();
  // Page-structure rules only make sense for a whole-page scan.
  const structure = options.include
    ? []
    : (
        await new AxeBuilder({ page })
          .withRules([
            'heading-order',
            'page-has-heading-one',
            'landmark-one-main',
            'duplicate-id-aria',
          ])
          .analyze()
      ).violations;
  const violations = [...results.violations, ...structure].map((v) => ({
    rule: v.id,
    impact: v.impact,
    help: v.help,
    targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
  }));
  expect(violations, `axe violations${options.label ? ` (${options.label})` : ''}`).toEqual([]);
}
