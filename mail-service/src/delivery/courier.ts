/**
 * What the delivery worker needs from wherever mail goes: the contract the SMTP and the mailbox
 * couriers both fulfil.
 */
import type { SendMailOptions } from 'nodemailer';
import type { StoredMessage } from '../outbox/queue';

/** What names an e-mail on its way: a stored message, or a digest of held ones. */
export type MailRef = Pick<StoredMessage, 'id' | 'createdAt'>;

/** A recipient the relay refused, with its reply. */
export interface Refusal {
  recipient: string;
  error: unknown;
}

/** What the relay said about each recipient of one send. */
export interface SendOutcome {
  accepted: string[];
  rejected: Refusal[];
}

/** Where delivered messages go: the company's SMTP relay, or a local folder of .eml files. */
export interface Courier {
  readonly mode: 'smtp' | 'mailbox';
  /**
   * Sends to the envelope recipients given; throws when no recipient took the message. `message`
   * names it (its id and acceptance time: the .eml file's name).
   */
  send(mail: SendMailOptions, message: MailRef, recipients: string[]): Promise<SendOutcome>;
  /** Makes the sends so far durable, before they are recorded as delivered. */
  settle(): Promise<void>;
  /** Checks that delivery can work (SMTP: connect and greet); throws when it cannot. */
  verify(): Promise<void>;
  /** Whether the relay takes internationalised addresses (SMTPUTF8); null until checked. */
  smtpUtf8(): boolean | null;
  close(): void;
}

/** Whether a value nodemailer hands back (loosely typed) is a list of addresses. */
export const isStringArray = (x: unknown): x is string[] =>
  Array.isArray(x) && x.every((s) => typeof s === 'string');
