/** A message as the delivery worker takes it from the outbox, and the result of an attempt. */
import type { ContactMessage } from '@site/contracts/contact';
import { readPayload } from './stored';

/** A message as the delivery worker reads it back. */
export interface StoredMessage {
  id: string;
  payload: ContactMessage;
  /** When the message was accepted: the e-mail's Date and "Sent:". */
  createdAt: number;
  /** The start of the current retry period: the acceptance, or the latest requeue. */
  queuedAt: number;
  attempts: number;
  /** Recipients the relay has already accepted this message for (a partial earlier attempt). */
  doneRecipients: string[];
  /** The fencing token of this instance's claim: checked before the send. */
  claim: number;
}

/** The result of one attempt, recorded under the claim it was made with. */
export type AttemptResult = { claim: number } & (
  | { id: string; outcome: 'delivered'; attempts: number; recipients: string[] }
  | {
      id: string;
      outcome: 'retry';
      attempts: number;
      nextAttemptAt: number;
      error: string;
      recipients: string[];
    }
  | { id: string; outcome: 'failed'; attempts: number; error: string; recipients: string[] }
);

/** A due message's row, as its claim returns it. */
export interface DueRow {
  id: string;
  payload: string | null;
  created_at: number;
  queued_at: number;
  attempts: number;
  done_rcpts: string | null;
  lane: number;
  claim: number;
}

/** A due row as the delivery worker takes it, or undefined when its payload cannot be read. */
export function storedMessage(row: DueRow): StoredMessage | undefined {
  const payload = readPayload(row.payload);
  if (!payload) return undefined;
  return {
    id: row.id,
    payload,
    createdAt: row.created_at,
    queuedAt: row.queued_at,
    attempts: row.attempts,
    doneRecipients: row.done_rcpts ? (JSON.parse(row.done_rcpts) as string[]) : [],
    claim: row.claim,
  };
}
