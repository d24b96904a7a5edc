import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SHELL_PORT, SITE_REMOTES } from '@site/contracts/site';
import { startSmtpServer, MAILBOX_DIR, SMTP_PORT } from './smtp';
import { startRunDatabase } from './database';

const ROOT = path.resolve(__dirname, '..', '..');
/** The local run's ports (scripts/start.ts): the site, each group in the site table, the mail-service. */
export const PORTS = { site: SHELL_PORT, remotes: SITE_REMOTES.map((r) => r.port), mail: 3005 };

function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitFor(url: string, child: ChildProcess, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`the site stopped while starting (exit ${child.exitCode})`);
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not come up within ${ms / 1000} s`);
}

/**
 * Starts what the browser tests run against: a real SMTP server standing in for the company's
 * mailbox, and the whole site (`scripts/start.ts`: site, every page group, mail-service) delivering to it.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  for (const port of [PORTS.site, ...PORTS.remotes, PORTS.mail, SMTP_PORT]) {
    if (await portInUse(port)) {
      throw new Error(
        `port ${port} is in use: stop whatever runs there (npm start?) before npm test`,
      );
    }
  }
  // One PostgreSQL for the run: the services tests start each get a database of their own on it.
  const database = await startRunDatabase();
  rmSync(MAILBOX_DIR, { recursive: true, force: true });
  mkdirSync(MAILBOX_DIR, { recursive: true });
  const smtp = await startSmtpServer();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'site-e2e-'));
  writeFileSync(path.join(dataDir, 'README'), 'Outbox of an end-to-end test run.\n');

  const site = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'scripts', 'start.ts'), '--fresh-manifest'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
        DATA_DIR: dataDir,
        MAILBOX_DIR: path.join(dataDir, 'mailbox'),
        RATE_LIMIT_MAX: '1000',
        RETRY_BASE_MS: '200',
        RETRY_MAX_MS: '1000',
        // A browser fills a form in milliseconds, not in the seconds a person takes: the form's
        // time trap is set short, so no test waits to look human. The trap itself is the
        // mail-service's tests' (src/__tests__/spam-and-personal-data.test.ts).
        FORM_MIN_FILL_MS: '100',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  await waitFor(`http://localhost:${PORTS.site}/`, site);
  for (const port of PORTS.remotes) await waitFor(`http://localhost:${port}/`, site);

  return async () => {
    if (site.exitCode === null) {
      site.kill('SIGTERM');
      await new Promise((r) => site.once('exit', r));
    }
    await smtp.close();
    await database.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
