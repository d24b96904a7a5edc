/**
 * @jest-environment node
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { LOG_BUFFER_BYTES } from '../request-log';

/**
 * The servers' log destination over a real pipe: a reader that stops taking the log in never holds
 * the server up; past LOG_BUFFER_BYTES lines are dropped and counted, so the metrics say what the
 * log is missing.
 */
jest.setTimeout(60_000);

interface Outcome {
  lines: number;
  dropped: number;
  again: number;
}

/** Runs the flood with its standard output read or left unread; resolves with what it reports. */
function flood(lines: number, read: boolean): Promise<{ outcome: Outcome; received: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, 'fixtures', 'log-flood.ts')],
      { env: { ...process.env, LINES: String(lines) }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let received = 0;
    if (read) child.stdout.on('data', (chunk: Buffer) => (received += chunk.length));
    else child.stdout.pause();
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => {
      errors += String(chunk);
      const line = errors.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      const outcome = JSON.parse(line) as Outcome;
      // What was written has reached this side before the count is read.
      setTimeout(() => {
        child.kill('SIGKILL');
        resolve({ outcome, received });
      }, 200);
    });
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`the flood ended (${code ?? signal}): ${errors}`));
    });
  });
}

// About 120 bytes a line: twice the buffer's worth.
const LINES = Math.ceil((2 * LOG_BUFFER_BYTES) / 120);

test('a log nobody reads: the server goes on, and the lines past the buffer are dropped and counted', async () => {
  const { outcome } = await flood(LINES, false);
  expect(outcome.lines).toBe(LINES);
  // The buffer and the pipe hold the rest: at most a half, at least a third of the lines.
  expect(outcome.dropped).toBeGreaterThan(LINES / 3);
  expect(outcome.dropped).toBeLessThan(LINES);
  // Counted once: the next reading gives what was dropped since.
  expect(outcome.again).toBe(0);
});

test('a log that is read: nothing is dropped', async () => {
  const { outcome, received } = await flood(LINES, true);
  expect(outcome.dropped).toBe(0);
  expect(received).toBeGreaterThan(LINES * 100);
});
