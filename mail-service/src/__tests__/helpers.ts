/**
 * What the mail-service's tests share: the service in this process (a harness, per test or per
 * describe block) and requests the way the site's form sends them. The relay: relay.ts; the
 * databases: stores.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import pino from 'pino';
import request from 'supertest';
import { loadConfig, type Config } from '../config';
import type { Courier } from '../delivery/courier';
import type { DeliveryWorker } from '../delivery/worker';
import type { Outbox } from '../outbox/outbox';
import { createService, type Service } from '../service';
import { TestSmtp } from './relay';
import { createDatabase, dropDatabase, testStore, type TestStore } from './stores';

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
  outbox: Outbox;
  worker: DeliveryWorker;
  courier: Courier;
  service: Service;
  dir: string;
  close(): Promise<void>;
}

/** A harness's settings: a database (stores.ts) and whatever the test sets besides. */
type HarnessEnv = { DATABASE_URL: string } & Record<string, string>;

/**
 * The service as server.ts wires it (createService), minus the listening socket: the outbox in
 * the database of `env`, a real courier (SMTP when SMTP_URL is given, else a mailbox folder of its
 * own) and the worker, started.
 */
function createHarness(
  env: HarnessEnv,
  {
    pollMs,
    now,
    leaseMs,
    digestEveryMs,
  }: {
    pollMs?: number;
    now?: () => number;
    leaseMs?: number;
    digestEveryMs?: number;
  } = {},
): Harness {
  const dir = tempDir('h');
  const config = loadConfig({
    DATA_DIR: path.join(dir, 'data'),
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
 * one for each test, on the block's database emptied before each, or with `shared` one for them
 * all, on a database of its own; closed after.
 */
export function useHarness(
  env: Record<string, string> = {},
  { shared = false }: { shared?: boolean } = {},
): Harness & { csrf: CsrfPair } {
  const current = {} as Harness & { csrf: CsrfPair };
  if (shared) {
    beforeAll(async () => {
      Object.assign(current, createHarness({ ...env, DATABASE_URL: await createDatabase() }));
      current.csrf = await getCsrf(current.app);
    });
    afterAll(async () => {
      await current.close();
      await dropDatabase(current.config.DATABASE_URL);
    });
  } else {
    const store = testStore();
    beforeEach(async () => {
      Object.assign(current, createHarness({ ...env, ...store.env }));
      current.csrf = await getCsrf(current.app);
    });
    afterEach(() => current.close());
  }
  return current;
}

/**
 * Starts harnesses and test relays for the tests of the enclosing describe block (or file); once
 * a test ends, whatever it started is closed, the harnesses first, then the relays. Harnesses use
 * the database of `store`: by default one of the block's own, emptied before each test.
 */
export function startPerTest(store: TestStore = testStore()) {
  const harnesses: Harness[] = [];
  const relays: TestSmtp[] = [];
  afterEach(async () => {
    for (const h of harnesses.splice(0)) await h.close();
    for (const smtp of relays.splice(0)) await smtp.close();
  });
  return {
    harness(
      env: Record<string, string> = {},
      options?: Parameters<typeof createHarness>[1],
    ): Harness {
      const h = createHarness({ ...store.env, ...env }, options);
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
