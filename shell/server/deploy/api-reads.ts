/**
 * What a credential may read: a group's token reads its own groups' history, canaries and
 * previews, never another team's (who deployed it, with which token, which entries); the
 * operator's reads all.
 */
import type { CanaryStatusAnswer } from '@site/contracts/deploy-api';
import type { Credential } from './change';
import { RefusedError } from './patch';

/** Refuses a read of `group` by a credential that is not its own. */
export function readable(credential: Credential, group: string): void {
  const groups = credential.groups;
  if (!groups || groups.includes(group)) return;
  throw new RefusedError(
    403,
    'group_not_allowed',
    `the deploy token ${credential.label} reads only ${groups.join(', ')}, not ${group}`,
  );
}

const mine = (credential: Credential, group: string): boolean =>
  !credential.groups || credential.groups.includes(group);

/** The running and ended canaries the credential may read. */
export function ownCanaries(
  answer: CanaryStatusAnswer,
  credential: Credential,
): CanaryStatusAnswer {
  if (!credential.groups) return answer;
  return {
    canaries: answer.canaries.filter((c) => mine(credential, c.group)),
    ended: answer.ended.filter((e) => mine(credential, e.group)),
  };
}

/**
 * The live manifest as the credential may read it: every group's stable entry (the site serves
 * them to every visitor), only its own groups' canaries.
 */
export function ownManifest(
  json: Readonly<Record<string, unknown>>,
  credential: Credential,
): Readonly<Record<string, unknown>> {
  if (!credential.groups || !Array.isArray(json.canaries)) return json;
  const canaries = (json.canaries as { name?: unknown }[]).filter((c) =>
    mine(credential, String(c?.name)),
  );
  const { canaries: _all, ...rest } = json;
  return canaries.length ? { ...rest, canaries } : rest;
}
