/**
 * A message as the outbox command, readiness and the digest read it: counts by state and message
 * summaries, with personal data only when asked for.
 */
import type { ContactMessage } from '@site/contracts/contact';
import { readPayload, readReasons, type MessageStatus } from './stored';

export type MessageCounts = Record<MessageStatus, number>;

/** One row as operators see it; personal data only when asked for. */
export interface MessageSummary {
  id: string;
  status: MessageStatus;
  /** When it was accepted. */
  createdAt: number;
  /** The start of its current retry period: `createdAt`, or when it was last requeued. */
  queuedAt: number;
  updatedAt: number;
  deliveredAt: number | null;
  attempts: number;
  nextAttemptAt: number | null;
  lastError: string | null;
  acknowledged: boolean;
  redacted: boolean;
  emailDomain: string | null;
  /** Why it was judged spam (kept after a release); empty when it was not. */
  spamReasons: string[];
  /** When an operator released it from spam to the queue. */
  releasedAt: number | null;
  payload?: ContactMessage | null;
}

export interface ListOptions {
  status?: MessageStatus | undefined;
  ids?: string[] | undefined;
  limit?: number | undefined;
  withContent?: boolean | undefined;
}

export interface SummaryRow {
  id: string;
  status: MessageStatus;
  payload: string | null;
  email_domain: string | null;
  created_at: number;
  queued_at: number;
  updated_at: number;
  delivered_at: number | null;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  acknowledged_at: number | null;
  redacted_at: number | null;
  spam_reasons: string | null;
  released_at: number | null;
}

export const SUMMARY_COLUMNS = `id, status, payload, email_domain, created_at, queued_at, updated_at,
  delivered_at, attempts, next_attempt_at, last_error, acknowledged_at, redacted_at, spam_reasons,
  released_at`;

/** A row as operators see it (see MessageSummary); the content only when asked for. */
export function toSummary(row: SummaryRow, withContent: boolean | undefined): MessageSummary {
  return {
    id: row.id,
    status: row.status,
    createdAt: row.created_at,
    queuedAt: row.queued_at,
    updatedAt: row.updated_at,
    deliveredAt: row.delivered_at,
    attempts: row.attempts,
    nextAttemptAt: row.status === 'queued' ? row.next_attempt_at : null,
    lastError: row.last_error,
    acknowledged: row.acknowledged_at !== null,
    redacted: row.redacted_at !== null,
    emailDomain: row.email_domain,
    spamReasons: readReasons(row.spam_reasons),
    releasedAt: row.released_at,
    ...(withContent ? { payload: readPayload(row.payload) ?? null } : {}),
  };
}
