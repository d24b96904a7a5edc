/**
 * How a canary is judged and how far it goes, once for both sides: the team's command reads its
 * flags into this object and checks it before anything is built, and the deploy API checks the
 * same object in the body before anything goes live.
 *
 * Judged as a rate: of the canary's page views within the window, the share that reported an
 * error (a browser report with the view's token, or a page the site could not render), against the
 * stable version's share over the same time. `maxErrorRate` is how much worse than the stable
 * version the canary may be; `minViews` is the fewest canary views any decision is made on.
 */
import { z } from 'zod';
import { MAX_CANARY_PERCENT } from './deploy-api';

/** The most a judgment window may span: the site keeps counts for this long. */
export const MAX_CANARY_WINDOW_SECONDS = 3600;
/** The longest wait between two steps of a progressive canary: a day. */
export const MAX_CANARY_INTERVAL_SECONDS = 24 * 60 * 60;

/**
 * What suits a marketing site (scripts/bench/canary-sim.ts has the figures): a decision on as few
 * as 50 views of the canary, the views of the last half hour, and a canary worse than the stable
 * version by 2 points of failed views rolled back. A group with fewer than some 500 views an hour
 * at 10 % never gathers enough evidence to be judged healthy within the window: it holds (and its
 * steps wait) until the team promotes it or passes a looser --max-error-rate or a longer --window.
 */
export const CANARY_JUDGMENT_DEFAULTS = {
  /** The canary may fail in at most 2 percentage points more of its views than the stable one. */
  maxErrorRate: 0.02,
  /** No decision on fewer than 50 views of the canary. */
  minViews: 50,
  /** Counts of the last 30 minutes (or since the canary started, when later). */
  windowSeconds: 1800,
} as const;

export const canaryJudgment = z
  .object({
    maxErrorRate: z.number().gt(0).max(1),
    minViews: z.number().int().min(1).max(1_000_000),
    windowSeconds: z.number().int().min(1).max(MAX_CANARY_WINDOW_SECONDS),
  })
  .partial()
  .strict();
export type CanaryJudgment = z.infer<typeof canaryJudgment>;

/**
 * Steps of a progressive canary: shares it is raised to while healthy, one every `intervalSeconds`;
 * 100 (always the last) promotes it. Each below 100 is at most MAX_CANARY_PERCENT.
 */
export const canaryPlan = canaryJudgment
  .extend({
    steps: z
      .array(z.number().int().min(1).max(100))
      .min(1)
      .max(10)
      .refine((s) => s.every((p, i) => i === 0 || p > s[i - 1]!), 'steps must rise')
      .refine(
        (s) => s.every((p) => p === 100 || p <= MAX_CANARY_PERCENT),
        `each step is at most ${MAX_CANARY_PERCENT} %, or 100 (promote)`,
      )
      .refine((s) => s.at(-1) === 100, 'the last step is 100 (promote)'),
    intervalSeconds: z.number().int().min(1).max(MAX_CANARY_INTERVAL_SECONDS),
  })
  .partial()
  .strict()
  .refine((p) => (p.steps === undefined) === (p.intervalSeconds === undefined), {
    message: 'steps and an interval go together',
  });
export type CanaryPlan = z.infer<typeof canaryPlan>;

/** The plan's problem as one sentence, or undefined when it can be used with `percent`. */
export function canaryPlanProblem(plan: unknown, percent: number): string | undefined {
  const parsed = canaryPlan.safeParse(plan);
  if (!parsed.success) {
    return parsed.error.issues
      .map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`)
      .join('; ');
  }
  const first = parsed.data.steps?.[0];
  if (first !== undefined && first <= percent) {
    return `the first step (${first} %) must be above the canary's share (${percent} %)`;
  }
  return undefined;
}

/** A duration as the command takes it: `90`, `90s`, `10m`, `1h`. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d{1,6})(s|m|h)?$/.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * (match[2] === 'h' ? 3600 : match[2] === 'm' ? 60 : 1);
}
