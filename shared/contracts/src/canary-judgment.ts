/**
 * How a canary is judged, apart from where its counts come from: of its page views within the
 * window, the share that failed (a browser's report with the view's token, or a page the site
 * could not render), against the stable version's share over the same time.
 *
 * A rate, never a count: 5 failed views of 10,000 is healthy, 5 of 5 is not. Each side of the
 * decision needs evidence: the canary is failing when even the most favourable reading of its
 * figures (the lower Wilson bound, 99 % one-sided) is worse than the stable rate by more than
 * `maxErrorRate`, and healthy when the least favourable reading (the upper bound) is not; with
 * fewer than `minViews` views, or between the two, it is inconclusive and holds where it is.
 * Judged every few seconds, so the bound is wide on purpose: each look is another chance of a false
 * alarm (scripts/bench/canary-sim.ts measures both the time to a rollback and the false ones). The
 * site server judges with it (shell/server/canary/judge.ts); the simulation runs the same rule.
 */
import type { CanaryDecision, CanaryFigures } from './deploy-api';

/** z for a one-sided 99 % bound. */
const Z = 2.326;

export interface Counts {
  views: number;
  errors: number;
}

export interface Judgment {
  maxErrorRate: number;
  minViews: number;
  windowSeconds: number;
}

export const figures = ({ views, errors }: Counts): CanaryFigures => ({
  views,
  errors,
  rate: views > 0 ? errors / views : null,
});

/** The Wilson score interval of `errors` in `views` at Z. */
export function wilson(errors: number, views: number): { low: number; high: number } {
  if (views <= 0) return { low: 0, high: 1 };
  const p = errors / views;
  const z2 = Z * Z;
  const centre = p + z2 / (2 * views);
  const spread = Z * Math.sqrt((p * (1 - p)) / views + z2 / (4 * views * views));
  const denominator = 1 + z2 / views;
  return {
    low: Math.max(0, (centre - spread) / denominator),
    high: Math.min(1, (centre + spread) / denominator),
  };
}

const percent = (rate: number) => `${(rate * 100).toFixed(2)} %`;

export function judge(
  canary: Counts,
  stable: Counts,
  settings: Judgment,
): Pick<CanaryDecision, 'outcome' | 'reason'> {
  const stableRate = stable.views > 0 ? Math.min(1, stable.errors / stable.views) : 0;
  const limit = Math.min(1, stableRate + settings.maxErrorRate);
  const errors = Math.min(canary.errors, canary.views);
  const seen =
    `canary ${errors} failed of ${canary.views} views` +
    `${canary.views ? ` (${percent(errors / canary.views)})` : ''}, stable ${stable.errors} of ${stable.views}` +
    ` (${percent(stableRate)}) in ${settings.windowSeconds} s`;
  if (canary.views < settings.minViews) {
    return {
      outcome: 'inconclusive',
      reason: `${seen}: fewer than ${settings.minViews} views of the canary`,
    };
  }
  const { low, high } = wilson(errors, canary.views);
  if (low > limit) {
    return {
      outcome: 'failing',
      reason: `${seen}: at least ${percent(low)} failing, over the limit of ${percent(limit)}`,
    };
  }
  if (high <= limit) {
    return {
      outcome: 'healthy',
      reason: `${seen}: at most ${percent(high)} failing, within ${percent(limit)}`,
    };
  }
  return {
    outcome: 'inconclusive',
    reason: `${seen}: between ${percent(low)} and ${percent(high)} failing, around the limit of ${percent(limit)}`,
  };
}
