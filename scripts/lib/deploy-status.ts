/**
 * `deploy --status`: the group's canary as the site judges it, printed; it changes nothing.
 */
import type { CanaryFigures, CanaryStatusAnswer } from '@site/contracts/deploy-api';
import { call } from './deploy-client';

const rate = (f: CanaryFigures) =>
  `${f.errors} failed of ${f.views} views${f.rate === null ? '' : ` (${(f.rate * 100).toFixed(2)} %)`}`;

/** The group's canary as the site judges it: read only. */
export async function printStatus(api: string, token: string, name: string): Promise<void> {
  const { canaries, ended } = await call<CanaryStatusAnswer>(
    api,
    token,
    'GET',
    '/_deploy/canaries',
  );
  const canary = canaries.find((c) => c.group === name);
  if (!canary) {
    const last = ended.find((d) => d.group === name);
    console.log(
      `no canary of ${name} is running${last ? `; the last one, ${last.version}, was judged ${last.outcome} at ${last.at}: ${last.reason}` : ''}`,
    );
    return;
  }
  const { judgment: j } = canary;
  console.log(
    [
      `canary ${name} ${canary.version} for ${canary.percent}% of visits beside ${canary.stableVersion}, since ${canary.since}`,
      `  canary: ${rate(canary.canary)}`,
      `  stable: ${rate(canary.stable)}`,
      `  judged over ${j.windowSeconds} s: rolled back when surely over the stable rate + ${(j.maxErrorRate * 100).toFixed(2)} points, on ${j.minViews} views at least`,
      canary.steps.length
        ? `  next: ${canary.steps.map((p) => (p === 100 ? 'promote' : `${p}%`)).join(', ')}${canary.nextStepAt ? ` (the next one due at ${canary.nextStepAt}, if healthy)` : ''}`
        : '  no steps: npm run deploy -- --promote makes it live for everyone',
      canary.decision
        ? `  last decision: ${canary.decision.outcome} at ${canary.decision.at}: ${canary.decision.reason}`
        : '  not judged yet',
    ].join('\n'),
  );
}
