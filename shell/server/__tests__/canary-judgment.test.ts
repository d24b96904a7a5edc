/**
 * @jest-environment node
 */
import pg from 'pg';
import { canaryPlanProblem, parseDuration } from '@site/contracts/canary-plan';
import { CanaryCounter } from '../canary/counts';
import { judge } from '@site/contracts/canary-judgment';
import { clientKey } from '../canary/beacon';
import { PostgresCountStore } from '../control-plane/counts-postgres';
import { migrate } from '../control-plane/migrate';
import { freshDatabase } from './test-postgres';

const settings = { maxErrorRate: 0.02, minViews: 100, windowSeconds: 600 };

describe("a canary's judgment", () => {
  test('a rate, not a count: 5 failed views of 10,000 are healthy, 5 of 5 too few to judge, 50 of 100 failing', () => {
    expect(
      judge({ views: 10_000, errors: 5 }, { views: 90_000, errors: 40 }, settings).outcome,
    ).toBe('healthy');
    expect(judge({ views: 5, errors: 5 }, { views: 50, errors: 0 }, settings)).toMatchObject({
      outcome: 'inconclusive',
      reason: expect.stringContaining('fewer than 100 views'),
    });
    const failing = judge({ views: 100, errors: 50 }, { views: 900, errors: 9 }, settings);
    expect(failing.outcome).toBe('failing');
    expect(failing.reason).toContain('canary 50 failed of 100 views (50.00 %)');
    expect(failing.reason).toContain('stable 9 of 900 (1.00 %)');
  });

  test('against the stable version: a canary as bad as a bad stable one is not failing', () => {
    const stable = { views: 9000, errors: 900 };
    expect(judge({ views: 3000, errors: 300 }, stable, settings).outcome).toBe('healthy');
    expect(judge({ views: 1000, errors: 100 }, { views: 9000, errors: 0 }, settings).outcome).toBe(
      'failing',
    );
  });

  test('near the limit, with the views it has, it holds (inconclusive)', () => {
    expect(judge({ views: 200, errors: 6 }, { views: 1800, errors: 0 }, settings).outcome).toBe(
      'inconclusive',
    );
  });

  test('a plan is checked by one schema: steps rise to 100, with an interval; the first above the share', () => {
    expect(canaryPlanProblem({ steps: [25, 50, 100], intervalSeconds: 600 }, 10)).toBeUndefined();
    expect(canaryPlanProblem({ maxErrorRate: 0.01, minViews: 50, windowSeconds: 60 }, 10)).toBe(
      undefined,
    );
    expect(canaryPlanProblem({ steps: [25, 50, 100] }, 10)).toMatch(/interval/);
    expect(canaryPlanProblem({ steps: [50, 25, 100], intervalSeconds: 1 }, 10)).toMatch(/rise/);
    expect(canaryPlanProblem({ steps: [25, 75, 100], intervalSeconds: 1 }, 10)).toMatch(/50 %/);
    expect(canaryPlanProblem({ steps: [25, 50], intervalSeconds: 1 }, 10)).toMatch(/last step/);
    expect(canaryPlanProblem({ steps: [10, 100], intervalSeconds: 1 }, 10)).toMatch(/above/);
    expect(canaryPlanProblem({ maxErrorRate: 0 }, 10)).toMatch(/maxErrorRate/);
    expect(canaryPlanProblem({ minViews: 1.5 }, 10)).toMatch(/minViews/);
    expect(canaryPlanProblem({ windowSeconds: 3601 }, 10)).toMatch(/windowSeconds/);
    expect(canaryPlanProblem({ other: 1 }, 10)).toBeDefined();
    expect([
      parseDuration('10m'),
      parseDuration('90'),
      parseDuration('1h'),
      parseDuration('x'),
    ]).toEqual([600, 90, 3600, undefined]);
  });
});

describe('what a canary is judged on', () => {
  let url: string;
  beforeEach(async () => {
    url = await freshDatabase();
    const pool = new pg.Pool({ connectionString: url });
    await migrate(pool);
    await pool.end();
  });

  test("each token counts once, on this replica and in the store; counts survive the server's restart", async () => {
    const now = 1_700_000_000_000;
    const store = new PostgresCountStore(url);
    const one = new CanaryCounter(store, () => now);
    const two = new CanaryCounter(store, () => now);
    for (let i = 0; i < 10; i++) one.view('data', '1.1.0', i === 0);
    expect(one.report('data', '1.1.0', 'n1', now + 60_000)).toBe(true);
    expect(one.report('data', '1.1.0', 'n1', now + 60_000)).toBe(false);
    // The same token replayed at another replica: its flush counts it for nothing.
    expect(two.report('data', '1.1.0', 'n1', now + 60_000)).toBe(true);
    await one.flush();
    await two.flush();
    const from = Math.floor(now / 1000) - 10;
    expect(await store.sum('data', '1.1.0', from)).toEqual({ views: 10, errors: 2 });
    await store.close();
    const again = new PostgresCountStore(url);
    try {
      expect(await again.sum('data', '1.1.0', from)).toEqual({ views: 10, errors: 2 });
      expect(await again.sum('data', '1.1.0', from + 11)).toEqual({ views: 0, errors: 0 });
    } finally {
      await again.close();
    }
  });

  test('reports without a valid token are limited per /64, the whole IPv6 address never', () => {
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(clientKey('198.51.100.7')).toBe('198.51.100.7');
  });
});
