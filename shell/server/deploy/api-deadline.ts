/**
 * A change as its client sends it, read at the edge: its deadline parsed (the deployer refuses to
 * make a change live after it, when the client has given up waiting) and its defaults filled in.
 */
import type { Change, Credential } from './change';
import { RefusedError } from './patch';

/** A change's deadline as sent: an ISO 8601 time with its zone, or a refusal. */
export function deadlineOf(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const at = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(value)
    ? new Date(value)
    : undefined;
  if (!at || Number.isNaN(at.getTime())) {
    throw new RefusedError(
      400,
      'bad_field',
      `"deadline" must be an ISO 8601 time with its zone, such as 2026-11-28T07:00:00Z (got "${value}")`,
    );
  }
  return at;
}

/** What every change's body says of itself: its base, why, by whom, and by when at the latest. */
interface ChangeFields {
  base: string;
  reason?: string | undefined;
  by?: string | undefined;
  deadline?: string | undefined;
}

/** A change as its client sends it, made with the credential it is sent with. */
export const changeOf = (body: ChangeFields, credential: Credential): Change => ({
  base: body.base,
  reason: body.reason ?? '',
  by: body.by ?? 'unknown',
  credential,
  deadline: deadlineOf(body.deadline),
});
