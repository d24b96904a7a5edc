/**
 * The PostgreSQL the site server's tests run against: one server for the run, started by
 * global-setup.ts on a port the system has free, its URL handed to the test files in
 * SHELL_TEST_POSTGRES_URL; each test takes a new, empty database of its own on it
 * (`freshDatabase()`). Tests that stop or pause their server start one of their own
 * (`startPostgres()`, again on a free port). No jest globals here: global-setup.ts runs it in
 * Jest's parent process.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';

/** The variable global-setup.ts hands the run's server to the test files in. */
export const RUN_POSTGRES_VARIABLE = 'SHELL_TEST_POSTGRES_URL';

export interface TestPostgres {
  url: string;
  /** Stops the server, keeping its data; `resume()` starts it again. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `startPostgres` of @site/build/testing/postgres, run in a process of its own
 * (control-plane-postgres.ts says why): a real PostgreSQL on a free port.
 */
export function startPostgres(): Promise<TestPostgres> {
  const child = fork(path.join(__dirname, 'control-plane-postgres.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const reply = <T>(what: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const onExit = (code: number | null) =>
        reject(new Error(`PostgreSQL's process ended (${code}) before ${what}`));
      child.once('exit', onExit);
      child.once('message', (message: T) => {
        child.off('exit', onExit);
        resolve(message);
      });
    });
  const command = async (name: 'pause' | 'resume') => {
    const done = reply<{ done?: string; error?: string }>(name);
    child.send(name);
    const answer = await done;
    if (answer.done !== name) throw new Error(`PostgreSQL could not ${name}: ${answer.error}`);
  };
  return reply<{ url: string }>('it started').then(({ url }) => ({
    url,
    pause: () => command('pause'),
    resume: () => command('resume'),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.disconnect();
      }),
  }));
}

/** The run's server (global-setup.ts). */
function runServer(): string {
  const url = process.env[RUN_POSTGRES_VARIABLE];
  if (!url) {
    throw new Error(
      `no test PostgreSQL: ${RUN_POSTGRES_VARIABLE} is unset (jest.config.cjs's globalSetup starts it)`,
    );
  }
  return url;
}

/**
 * A new, empty database on the run's server (or on the server at `server`); resolves to its URL.
 * Its name is random: test files share the server, and each file's module state starts afresh.
 */
export async function freshDatabase(server = runServer()): Promise<string> {
  const name = `site_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const fresh = new URL(server);
  fresh.pathname = `/${name}`;
  return fresh.href;
}

/** Every row of `table` in the database at `url`, as JSON text: what is kept there, verbatim. */
export async function tableText(url: string, table: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return JSON.stringify((await client.query(`SELECT * FROM ${table}`)).rows);
  } finally {
    await client.end();
  }
}
