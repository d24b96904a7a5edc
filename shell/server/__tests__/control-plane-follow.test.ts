/**
 * @jest-environment node
 *
 * The publisher a development site keeps running (`local-start.ts --follow`, started by
 * `npm run dev -w <group>`): one JSON answer line per line it reads, whatever the line holds, and
 * a publish that still works after it. Each line ends at a line feed alone: U+2028 and U+2029
 * inside a line do not make it two commands.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { deployDirWith, manifestJson } from './control-plane-helpers';
import { freshDatabase } from './test-postgres';

jest.setTimeout(60_000);

const LOCAL_START = path.join(__dirname, '..', 'control-plane', 'local-start.ts');

/** The publisher on a new database and deploy folder; `ask` sends a line and reads its answer. */
async function startPublisher() {
  const deployDir = deployDirWith(manifestJson('1.0.0'));
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    ['--import', 'tsx', LOCAL_START, '--fresh-manifest', '--follow'],
    {
      env: { ...process.env, DATABASE_URL: await freshDatabase(), DEPLOY_DIR: deployDir },
      stdio: 'pipe',
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += String(chunk)));
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const ask = async (line: string): Promise<Record<string, string>> => {
    child.stdin.write(`${line}\n`);
    const answer = await lines.next();
    if (answer.done) throw new Error(`the publisher ended: ${stderr}`);
    return JSON.parse(answer.value) as Record<string, string>;
  };
  const stop = () =>
    new Promise<number | null>((resolve) => {
      child.once('exit', (code) => resolve(code));
      child.stdin.end();
    });
  return { deployDir, ask, stop, child };
}

describe('the development site publisher (local-start.ts --follow)', () => {
  test('answers a line that is not "publish" with an error, and publishes after it', async () => {
    const publisher = await startPublisher();
    try {
      const first = await publisher.ask('publish');
      expect(first.version).toMatch(/\S/);

      const hostile = [
        'deploy everything',
        `publish${'\u0000'}`,
        // One line to the publisher, whatever Node's readline makes of these two.
        '\u2028publish\u2029',
        'publish\u2028publish',
        '\u202epublish',
        '  publish  ',
        'x'.repeat(1024 * 1024),
      ];
      for (const line of hostile) {
        const answer = await publisher.ask(line);
        expect(answer.error).toMatch(/^unknown command .*: expected publish$/s);
        // The echo is bounded: a megabyte line is named by its first 80 characters.
        expect(answer.error!.length).toBeLessThan(200);
        expect(answer.version).toBeUndefined();
      }

      // A new manifest in the folder goes live on the next "publish", the same one again does not.
      writeFileSync(
        path.join(publisher.deployDir, 'remotes.json'),
        JSON.stringify(manifestJson('1.0.1')),
      );
      const next = await publisher.ask('publish');
      expect(next.version).toMatch(/\S/);
      expect(next.version).not.toBe(first.version);
      expect((await publisher.ask('publish')).version).toBe(next.version);
    } finally {
      expect(await publisher.stop()).toBe(0);
    }
  });

  test('a manifest that does not parse is refused with its reason and the live one stays', async () => {
    const publisher = await startPublisher();
    try {
      const first = await publisher.ask('publish');
      writeFileSync(path.join(publisher.deployDir, 'remotes.json'), '{"remotes": [');
      const refused = await publisher.ask('publish');
      expect(refused.error).toMatch(/JSON/);
      writeFileSync(
        path.join(publisher.deployDir, 'remotes.json'),
        JSON.stringify(manifestJson('1.0.0')),
      );
      expect((await publisher.ask('publish')).version).toBe(first.version);
    } finally {
      expect(await publisher.stop()).toBe(0);
    }
  });
});
