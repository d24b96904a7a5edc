/**
 * What the mail-service's tests share: the service in this process (a harness, per test or per
 * describe block), requests the way the site's form sends them, and a real SMTP server standing
 * in for the company's relay.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import { Client } from 'pg';
import pino from 'pino';
import request from 'supertest';
import { SMTPServer, type SMTPServerEnvelope } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import { loadConfig, type Config } from '../config';
import type { Courier } from '../delivery/courier';
import type { DeliveryWorker } from '../delivery/worker';
import type { OutboxStore } from '../outbox/store';
import { openPostgres } from '../postgres';
import { createService, type Service } from '../service';

export const ORIGIN = 'http://localhost:3000';

export const silentLogger = pino({ level: 'silent' });

export function validMessage() {
  return {
    user: { name: 'Thandi Nkosi', email: 'thandi@example.co.za' },
    message: { subject: 'A new website', body: 'Hello,\nwe would like a quote.\n\nThandi' },
  };
}

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `mail-service-${prefix}-`));
}

export async function waitFor<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  { timeoutMs = 10_000, intervalMs = 25, what = 'condition' } = {},
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** The service in this process; `close` stops it and removes its folder (once, however often called). */
export interface Harness {
  app: Express;
  config: Config;
  outbox: OutboxStore;
  worker: DeliveryWorker;
  courier: Courier;
  service: Service;
  dir: string;
  close(): Promise<void>;
}

/**
 * The service as server.ts wires it (createService), minus the listening socket: a real outbox
 * in a temp folder (or `dataDir`), a real courier (SMTP when SMTP_URL is given, else the mailbox
 * folder) and the worker, started.
 */
export function createHarness(
  env: Record<string, string> = {},
  {
    pollMs,
    dataDir,
    now,
    leaseMs,
    digestEveryMs,
  }: {
    pollMs?: number;
    dataDir?: string;
    now?: () => number;
    leaseMs?: number;
    digestEveryMs?: number;
  } = {},
): Harness {
  const dir = tempDir('h');
  const config = loadConfig({
    DATA_DIR: dataDir ?? path.join(dir, 'data'),
    MAILBOX_DIR: path.join(dir, 'mailbox'),
    LOG_LEVEL: 'silent',
    RETRY_BASE_MS: '20',
    RETRY_MAX_MS: '100',
    ...env,
  });
  const service = createService(config, {
    logger: silentLogger,
    smtpTimeouts: { connectionTimeout: 2000, greetingTimeout: 2000, socketTimeout: 5000 },
    ...(pollMs !== undefined ? { pollMs } : {}),
    ...(now ? { now } : {}),
    ...(leaseMs !== undefined ? { leaseMs } : {}),
    ...(digestEveryMs !== undefined ? { digestEveryMs } : {}),
  });
  void service.start();
  let closed: Promise<void> | undefined;
  return {
    app: service.app,
    config,
    outbox: service.outbox,
    worker: service.worker,
    courier: service.courier,
    service,
    dir,
    close() {
      // The start-up delivery check is not awaited by stop() and may still be creating
      // MAILBOX_DIR while the folder is removed: removal is retried rather than failing the
      // test with ENOTEMPTY.
      closed ??= service
        .stop()
        .then(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5 }));
      return closed;
    },
  };
}

/**
 * A harness with its CSRF token (`csrf`) for the tests of the enclosing describe block: a fresh
 * one for each test, or with `shared` one for them all; closed after.
 */
export function useHarness(
  env: Record<string, string> = {},
  { shared = false }: { shared?: boolean } = {},
): Harness & { csrf: CsrfPair } {
  const current = {} as Harness & { csrf: CsrfPair };
  (shared ? beforeAll : beforeEach)(async () => {
    Object.assign(current, createHarness(env));
    current.csrf = await getCsrf(current.app);
  });
  (shared ? afterAll : afterEach)(() => current.close());
  return current;
}

export interface TestPostgres {
  url: string;
  /** Stops the server, keeping its data (the database is down); `resume()` starts it again. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A real PostgreSQL on `port`: `startPostgres` of @site/build/testing/postgres, run in a process
 * of its own (postgres-process.ts says why).
 */
export function startPostgres(port: number): Promise<TestPostgres> {
  const child = fork(path.join(__dirname, 'postgres-process.ts'), [String(port)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const early = () => reject(new Error(`PostgreSQL on port ${port} did not start`));
    child.once('exit', early);
    child.once('message', (message: { url: string }) => {
      child.off('exit', early);
      const command = (name: 'pause' | 'resume') =>
        new Promise<void>((done, fail) => {
          child.once('message', (answer: { done?: string; error?: string }) =>
            answer.done === name ? done() : fail(new Error(`PostgreSQL: ${answer.error}`)),
          );
          child.send(name);
        });
      resolve({
        url: message.url,
        pause: () => command('pause'),
        resume: () => command('resume'),
        stop() {
          if (child.connected) child.disconnect();
          return exited;
        },
      });
    });
  });
}

export type StoreKind = 'sqlite' | 'postgres';
/** The outbox stores the fault suite runs against. */
export const STORE_KINDS: StoreKind[] = ['sqlite', 'postgres'];

/** The settings that point a service at a store: filled in before the block's first test. */
export interface TestStore {
  kind: StoreKind;
  /** `{}` for SQLite (each harness has a DATA_DIR of its own), `{ DATABASE_URL }` for PostgreSQL. */
  env: Record<string, string>;
  postgres?: TestPostgres;
}

/**
 * The store for the tests of the enclosing describe block. PostgreSQL: a server of its own on
 * `port` (3490-3499), started before the block and removed after it, migrated once, and emptied
 * before each test, so that each test starts with an empty outbox as with SQLite.
 */
export function testStore(kind: StoreKind, port: number): TestStore {
  const store: TestStore = { kind, env: {} };
  if (kind === 'sqlite') return store;
  beforeAll(async () => {
    store.postgres = await startPostgres(port);
    store.env = { DATABASE_URL: store.postgres.url };
    const pg = openPostgres(store.postgres.url, { max: 1 });
    try {
      await pg.ready;
    } finally {
      await pg.close();
    }
  }, 60_000);
  beforeEach(async () => {
    const client = new Client({ connectionString: store.env.DATABASE_URL });
    await client.connect();
    try {
      await client.query('TRUNCATE mail_messages, mail_rate_limits, mail_probe, mail_erasures');
      await client.query('UPDATE mail_digest SET last_sent_at = NULL, claimed_until = NULL');
    } finally {
      await client.end();
    }
  });
  afterAll(async () => {
    await store.postgres?.stop();
  }, 30_000);
  return store;
}

/**
 * Starts harnesses and test relays for the tests of the enclosing describe block (or file); once
 * a test ends, whatever it started is closed, the harnesses first, then the relays. Harnesses use
 * `store` (default: each its own SQLite outbox).
 */
export function startPerTest(store?: TestStore) {
  const harnesses: Harness[] = [];
  const relays: TestSmtp[] = [];
  afterEach(async () => {
    for (const h of harnesses.splice(0)) await h.close();
    for (const smtp of relays.splice(0)) await smtp.close();
  });
  return {
    harness(...[env, options]: Parameters<typeof createHarness>): Harness {
      const h = createHarness({ ...store?.env, ...env }, options);
      harnesses.push(h);
      return h;
    },
    async relay(...args: Parameters<typeof TestSmtp.start>): Promise<TestSmtp> {
      const smtp = await TestSmtp.start(...args);
      relays.push(smtp);
      return smtp;
    },
  };
}

export interface CsrfPair {
  token: string;
  cookie: string;
}

/** What a request goes to: the app in this process, or the URL of a service that listens. */
export type Target = Express | string;

export async function getCsrf(app: Target): Promise<CsrfPair> {
  const res = await request(app).get('/api/csrf').expect(200);
  const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const cookie = setCookie.find((c) => c.startsWith('XSRF-TOKEN='));
  if (!cookie) throw new Error('no XSRF-TOKEN cookie');
  return { token: (res.body as { token: string }).token, cookie: cookie.split(';')[0] as string };
}

/** POSTs a message the way the site's form does: same origin, cookie and header token. */
export function post(
  app: Target,
  csrf: CsrfPair,
  body: unknown,
  headers: Record<string, string> = {},
): request.Test {
  return request(app)
    .post('/api/sendmail')
    .set('Origin', ORIGIN)
    .set('Cookie', csrf.cookie)
    .set('X-XSRF-TOKEN', csrf.token)
    .set('Content-Type', 'application/json')
    .set(headers)
    .send(typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body));
}

/** Accepts a message through the API, as the site's form would; resolves with its id. */
export async function accept(
  h: Harness,
  body: unknown = validMessage(),
  headers: Record<string, string> = {},
): Promise<string> {
  const csrf = await getCsrf(h.app);
  const res = await post(h.app, csrf, body, headers).expect(202);
  return (res.body as { messageId: string }).messageId;
}

export interface Ready {
  status: string;
  problems: string[];
  delivery: { working: boolean | null; recording: boolean; lastError: string | null };
  messages: Record<string, number>;
}

/** GET /api/ready: the status code and the body. */
export async function ready(h: Harness): Promise<Ready & { code: number }> {
  const res = await request(h.app).get('/api/ready');
  return { code: res.status, ...(res.body as Ready) };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Received {
  mail: ParsedMail;
  envelope: SMTPServerEnvelope;
}

/** One DATA of one message as the relay saw it: who sent it (its EHLO name) and when. */
export interface DataSession {
  messageId: string | undefined;
  client: string;
  start: number;
  end: number;
  accepted: boolean;
}

type Reply = { code: number; message: string } | undefined;

/** A real SMTP server on a port of its own, standing in for the company's relay. */
export class TestSmtp {
  readonly received: Received[] = [];
  /** Every DATA, accepted or refused, from its first byte to the relay's answer. */
  readonly sessions: DataSession[] = [];
  /** The EHLO names of the clients whose DATA the relay is taking right now, one per DATA. */
  readonly sending: string[] = [];
  /** Decides the reply to each DATA: undefined accepts, a code refuses. */
  reply: (attempt: number) => Reply = () => undefined;
  /** How long the server takes to answer each DATA, to hold a send in progress. */
  delayMs = 0;
  /** Decides the reply to MAIL FROM: undefined accepts. */
  mailFromReply: () => Reply = () => undefined;
  /** Decides the reply to each RCPT TO: undefined accepts. */
  rcptReply: (address: string) => Reply = () => undefined;
  private attempts = 0;
  private closed: Promise<void> | undefined;

  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
  ) {}

  static async start(port = 0, { smtpUtf8 = true } = {}): Promise<TestSmtp> {
    const holder: { self?: TestSmtp } = {};
    const refuse = (reply: Reply, callback: (err?: Error | null) => void) =>
      callback(
        reply ? Object.assign(new Error(reply.message), { responseCode: reply.code }) : undefined,
      );
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      hideSMTPUTF8: !smtpUtf8,
      logger: false,
      onMailFrom(_address, _session, callback) {
        refuse((holder.self as TestSmtp).mailFromReply(), callback);
      },
      onRcptTo(address, _session, callback) {
        refuse((holder.self as TestSmtp).rcptReply(address.address), callback);
      },
      onData(stream, session, callback) {
        const t = holder.self as TestSmtp;
        t.attempts += 1;
        const attempt = t.attempts;
        const start = Date.now();
        const client = session.hostNameAppearsAs;
        t.sending.push(client);
        let open = true;
        const done = () => {
          if (open) t.sending.splice(t.sending.indexOf(client), 1);
          open = false;
        };
        simpleParser(stream)
          .then(async (mail) => {
            if (t.delayMs > 0) await new Promise((r) => setTimeout(r, t.delayMs));
            const reply = t.reply(attempt);
            const messageId = mail.messageId;
            t.sessions.push({ messageId, client, start, end: Date.now(), accepted: !reply });
            done();
            if (reply) {
              callback(Object.assign(new Error(reply.message), { responseCode: reply.code }));
              return;
            }
            t.received.push({ mail, envelope: session.envelope });
            callback();
          })
          .catch((error: Error) => {
            done();
            callback(error);
          });
      },
    });
    // A client that dies mid-session (the service SIGKILLed by a test) resets its connection; a
    // relay carries on, and without a listener the reset would be thrown as an uncaught error.
    server.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') throw error;
    });
    await new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    const address = server.server.address() as net.AddressInfo;
    holder.self = new TestSmtp(server, address.port);
    return holder.self;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  get dataAttempts(): number {
    return this.attempts;
  }

  /** Stops the server (once, however often called). */
  close(): Promise<void> {
    this.closed ??= new Promise((resolve) => this.server.close(() => resolve()));
    return this.closed;
  }
}

/** A port nobody listens on (taken from the OS, then released). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
