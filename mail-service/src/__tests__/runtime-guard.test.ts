/**
 * Started by a Node without the built-in SQLite (older than 22.13, or with it switched off), the
 * service and its command line stop at once with a message naming the Node to use: never an
 * unknown-module stack trace, and never a service that accepts messages it cannot store.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SERVICE_DIR } from '../config';

/** Runs an entry point as npm would, on this Node with `node:sqlite` switched off. */
function runWithoutSqlite(entry: string, args: string[] = []) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mail-guard-'));
  try {
    const run = spawnSync(
      process.execPath,
      ['--no-experimental-sqlite', '--import', 'tsx', entry, ...args],
      {
        cwd: SERVICE_DIR,
        env: {
          ...process.env,
          MAIL_SERVICE_PORT: '0',
          DATA_DIR: dataDir,
          MAILBOX_DIR: path.join(dataDir, 'mailbox'),
        },
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    return { ...run, dataFiles: readdirSync(dataDir) };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('a Node without node:sqlite', () => {
  test.each([
    ['the server', 'src/server.ts', []],
    ['the outbox command', 'src/cli.ts', ['counts']],
  ])('%s stops with exit 1 and says which Node to use', (_, entry, args) => {
    const run = runWithoutSqlite(entry, args);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      `mail-service: Node.js ${process.versions.node} has no built-in SQLite (node:sqlite).`,
    );
    expect(run.stderr).toContain('the version in .nvmrc');
    // It stopped before anything else: no stack trace, no log line, no store created.
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).toBe('');
    expect(run.dataFiles).toEqual([]);
  });
});
