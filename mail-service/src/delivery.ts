import { mkdirSync, promises as fs } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { SendMailOptions, Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import { fromDomain, type Config } from './config';
import type { AttemptResult, Outbox, StoredMessage } from './outbox';

/** Where delivered messages go: the company's SMTP relay, or a local folder of .eml files. */
export interface Courier {
  readonly mode: 'smtp' | 'mailbox';
  send(mail: SendMailOptions, message: StoredMessage): Promise<void>;
  /** Makes the sends so far durable, before they are recorded as delivered. */
  settle(): Promise<void>;
  /** Checks that delivery can work (SMTP: connect and greet); throws when it cannot. */
  verify(): Promise<void>;
  close(): void;
}

type MailConfig = Pick<Config, 'mailFrom' | 'mailTo'>;

const escapeHtml = (s: string): string =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** The Message-ID of a stored message: the same on every attempt, so a repeat is recognisable. */
export const messageIdHeader = (id: string, config: Pick<Config, 'mailFrom'>): string =>
  `<${id}@${fromDomain(config)}>`;

/**
 * The e-mail for a stored message. From is the company's own address (so SPF/DKIM/DMARC align and
 * it is not filed as spam); the visitor is only the Reply-To. Visitor text reaches exactly two
 * headers, Subject and Reply-To, and only through nodemailer's address objects and encoders.
 */
export function buildMail(message: StoredMessage, config: MailConfig): SendMailOptions {
  const { user, message: m } = message.payload;
  const sent = new Date(message.createdAt);
  const text = [
    'A message from the contact form of the website.',
    '',
    `Name:    ${user.name}`,
    `E-mail:  ${user.email}`,
    `Subject: ${m.subject}`,
    `Sent:    ${sent.toISOString()}`,
    '',
    m.body,
    '',
    '--',
    `Reply to this e-mail to answer ${user.name} directly.`,
    `Reference: ${message.id}`,
  ].join('\n');
  const row = (label: string, value: string) =>
    `<tr><th align="left" style="padding:2px 12px 2px 0">${label}</th><td>${escapeHtml(value)}</td></tr>`;
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif">',
    '<p>A message from the contact form of the website.</p>',
    `<table>${row('Name', user.name)}${row('E-mail', user.email)}${row('Subject', m.subject)}${row('Sent', sent.toISOString())}</table>`,
    `<div style="white-space:pre-wrap;margin:16px 0;padding:12px;border-left:3px solid #ccc">${escapeHtml(m.body)}</div>`,
    `<p style="color:#666">Reply to this e-mail to answer ${escapeHtml(user.name)} directly. Reference: ${escapeHtml(message.id)}</p>`,
    '</body></html>',
  ].join('\n');
  return {
    from: { name: config.mailFrom.name, address: config.mailFrom.address },
    to: config.mailTo.map((a) => ({ name: a.name, address: a.address })),
    replyTo: { name: user.name, address: user.email },
    subject: `Website enquiry: ${m.subject}`,
    messageId: messageIdHeader(message.id, { mailFrom: config.mailFrom }),
    date: sent,
    text,
    html,
    // Nothing here should ever make nodemailer read a file or fetch a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

export interface SmtpTimeouts {
  connectionTimeout: number;
  greetingTimeout: number;
  socketTimeout: number;
}

/** Fail fast enough that a dead relay turns into a retry, not a send that hangs for minutes. */
export const SMTP_TIMEOUTS: SmtpTimeouts = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000,
};

export function createSmtpCourier(
  smtpUrl: string,
  timeouts: SmtpTimeouts = SMTP_TIMEOUTS,
): Courier {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: 2,
    maxMessages: 100,
    ...timeouts,
    dnsTimeout: timeouts.connectionTimeout,
    logger: false,
    debug: false,
  });
  return {
    mode: 'smtp',
    async send(mail) {
      await transport.sendMail(mail);
    },
    // The relay's 250 reply is the hand-over: nothing left to make durable here.
    async settle() {},
    async verify() {
      await transport.verify();
    },
    close() {
      transport.close();
    },
  };
}

/** File name of a delivered message: sortable by time, and the same on every attempt. */
const emlName = (message: StoredMessage) =>
  `${new Date(message.createdAt).toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '')}-${message.id}.eml`;

/**
 * Writes each message as an RFC 5322 .eml file into a folder. The file appears atomically (written
 * and synced under a temporary name, then renamed), and a repeat writes the same name again.
 */
export function createMailboxCourier(mailboxDir: string): Courier {
  // Made now, so the folder the start-up log names exists before the first message.
  mkdirSync(mailboxDir, { recursive: true });
  const transport: Transporter = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'windows',
  });
  let renamed = false;
  return {
    mode: 'mailbox',
    async send(mail, message) {
      const info = await transport.sendMail(mail);
      const raw: unknown = info.message;
      if (!Buffer.isBuffer(raw)) throw new Error('the stream transport returned no buffer');
      await fs.mkdir(mailboxDir, { recursive: true });
      const target = path.join(mailboxDir, emlName(message));
      const temp = path.join(mailboxDir, `.${message.id}.${process.pid}.tmp`);
      const handle = await fs.open(temp, 'w', 0o640);
      try {
        await handle.writeFile(raw);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.rename(temp, target);
      renamed = true;
    },
    // One folder sync makes all the renames of a round durable, instead of one sync per file.
    async settle() {
      if (!renamed) return;
      renamed = false;
      await syncDir(mailboxDir);
    },
    async verify() {
      await fs.mkdir(mailboxDir, { recursive: true });
      await fs.access(mailboxDir, fs.constants.W_OK);
    },
    close() {
      transport.close();
    },
  };
}

// The rename is durable only once the folder itself is synced (not possible on every platform).
async function syncDir(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // best effort
  } finally {
    await handle?.close();
  }
}

/** Removes temporary files a crash left behind; the message itself is still queued. */
export async function cleanMailboxTemp(mailboxDir: string): Promise<void> {
  let names: string[];
  try {
    names = await fs.readdir(mailboxDir);
  } catch {
    return;
  }
  await Promise.all(
    names
      .filter((n) => n.startsWith('.') && n.endsWith('.tmp'))
      .map((n) => fs.rm(path.join(mailboxDir, n), { force: true })),
  );
}

interface ErrorFacts {
  code: string | undefined;
  responseCode: number | undefined;
  permanent: boolean | undefined;
  /** The relay's reply, if any: the company's server talking, never the visitor's text. */
  response: string | undefined;
}

function errorFacts(error: unknown): ErrorFacts {
  const e = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  return {
    code: typeof e.code === 'string' ? e.code : undefined,
    responseCode: typeof e.responseCode === 'number' ? e.responseCode : undefined,
    permanent: typeof e.permanent === 'boolean' ? e.permanent : undefined,
    response: typeof e.response === 'string' ? e.response.slice(0, 200) : undefined,
  };
}

// Our own credentials or configuration: retrying is right, the operator can fix it meanwhile.
const SERVICE_SIDE = new Set(['EAUTH', 'ENOAUTH', 'EOAUTH2', 'ECONFIG', 'ETLS']);

/**
 * Permanent: the relay refused this message for good (a 5xx reply, except 503, which nodemailer
 * reports as `permanent`). Everything else (refused or dropped connections, timeouts, 4xx, a full
 * disk) is transient and retried.
 */
export function isPermanent(error: unknown): boolean {
  const f = errorFacts(error);
  if (f.code && SERVICE_SIDE.has(f.code)) return false;
  if (f.permanent !== undefined) return f.permanent;
  return f.responseCode !== undefined && f.responseCode >= 500 && f.responseCode !== 503;
}

/** The relay's reply to a failed send, for the log. */
export const relayReply = (error: unknown): string | undefined => errorFacts(error).response;

/** A short, log-safe description of a delivery error (no message content, no credentials). */
export function describeError(error: unknown): string {
  const f = errorFacts(error);
  return [f.code, f.responseCode].filter((x) => x !== undefined).join(' ') || 'error';
}

/**
 * The wait before attempt `attempt + 1`, after `attempt` failures: exponential from `baseMs`,
 * capped at `maxMs`, with "equal jitter" (half fixed, half random) so that messages queued
 * together do not all hit the relay again at the same moment.
 */
export function backoffMs(
  attempt: number,
  baseMs: number,
  maxMs: number,
  random = Math.random,
): number {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.min(attempt - 1, 40));
  return Math.round(exp / 2 + random() * (exp / 2));
}

export interface DeliveryStatus {
  mode: 'smtp' | 'mailbox';
  /** null until the first attempt (or check) has a result. */
  working: boolean | null;
  lastAttemptAt: number | null;
  lastError: string | null;
}

export interface WorkerOptions {
  outbox: Outbox;
  courier: Courier;
  mail: MailConfig;
  logger: Logger;
  retryBaseMs: number;
  retryMaxMs: number;
  maxAttempts: number;
  now?: () => number;
  random?: () => number;
  batchSize?: number;
  concurrency?: number;
  /** How often the outbox is looked at even when nothing seems due (a safety net). */
  pollMs?: number;
}

/**
 * Delivers what is queued in the outbox, in this process. Woken when a message is stored and by a
 * timer for the next retry; on start it picks up whatever an earlier run left undelivered.
 */
export class DeliveryWorker {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private state: DeliveryStatus;
  private notes = 0;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly batchSize: number;
  private readonly concurrency: number;
  private readonly pollMs: number;

  constructor(private readonly o: WorkerOptions) {
    this.now = o.now ?? Date.now;
    this.random = o.random ?? Math.random;
    this.batchSize = o.batchSize ?? 20;
    // Matches the SMTP pool's connections; one file at a time keeps the mailbox from crowding out
    // the requests (each .eml costs more CPU to build than a request costs to accept).
    this.concurrency = o.concurrency ?? (o.courier.mode === 'smtp' ? 2 : 1);
    this.pollMs = o.pollMs ?? 60_000;
    this.state = { mode: o.courier.mode, working: null, lastAttemptAt: null, lastError: null };
  }

  start(): void {
    this.kick();
  }

  /** Looks at the outbox now (or as soon as the current round ends). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.running = this.run()
      .catch((error: unknown) => {
        this.o.logger.error({ err: describeError(error) }, 'delivery round failed');
      })
      .finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        if (this.again) this.kick();
        else this.schedule();
      });
  }

  status(): DeliveryStatus {
    return { ...this.state };
  }

  /** Checks the transport once (at start-up), so /api/ready knows before the first message. */
  async verify(): Promise<void> {
    // A send that finished while the check ran is newer news than the check: it wins.
    const seen = this.notes;
    try {
      await this.o.courier.verify();
      if (this.notes === seen && this.state.working !== true) {
        if (this.state.working === false) this.o.logger.info('delivery works again');
        this.note(true, null);
      }
    } catch (error) {
      if (this.notes === seen) this.note(false, describeError(error));
      this.o.logger.warn(
        { err: describeError(error) },
        'delivery check failed; messages stay queued until it works',
      );
    }
  }

  /** Stops taking new messages and waits for the sends in progress; the rest stays queued. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private schedule(): void {
    const next = this.o.outbox.nextDueAt();
    const wait =
      next === undefined ? this.pollMs : Math.max(0, Math.min(next - this.now(), this.pollMs));
    this.timer = setTimeout(() => this.kick(), wait);
    // The HTTP server keeps the process alive; this timer alone should not.
    this.timer.unref();
  }

  private async run(): Promise<void> {
    let attempted = false;
    do {
      this.again = false;
      for (;;) {
        if (this.stopped) return;
        const batch = this.o.outbox.due(this.batchSize);
        if (batch.length === 0) break;
        attempted = true;
        const results = await this.deliverAll(batch);
        await this.o.courier.settle();
        this.o.outbox.record(results);
        if (results.length < batch.length) return;
      }
    } while (this.again && !this.stopped);
    // With nothing to send, a broken transport would otherwise look broken until the next
    // message: check it again on each idle round, so /api/ready recovers on its own.
    if (!attempted && this.state.working === false && !this.stopped) await this.verify();
  }

  private async deliverAll(batch: StoredMessage[]): Promise<AttemptResult[]> {
    const results: AttemptResult[] = [];
    let next = 0;
    const lane = async () => {
      // Checked before each send: on shutdown the sends in progress finish, no new one starts.
      while (!this.stopped && next < batch.length) {
        const message = batch[next++] as StoredMessage;
        results.push(await this.deliverOne(message));
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, batch.length) }, lane));
    return results;
  }

  private async deliverOne(message: StoredMessage): Promise<AttemptResult> {
    const attempts = message.attempts + 1;
    const log = { messageId: message.id, attempt: attempts, mode: this.o.courier.mode };
    try {
      await this.o.courier.send(buildMail(message, this.o.mail), message);
      this.note(true, null);
      this.o.logger.info(log, 'message delivered');
      return { id: message.id, outcome: 'delivered', attempts };
    } catch (error) {
      const reason = describeError(error);
      this.note(false, reason);
      if (isPermanent(error) || attempts >= this.o.maxAttempts) {
        this.o.logger.error(
          { ...log, err: reason, reply: relayReply(error), permanent: isPermanent(error) },
          'message could not be delivered; kept in the outbox as failed',
        );
        return { id: message.id, outcome: 'failed', attempts, error: reason };
      }
      const wait = backoffMs(attempts, this.o.retryBaseMs, this.o.retryMaxMs, this.random);
      this.o.logger.warn(
        { ...log, err: reason, reply: relayReply(error), retryInMs: wait },
        'delivery failed; will retry',
      );
      return {
        id: message.id,
        outcome: 'retry',
        attempts,
        nextAttemptAt: this.now() + wait,
        error: reason,
      };
    }
  }

  private note(ok: boolean, error: string | null): void {
    this.notes += 1;
    this.state = { ...this.state, working: ok, lastAttemptAt: this.now(), lastError: error };
  }
}
