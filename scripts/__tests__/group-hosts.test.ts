import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { listenOnFreePort, portRange } from '@site/build/testing/ports';

/**
 * Every group's static host in one process (`serve-remote.ts --site`, as `npm start` runs it),
 * for real: each group on its own port, and a group added to the site table while it runs is
 * served by the same process, without a restart.
 */

const SCRIPT = path.join(__dirname, '..', 'serve-remote.ts');

let root: string;
let child: ChildProcess;
const lines: string[] = [];
const ports: number[] = [];
const blockers: http.Server[] = [];

/** `count` ports free now, from the range the scripts' tests use. */
async function freePorts(count: number): Promise<number[]> {
  const found: number[] = [];
  for (let i = 0; i < count; i++) {
    const probe = http.createServer();
    const start = 3300 + Math.floor(Math.random() * 40);
    found.push(
      await listenOnFreePort(
        probe,
        portRange(3300, 3339, start).filter((p) => !found.includes(p)),
        '0.0.0.0',
      ),
    );
    blockers.push(probe);
  }
  await Promise.all(blockers.splice(0).map((s) => new Promise((r) => s.close(r))));
  return found;
}

interface Group {
  name: string;
  folder: string;
  port: number;
  prefixes: string[];
}

/** The table, written as new-group writes it: a whole new file renamed over the old. */
function writeTable(remotes: Group[]): void {
  const file = path.join(root, 'shared', 'contracts', 'site.json');
  writeFileSync(
    `${file}.new`,
    JSON.stringify({ shell: { port: 3000, pages: { home: '/' } }, remotes }, null, 2),
  );
  renameSync(`${file}.new`, file);
}

/** A group whose build holds `1.0.0/remoteEntry.js` saying its name. */
function group(name: string, port: number): Group {
  const folder = `mfe-${name}`;
  mkdirSync(path.join(root, folder, 'dist', '1.0.0'), { recursive: true });
  writeFileSync(path.join(root, folder, 'dist', '1.0.0', 'remoteEntry.js'), `var ${name} = 1;\n`);
  return { name, folder, port, prefixes: [`/${name}`] };
}

async function entry(port: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/1.0.0/remoteEntry.js`, {
    signal: AbortSignal.timeout(2000),
  });
  return `${response.status} ${await response.text()}`;
}

/** Waits until `check` resolves without throwing, or 10 s. */
async function eventually<T>(check: () => Promise<T>): Promise<T> {
  const end = Date.now() + 10_000;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > end) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'group-hosts-'));
  mkdirSync(path.join(root, 'shared', 'contracts'), { recursive: true });
  ports.push(...(await freePorts(3)));
  writeTable([group('alpha', ports[0]!), group('beta', ports[1]!)]);
  child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, '--site', root], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout!, child.stderr!]) {
    readline.createInterface({ input: stream }).on('line', (line) => lines.push(line));
  }
  await eventually(() => entry(ports[1]!));
}, 30_000);

afterAll(async () => {
  if (child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
  rmSync(root, { recursive: true, force: true });
});

describe('one static host for every group', () => {
  test('serves each group of the table on its own port', async () => {
    expect(await entry(ports[0]!)).toBe('200 var alpha = 1;\n');
    expect(await entry(ports[1]!)).toBe('200 var beta = 1;\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        `remote alpha: http://localhost:${ports[0]}/ (mfe-alpha/dist)`,
        `remote beta: http://localhost:${ports[1]}/ (mfe-beta/dist)`,
      ]),
    );
  });

  test('a group added to the table is served by the same process, without a restart', async () => {
    const pid = child.pid;
    writeTable([group('alpha', ports[0]!), group('beta', ports[1]!), group('gamma', ports[2]!)]);
    expect(await eventually(() => entry(ports[2]!))).toBe('200 var gamma = 1;\n');
    expect(child.pid).toBe(pid);
    expect(child.exitCode).toBeNull();
    expect(lines).toContain(
      `remote gamma: http://localhost:${ports[2]}/ (mfe-gamma/dist), new in the site table`,
    );
    // The others were not touched.
    expect(await entry(ports[0]!)).toBe('200 var alpha = 1;\n');
  });

  test('a table being edited (not JSON) keeps every group served', async () => {
    writeFileSync(path.join(root, 'shared', 'contracts', 'site.json'), '{ "remotes": [');
    await eventually(async () => {
      if (!lines.some((l) => l.startsWith('the site table cannot be read')))
        throw new Error('not yet');
    });
    expect(await entry(ports[2]!)).toBe('200 var gamma = 1;\n');
  });

  test('a group taken out of the table is no longer served', async () => {
    writeTable([group('alpha', ports[0]!), group('gamma', ports[2]!)]);
    await eventually(async () => {
      const refused = await entry(ports[1]!).then(
        () => false,
        () => true,
      );
      if (!refused) throw new Error('still served');
    });
    // The port refuses as soon as it is closed; the line is written once the close is done.
    await eventually(async () => {
      if (!lines.includes('remote beta: no longer in the site table, not served')) {
        throw new Error(`not said yet: ${lines.join(' | ')}`);
      }
    });
    expect(await entry(ports[0]!)).toBe('200 var alpha = 1;\n');
  });
});
