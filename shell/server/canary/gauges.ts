/**
 * The running canaries' gauges (share, views, failed views, last decision) on the site's metrics,
 * filled from one read of the canary status per scrape.
 */
import { Gauge, type Registry } from 'prom-client';
import type { CanaryStatusAnswer } from '@site/contracts/deploy-api';

/** The running canaries' figures, read from the control plane at scrape time. */
export function registerCanaryGauges(
  registry: Registry,
  status: () => Promise<CanaryStatusAnswer>,
): void {
  const registers = [registry];
  let reading: Promise<CanaryStatusAnswer | undefined> | undefined;
  // One read per scrape, shared by the gauges below.
  const read = () => {
    reading ??= status()
      .catch(() => undefined)
      .finally(() => setTimeout(() => (reading = undefined), 100).unref());
    return reading;
  };
  const gauge = (
    name: string,
    help: string,
    labelNames: string[],
    fill: (g: Gauge, s: CanaryStatusAnswer) => void,
  ) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers,
      async collect() {
        const s = await read();
        this.reset();
        if (s) fill(this, s);
      },
    });
  gauge(
    'site_canary_percent',
    'Share of visits each running canary gets, by group and version',
    ['group', 'version'],
    (g, s) => {
      for (const c of s.canaries) g.set({ group: c.group, version: c.version }, c.percent);
    },
  );
  const byRole = (pick: 'views' | 'errors') => (g: Gauge, s: CanaryStatusAnswer) => {
    for (const c of s.canaries) {
      g.set({ group: c.group, version: c.version, role: 'canary' }, c.canary[pick]);
      g.set({ group: c.group, version: c.stableVersion, role: 'stable' }, c.stable[pick]);
    }
  };
  gauge(
    'site_canary_views',
    "Page views within each running canary's window, summed over every replica, by group, version and role (canary, stable)",
    ['group', 'version', 'role'],
    byRole('views'),
  );
  gauge(
    'site_canary_errors',
    "Failed views (a report with the view's token, or a page the site could not render) within each running canary's window, by group, version and role",
    ['group', 'version', 'role'],
    byRole('errors'),
  );
  gauge(
    'site_canary_decision',
    'The last decision about each running canary (1 on its outcome: healthy, failing, inconclusive)',
    ['group', 'version', 'outcome'],
    (g, s) => {
      for (const c of s.canaries) {
        if (c.decision)
          g.set({ group: c.group, version: c.version, outcome: c.decision.outcome }, 1);
      }
    },
  );
}
