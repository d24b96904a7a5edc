/**
 * How the canary judgment behaves, simulated second by second with the site's own rule
 * (@site/contracts/canary-judgment) and its defaults: for a canary whose pages fail in 5 % of its
 * views at 10 % of visits, the views and seconds until it is rolled back; for 100 healthy canaries
 * (failing as often as the stable version), how many are rolled back all the same, and how many are
 * judged healthy (so a progressive canary would move on).
 *
 *   npm run bench:canary [-- --views-per-minute 600] [-- --runs 200] [-- --seed 1]
 *
 * The model: page views of the group arrive at random (Poisson) at the stated rate; each is the
 * canary's with the canary's share; each fails with its version's rate (the stable version's:
 * 0.2 %, browsers' everyday errors). Counts reach the judge one interval late (the other replicas'
 * flush), and the judge looks every interval (CANARY_JUDGE_SECONDS, 5 s) over the window.
 */
import { parseArgs } from 'node:util';
import { judge, type Counts, type Judgment } from '@site/contracts/canary-judgment';
import { CANARY_JUDGMENT_DEFAULTS } from '@site/contracts/canary-plan';

const { values } = parseArgs({
  options: {
    'views-per-minute': { type: 'string', default: '600' },
    runs: { type: 'string', default: '200' },
    seed: { type: 'string', default: '1' },
  },
});

const VIEWS_PER_MINUTE = Number(values['views-per-minute']);
const RUNS = Number(values.runs);
const SHARE = 0.1;
const STABLE_RATE = 0.002;
const FAILING_RATE = 0.05;
const INTERVAL_S = 5;
/** How long a healthy canary is watched: an hour (six steps of 10 minutes). */
const HEALTHY_SECONDS = 3600;
const settings: Judgment = { ...CANARY_JUDGMENT_DEFAULTS };

/** A small seeded generator (mulberry32): the same figures on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function poisson(rand: () => number, mean: number): number {
  const limit = Math.exp(-mean);
  let k = 0;
  for (let p = rand(); p > limit; p *= rand()) k += 1;
  return k;
}

interface Run {
  outcome: 'rolled back' | 'held';
  seconds: number;
  canaryViews: number;
  healthyAt: number | null;
}

/** One canary, second by second, until it is rolled back or `limit` seconds pass. */
function simulate(rand: () => number, canaryRate: number, limit: number): Run {
  const perSecond = VIEWS_PER_MINUTE / 60;
  const seconds: { canary: Counts; stable: Counts }[] = [];
  let healthyAt: number | null = null;
  let total = 0;
  for (let t = 1; t <= limit; t++) {
    const second = { canary: { views: 0, errors: 0 }, stable: { views: 0, errors: 0 } };
    const views = poisson(rand, perSecond);
    for (let v = 0; v < views; v++) {
      const canary = rand() < SHARE;
      const side = canary ? second.canary : second.stable;
      side.views += 1;
      if (rand() < (canary ? canaryRate : STABLE_RATE)) side.errors += 1;
    }
    seconds.push(second);
    total += second.canary.views;
    if (t % INTERVAL_S !== 0) continue;
    // What the judge sees: the window, less the last interval not flushed yet.
    const seen = seconds.slice(Math.max(0, t - settings.windowSeconds), t - INTERVAL_S);
    const sum = (pick: 'canary' | 'stable') =>
      seen.reduce(
        (s, x) => ({ views: s.views + x[pick].views, errors: s.errors + x[pick].errors }),
        { views: 0, errors: 0 },
      );
    const decision = judge(sum('canary'), sum('stable'), settings);
    if (decision.outcome === 'failing') {
      return { outcome: 'rolled back', seconds: t, canaryViews: total, healthyAt };
    }
    if (decision.outcome === 'healthy') healthyAt ??= t;
  }
  return { outcome: 'held', seconds: limit, canaryViews: total, healthyAt };
}

const quantile = (list: number[], q: number) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};

const rand = random(Number(values.seed));
console.log(
  `canary judgment simulated: ${VIEWS_PER_MINUTE} views a minute of the group's pages, canary at ${SHARE * 100} %, stable failing in ${STABLE_RATE * 100} % of views; judged every ${INTERVAL_S} s over ${settings.windowSeconds} s, max error rate +${settings.maxErrorRate * 100} points, at least ${settings.minViews} views`,
);

const failing = Array.from({ length: RUNS }, () => simulate(rand, FAILING_RATE, 24 * 3600));
const caught = failing.filter((r) => r.outcome === 'rolled back');
console.log(
  `failing in ${FAILING_RATE * 100} % of its views (${RUNS} canaries): ${caught.length} rolled back; canary views at the rollback median ${quantile(
    caught.map((r) => r.canaryViews),
    0.5,
  )}, 90th percentile ${quantile(
    caught.map((r) => r.canaryViews),
    0.9,
  )}; seconds median ${quantile(
    caught.map((r) => r.seconds),
    0.5,
  )}, 90th percentile ${quantile(
    caught.map((r) => r.seconds),
    0.9,
  )}`,
);

const healthy = Array.from({ length: 100 }, () => simulate(rand, STABLE_RATE, HEALTHY_SECONDS));
const judgedHealthy = healthy.filter((r) => r.healthyAt !== null);
console.log(
  `healthy (100 canaries, failing as often as the stable version, watched ${HEALTHY_SECONDS / 60} minutes each): ${
    healthy.filter((r) => r.outcome === 'rolled back').length
  } false rollbacks; ${judgedHealthy.length} judged healthy, first after a median ${quantile(
    judgedHealthy.map((r) => r.healthyAt!),
    0.5,
  )} s`,
);
