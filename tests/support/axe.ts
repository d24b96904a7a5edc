import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/** Page-structure rules outside the WCAG tags; they only make sense for a whole-page scan. */
const STRUCTURE = [
  'heading-order',
  'page-has-heading-one',
  'landmark-one-main',
  'duplicate-id-aria',
];

/**
 * Runs axe-core's WCAG 2.0/2.1/2.2 A and AA rules (and, on a whole page, heading order and the
 * page's structure) and expects no violations. One axe run per call: the structure rules are
 * switched on beside the tags (axe lets `rules` enable a rule the tags leave out), since on a busy
 * machine each run (axe injected into the page, the page's tree walked) takes seconds.
 */
export async function expectNoViolations(
  page: Page,
  options: { include?: string | string[]; label?: string } = {},
): Promise<void> {
  const include = ([] as string[]).concat(options.include ?? []);
  let builder = new AxeBuilder({ page }).options({
    runOnly: { type: 'tag', values: WCAG },
    // Only violations are read: axe then keeps a single example of each passing check, not every
    // node, which is most of a run's time on a long page.
    resultTypes: ['violations'],
    ...(include.length
      ? {}
      : { rules: Object.fromEntries(STRUCTURE.map((id) => [id, { enabled: true }])) }),
  });
  for (const selector of include) builder = builder.include(selector);
  const results = await builder.analyze();
  const violations = results.violations.map((v) => ({
    rule: v.id,
    impact: v.impact,
    help: v.help,
    targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
  }));
  expect(violations, `axe violations${options.label ? ` (${options.label})` : ''}`).toEqual([]);
}
