/**
 * Who makes a change and what it carries, and the refusals every kind of change shares: a group's
 * token moves only its own groups, and nothing goes live after the change's client has given up.
 */
import { randomBytes } from 'node:crypto';
import { RefusedError } from './patch';

/** Who makes a change, and which groups it may change. */
export interface Credential {
  /** As the history records it: `operator`, `group:data#<token id>`, `site`. Never a token. */
  label: string;
  /** The groups (federation names) it may change; every group when absent. */
  groups?: readonly string[];
}

/** The site's operator (DEPLOY_TOKEN): every group. */
export const OPERATOR: Credential = { label: 'operator' };
/** The site itself: a canary it rolls back when its errors pass the threshold. */
export const SITE: Credential = { label: 'site' };

export interface Change {
  /**
   * The manifest version the change was made against. It need not be the live one: the change is
   * refused only when a group it touches has changed since (`rebase` in publisher.ts).
   */
  base: string;
  reason: string;
  by: string;
  credential: Credential;
  /** The last moment the change may go live (its client gives up then); none: no limit. */
  deadline?: Date | undefined;
}

/** A release's id: short enough to type, random enough never to repeat. */
export const newReleaseId = (): string => `r-${randomBytes(6).toString('hex')}`;

/** A change whose deadline has passed is refused, whatever it had done so far. */
export function refuseLate(deadline: Date | undefined): void {
  if (deadline && Date.now() >= deadline.getTime()) throw lateRefusal(deadline);
}

export const lateRefusal = (deadline: Date) =>
  new RefusedError(
    409,
    'deadline_passed',
    `the change's deadline ${deadline.toISOString()} passed before it could go live; nothing was changed`,
  );

/** Refuses a change of groups the credential may not change, before anything is read or fetched. */
export function authorize(credential: Credential, names: readonly string[]): void {
  const allowed = credential.groups;
  if (!allowed) return;
  const refused = [...new Set(names.filter((name) => !allowed.includes(name)))];
  if (refused.length === 0) return;
  throw new RefusedError(
    403,
    'group_not_allowed',
    `the deploy token ${credential.label} may change only ${allowed.join(', ')}, not ${refused.join(', ')}; nothing was changed`,
  );
}
