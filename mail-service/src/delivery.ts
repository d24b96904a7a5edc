import { mkdirSync, promises as fs } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { SendMailOptions, Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import { fromDomain, type Config } from './config';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { hasUtf8LocalPart } from '@site/shared/contact';
import type { Outbox } from './outbox/outbox';
import type { AttemptResult, StoredMessage } from './outbox/queue';

/** What the relay said about each recipient of one send. */
export interface SendOutcome {
  accepted: string[];
  rejected: { recipient: string; error: unknown }[];
}

/** Where delivered messages go: the company's SMTP relay, or a local folder of .eml files. */
export interface Courier {
  readonly mode: 'smtp' | 'mailbox';
  /** Sends to the envelope recipients given; throws when no recipient took the message. */
  send(mail: SendMailOptions, message: StoredMessage, recipients: string[]): Promise<SendOutcome>;
  /** Makes the sends so far durable, before they are recorded as delivered. */
  settle(): Promise<void>;
  /** Checks that delivery can work (SMTP: connect and greet); throws when it cannot. */
  verify(): Promise<void>;
  /** Whether the relay takes internationalised addresses (SMTPUTF8); null until checked. */
  smtpUtf8(): boolean | null;
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
export function buildMail(
  message: StoredMessage,
  config: MailConfig,
  { smtpUtf8 = true }: { smtpUtf8?: boolean } = {},
): SendMailOptions {
  const { user, message: m } = message.payload;
  // The schema refuses RFC 2047 encoded words, but a message stored under older rules may hold
  // one: a space after "=" keeps a mail program from decoding it into header-looking lines.
  const plain = (s: string) => s.replace(/=\?/g, '= ?');
  // An address with a UTF-8 local part may only appear in a header when the relay offers
  // SMTPUTF8; without it the visitor's address stays in the text only, never lost.
  const replyTo = smtpUtf8 || !hasUtf8LocalPart(user.email);
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
    ...(replyTo ? { replyTo: { name: plain(user.name), address: user.email } } : {}),
    subject: `Website enquiry: ${plain(m.subject)}`,
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

export interface SmtpOptions {
  timeouts?: SmtpTimeouts;
  /** Connections to the relay, and so sends in progress at once. */
  connections?: number;
}

const isStringArray = (x: unknown): x is string[] =>
  Array.isArray(x) && x.every((s) => typeof s === 'string');

/** Reads what the relay offers after EHLO (nodemailer keeps it on the connection). */
function extensionsOf(connection: SMTPConnection): string[] {
  const seen: unknown = (connection as unknown as { _supportedExtensions?: unknown })
    ._supportedExtensions;
  return isStringArray(seen) ? seen : [];
}

export function createSmtpCourier(smtpUrl: string, options: SmtpOptions = {}): Courier {
  const timeouts = options.timeouts ?? SMTP_TIMEOUTS;
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: options.connections ?? 4,
    maxMessages: 100,
    ...timeouts,
    dnsTimeout: timeouts.connectionTimeout,
    logger: false,
    debug: false,
  });
  let utf8: boolean | null = null;
  const url = new URL(smtpUrl);
  return {
    mode: 'smtp',
    async send(mail, message, recipients) {
      const info = (await transport.sendMail({
        ...mail,
        envelope: envelopeOf(mail, recipients),
      })) as {
        accepted?: unknown;
        rejected?: unknown;
        rejectedErrors?: unknown;
      };
      const accepted = (isStringArray(info.accepted) ? info.accepted : []).map(String);
      const rejectedErrors = Array.isArray(info.rejectedErrors)
        ? (info.rejectedErrors as unknown[])
        : [];
      const rejected = (isStringArray(info.rejected) ? info.rejected : []).map((recipient, i) => ({
        recipient,
        error: rejectedErrors[i],
      }));
      return { accepted, rejected };
    },
    // The relay's 250 reply is the hand-over: nothing left to make durable here.
    async settle() {},
    // A connection of its own, so that what the relay offers (SMTPUTF8) is known before the
    // first message: the API tells a visitor at once when their address cannot be delivered.
    async verify() {
      const connection = new SMTPConnection({
        host: url.hostname,
        port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
        secure: url.protocol === 'smtps:',
        ...timeouts,
        logger: false,
      });
      try {
        await new Promise<void>((resolve, reject) => {
          connection.once('error', reject);
          connection.connect(() => resolve());
        });
        if (url.username) {
          await new Promise<void>((resolve, reject) =>
            connection.login(
              { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) },
              (err) => (err ? reject(err) : resolve()),
            ),
          );
        }
        utf8 = extensionsOf(connection).includes('SMTPUTF8');
      } finally {
        connection.quit();
        connection.close();
      }
    },
    smtpUtf8: () => utf8,
    close() {
      transport.close();
    },
  };
}

function envelopeOf(mail: SendMailOptions, recipients: string[]) {
  const from = mail.from;
  const address =
    typeof from === 'object' && from !== null && 'address' in from ? from.address : '';
  return { from: address, to: recipients };
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
    async send(mail, message, recipients) {
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
      return { accepted: [...recipients], rejected: [] };
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
    // A file takes any header; mail programs read UTF-8 headers (RFC 6532).
    smtpUtf8: () => true,
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
  command: string | undefined;
  responseCode: number | undefined;
  /** The relay's reply, if any: the company's server talking, never the visitor's text. */
  response: string | undefined;
}

function errorFacts(error: unknown): ErrorFacts {
  const e = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  return {
    code: typeof e.code === 'string' ? e.code : undefined,
    command: typeof e.command === 'string' ? e.command : undefined,
    responseCode: typeof e.responseCode === 'number' ? e.responseCode : undefined,
    response: typeof e.response === 'string' ? e.response.slice(0, 200) : undefined,
  };
}

/**
 * - `configuration`: the relay refuses *us* (credentials, "authentication required", relaying
 *   denied, our sender refused at MAIL FROM). Every message would fail alike and an operator can
 *   fix it, so messages wait and are retried like any outage, and the log says what to fix.
 * - `permanent`: the relay refused this message or this recipient for good (another 5xx).
 * - `transient`: everything else (refused or dropped connections, timeouts, 4xx, 503).
 */
export type FailureKind = 'configuration' | 'permanent' | 'transient';

// Our own credentials, TLS or set-up: nodemailer's codes for failures on our side.
const SERVICE_SIDE = new Set(['EAUTH', 'ENOAUTH', 'EOAUTH2', 'ECONFIG', 'ETLS', 'EREQUIRETLS']);
// 530 authentication required, 534/538 stronger authentication or encryption needed, 535 bad
// credentials, 551/554 with "relay": the relay does not take mail from us as configured.
const CONFIGURATION_CODES = new Set([530, 534, 535, 538]);
const RELAY_DENIED = /\brelay(ing)?\b.*\b(denied|not permitted|not allowed|access)\b|\b5\.7\.0\b/i;

export function classify(error: unknown): FailureKind {
  const f = errorFacts(error);
  if (f.code && SERVICE_SIDE.has(f.code)) return 'configuration';
  if (f.responseCode !== undefined && CONFIGURATION_CODES.has(f.responseCode)) {
    return 'configuration';
  }
  if (f.response && RELAY_DENIED.test(f.response)) return 'configuration';
  if (f.responseCode !== undefined && f.responseCode >= 500 && f.responseCode !== 503) {
    // Refused at MAIL FROM: the sender is ours (MAIL_FROM), so the message is not to blame.
    return f.command === 'MAIL FROM' ? 'configuration' : 'permanent';
  }
  return 'transient';
}

/** Permanent: retrying cannot help, the message is kept as failed. */
export const isPermanent = (error: unknown): boolean => classify(error) === 'permanent';

/** The relay's reply to a failed send, for the log. */
export const relayReply = (error: unknown): string | undefined => errorFacts(error).response;

/** A short, log-safe description of a delivery error (no message content, no credentials). */
export function describeError(error: unknown): string {
  const f = errorFacts(error);
  return [f.code, f.responseCode].filter((x) => x !== undefined).join(' ') || 'error';
}

const OPERATOR_HINT: Record<FailureKind, string> = {
  configuration:
    'the relay refuses the service itself (credentials, relaying or sender): check SMTP_URL and MAIL_FROM with the relay; messages wait and are retried',
  permanent:
    'the relay refused this message for good: see `npm run outbox -w mail-service -- list failed`',
  transient: 'will retry',
};

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
  /** false after a delivery result could not be written: delivery waits until it can be. */
  recording: boolean;
  /** Whether the relay takes UTF-8 addresses; null until known. */
  smtpUtf8: boolean | null;
}

/** What the worker reports for metrics. */
export interface DeliveryObserver {
  attempt(outcome: 'delivered' | 'retry' | 'failed', kind: FailureKind | null): void;
  /** From acceptance to the relay's acceptance. */
  delivered(latencyMs: number): void;
  recordFailed(): void;
}

export interface WorkerOptions {
  outbox: Outbox;
  courier: Courier;
  mail: MailConfig;
  logger: Logger;
  retryBaseMs: number;
  retryMaxMs: number;
  /** How long a message is retried before it is kept as failed, from its acceptance. */
  queueLifetimeMs: number;
  observer?: DeliveryObserver;
  now?: () => number;
  random?: () => number;
  batchSize?: number;
  concurrency?: number;
  /** How often the outbox is looked at even when nothing seems due (a safety net). */
  pollMs?: number;
  /** How often a failed record is tried again while delivery waits for storage. */
  storageRetryMs?: number;
  /** In-flow control: how many messages may be accepted ahead of delivery before intake waits. */
  inFlowBurst?: number;
  /** The longest an accepted request waits for delivery to catch up; 0 turns the control off. */
  inFlowDelayMs?: number;
  /** Requests let in per delivery under a flood. */
  inFlowRatio?: number;
}

const days = (ms: number) =>
  ms >= 2 * 86_400_000
    ? `${Math.round(ms / 86_400_000)} days`
    : `${Math.round(ms / 60_000)} minutes`;

/**
 * Delivers what is queued in the outbox, in this process. Woken when a message is stored and by a
 * timer for the next retry; on start it picks up whatever an earlier run left undelivered.
 *
 * Each result is recorded the moment the relay has answered, one message at a time. When a result
 * cannot be recorded (a full disk, say), delivery stops: the result is kept in memory and written
 * as soon as storage works again, and nothing is sent meanwhile, so no message is sent twice
 * because its record failed.
 */
export class DeliveryWorker {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private state: DeliveryStatus;
  private notes = 0;
  private unrecorded: AttemptResult[] = [];
  private tokens: number;
  private waiting: (() => void)[] = [];
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly batchSize: number;
  private readonly concurrency: number;
  private readonly pollMs: number;
  private readonly storageRetryMs: number;

  constructor(private readonly o: WorkerOptions) {
    this.now = o.now ?? Date.now;
    this.random = o.random ?? Math.random;
    this.batchSize = o.batchSize ?? 20;
    // Matches the SMTP pool's connections; one file at a time keeps the mailbox from crowding out
    // the requests (each .eml costs more CPU to build than a request costs to accept).
    this.concurrency = o.concurrency ?? (o.courier.mode === 'smtp' ? 4 : 1);
    this.pollMs = o.pollMs ?? 60_000;
    this.storageRetryMs = o.storageRetryMs ?? 1000;
    this.tokens = o.inFlowBurst ?? 200;
    this.state = {
      mode: o.courier.mode,
      working: null,
      lastAttemptAt: null,
      lastError: null,
      recording: true,
      smtpUtf8: o.courier.smtpUtf8(),
    };
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
        if (this.again && this.unrecorded.length === 0) this.kick();
        else this.schedule();
      });
  }

  /**
   * In-flow control, as Postfix's smtpd does it: each delivery hands out a token and each accepted
   * message takes one. When a flood of requests runs ahead of delivery by more than the burst,
   * a request waits for the next delivery (at most `inFlowDelayMs`) before it is stored, so that
   * intake can never take the whole process and leave delivery starved. When delivery is not
   * working (relay down), nothing waits: messages are accepted and kept.
   */
  admit(): Promise<void> | undefined {
    if (
      this.tokens > 0 ||
      this.o.inFlowDelayMs === 0 ||
      this.state.working === false ||
      !this.state.recording
    ) {
      this.tokens = Math.max(0, this.tokens - 1);
      return undefined;
    }
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiting = this.waiting.filter((w) => w !== done);
        resolve();
      };
      const timer = setTimeout(done, this.o.inFlowDelayMs ?? 1000);
      this.waiting.push(done);
    });
  }

  // Each delivery lets `inFlowRatio` requests in: intake may run ahead of delivery by that
  // factor under a flood, and no further.
  private release(): void {
    for (let i = 0; i < (this.o.inFlowRatio ?? 6); i++) {
      const next = this.waiting.shift();
      if (next) next();
      else this.tokens = Math.min(this.o.inFlowBurst ?? 200, this.tokens + 1);
    }
  }

  status(): DeliveryStatus {
    return { ...this.state, smtpUtf8: this.o.courier.smtpUtf8() };
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
      const kind = classify(error);
      this.o.logger.warn(
        { err: describeError(error), reply: relayReply(error), kind },
        kind === 'configuration'
          ? `delivery check failed: ${OPERATOR_HINT.configuration}`
          : 'delivery check failed; messages stay queued until it works',
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
    let wait: number;
    if (this.unrecorded.length > 0) wait = this.storageRetryMs;
    else {
      let next: number | undefined;
      try {
        next = this.o.outbox.nextDueAt();
      } catch {
        next = this.now() + this.storageRetryMs;
      }
      wait =
        next === undefined ? this.pollMs : Math.max(0, Math.min(next - this.now(), this.pollMs));
    }
    this.timer = setTimeout(() => this.kick(), wait);
    // The HTTP server keeps the process alive; this timer alone should not.
    this.timer.unref();
  }

  /** Writes the results that could not be written before; true when none is left. */
  private recordPending(): boolean {
    while (this.unrecorded.length > 0) {
      const next = this.unrecorded[0] as AttemptResult;
      try {
        this.o.outbox.record(next);
      } catch {
        return false;
      }
      this.unrecorded.shift();
    }
    if (!this.state.recording) {
      this.state = { ...this.state, recording: true };
      this.o.logger.info('delivery results are recorded again; delivery resumes');
    }
    return true;
  }

  private async run(): Promise<void> {
    if (!this.recordPending()) return;
    let attempted = false;
    do {
      this.again = false;
      for (;;) {
        if (this.stopped || this.unrecorded.length > 0) return;
        const batch = this.o.outbox.due(this.batchSize);
        if (batch.length === 0) {
          // Caught up: whoever waits may go, and the next burst is allowed in full.
          for (const w of this.waiting.splice(0)) w();
          this.tokens = this.o.inFlowBurst ?? 200;
          break;
        }
        attempted = true;
        await this.deliverAll(batch);
      }
    } while (this.again && !this.stopped);
    // With nothing to send, a broken transport would otherwise look broken until the next
    // message: check it again on each idle round, so /api/ready recovers on its own.
    if (!attempted && this.state.working === false && !this.stopped) await this.verify();
  }

  private async deliverAll(batch: StoredMessage[]): Promise<void> {
    let next = 0;
    const lane = async () => {
      // Checked before each send: on shutdown, or when a result could not be recorded, the sends
      // in progress finish and no new one starts.
      while (!this.stopped && this.unrecorded.length === 0 && next < batch.length) {
        const message = batch[next++] as StoredMessage;
        const result = await this.deliverOne(message);
        this.record(result);
        this.release();
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, batch.length) }, lane));
  }

  private record(result: AttemptResult): void {
    if (this.unrecorded.length === 0) {
      try {
        this.o.outbox.record(result);
        return;
      } catch (error) {
        this.o.observer?.recordFailed();
        this.state = { ...this.state, recording: false };
        this.o.logger.error(
          {
            messageId: result.id,
            outcome: result.outcome,
            err: describeError(error) === 'error' ? String(error) : describeError(error),
          },
          'cannot record a delivery result in the outbox: delivery is stopped until DATA_DIR can be written again (free disk space); nothing is sent twice',
        );
      }
    }
    this.unrecorded.push(result);
  }

  private async deliverOne(message: StoredMessage): Promise<AttemptResult> {
    const attempts = message.attempts + 1;
    const log = { messageId: message.id, attempt: attempts, mode: this.o.courier.mode };
    const all = this.o.mail.mailTo.map((a) => a.address);
    const done = new Set(message.doneRecipients);
    const remaining = all.filter((a) => !done.has(a));
    let accepted: string[] = [];
    let rejected: { recipient: string; error: unknown }[] = [];
    let failure: unknown;
    try {
      const utf8 = this.o.courier.smtpUtf8() !== false;
      const mail = buildMail(message, this.o.mail, { smtpUtf8: utf8 });
      ({ accepted, rejected } = await this.o.courier.send(mail, message, remaining));
      await this.o.courier.settle();
    } catch (error) {
      failure = error;
      const e = error as { rejected?: unknown; rejectedErrors?: unknown };
      // Every recipient refused at RCPT TO: judged recipient by recipient, like a partial refusal.
      if (isStringArray(e.rejected) && Array.isArray(e.rejectedErrors)) {
        const errors = e.rejectedErrors as unknown[];
        rejected = e.rejected.map((recipient, i) => ({ recipient, error: errors[i] }));
      }
    }
    const recipients = [...message.doneRecipients, ...accepted];

    if (failure === undefined && rejected.length === 0) {
      this.note(true, null);
      this.o.observer?.attempt('delivered', null);
      this.o.observer?.delivered(this.now() - message.createdAt);
      this.o.logger.info(log, 'message delivered');
      return { id: message.id, outcome: 'delivered', attempts, recipients };
    }

    // The worst refusal decides: anything worth retrying keeps the message queued for those
    // recipients; only refusals that are all permanent make it failed.
    const kinds =
      rejected.length > 0 ? rejected.map((r) => classify(r.error)) : [classify(failure)];
    const kind: FailureKind = kinds.includes('configuration')
      ? 'configuration'
      : kinds.includes('transient')
        ? 'transient'
        : 'permanent';
    const cause = rejected[0]?.error ?? failure;
    const reason =
      rejected.length > 0
        ? `${describeError(cause)} refused ${rejected.map((r) => r.recipient).join(', ')}`
        : describeError(failure);
    if (accepted.length > 0) this.note(true, null);
    else this.note(kind === 'permanent', kind === 'permanent' ? null : reason);

    const age = this.now() - message.createdAt;
    const expired = age >= this.o.queueLifetimeMs;
    if (kind === 'permanent' || expired) {
      this.o.observer?.attempt('failed', kind);
      this.o.logger.error(
        {
          ...log,
          err: reason,
          reply: relayReply(cause),
          kind,
          delivered: recipients,
          rejected: rejected.map((r) => r.recipient),
        },
        expired && kind !== 'permanent'
          ? `message not delivered after ${days(age)}; kept in the outbox as failed: fix the cause, then \`npm run outbox -w mail-service -- requeue ${message.id}\``
          : `message refused for good; kept in the outbox as failed: ${OPERATOR_HINT.permanent}`,
      );
      return { id: message.id, outcome: 'failed', attempts, error: reason, recipients };
    }
    const wait = backoffMs(attempts, this.o.retryBaseMs, this.o.retryMaxMs, this.random);
    this.o.observer?.attempt('retry', kind);
    const entry = { ...log, err: reason, reply: relayReply(cause), kind, retryInMs: wait };
    if (kind === 'configuration') {
      this.o.logger.error(entry, `delivery failed: ${OPERATOR_HINT.configuration}`);
    } else this.o.logger.warn(entry, 'delivery failed; will retry');
    return {
      id: message.id,
      outcome: 'retry',
      attempts,
      nextAttemptAt: this.now() + wait,
      error: reason,
      recipients,
    };
  }

  private note(ok: boolean, error: string | null): void {
    this.notes += 1;
    this.state = { ...this.state, working: ok, lastAttemptAt: this.now(), lastError: error };
  }
}
