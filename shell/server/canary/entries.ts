/**
 * Canaries as the manifest holds them: a top-level `canaries` list beside `remotes`, each an entry
 * of the same shape (the version's entry, pinned, with its prefixes and routes) plus the share of
 * visits it gets and since when. Browsers' manifest reader ignores the list; the site server reads
 * it here. An entry that does not parse, or names a group that is not live, counts for nothing.
 */
import { MAX_CANARY_PERCENT } from '@site/contracts/deploy-api';
import { canaryPlan, type CanaryPlan } from '@site/contracts/canary-plan';
import { parseManifest, type DeploymentManifest, type RemoteDeployment } from '@site/contracts';

export interface Canary {
  remote: RemoteDeployment;
  /** Whole percent of visits, 1-50. */
  percent: number;
  since: string;
  /** How it is judged and stepped (the site's defaults for what it does not say). */
  plan: CanaryPlan;
  /** When it reached its share: the next step is due an interval after. */
  stepSince: string;
  /** The release it went live with, when several groups' canaries are judged together. */
  release?: string;
}

/** The keys a canary entry has beside the version's entry. */
export const CANARY_KEYS = ['percent', 'since', 'plan', 'stepSince', 'release'] as const;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function readCanaries(json: unknown, manifest: DeploymentManifest): Canary[] {
  if (!isObject(json) || !Array.isArray(json.canaries)) return [];
  const canaries: Canary[] = [];
  for (const raw of json.canaries) {
    if (!isObject(raw)) continue;
    const { percent, since, plan, stepSince, release, ...entry } = raw;
    if (typeof percent !== 'number' || !Number.isInteger(percent)) continue;
    if (percent < 1 || percent > MAX_CANARY_PERCENT) continue;
    const stable = manifest.remotes.find((r) => r.name === entry.name);
    if (!stable || canaries.some((c) => c.remote.name === stable.name)) continue;
    try {
      // Checked alone and against the other groups, as it will be shown.
      const others = manifest.remotes.filter((r) => r.name !== stable.name);
      const remote = parseManifest({ schemaVersion: 1, remotes: [...others, entry] }).remotes.at(
        -1,
      )!;
      const read = canaryPlan.safeParse(plan ?? {});
      const started = typeof since === 'string' ? since : '';
      canaries.push({
        remote,
        percent,
        since: started,
        // A plan that does not parse is the site's defaults: the canary is still judged.
        plan: read.success ? read.data : {},
        stepSince: typeof stepSince === 'string' ? stepSince : started,
        ...(typeof release === 'string' ? { release } : {}),
      });
    } catch {
      // Set aside: the stable version is shown to everyone.
    }
  }
  return canaries;
}
