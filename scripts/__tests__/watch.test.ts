import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';
import { watchParts } from '../lib/watch';

/**
 * The cluster run's watch, against a real process that is really stopped (SIGSTOP) and resumed
 * (SIGCONT): a part that hangs says nothing to the supervisor, so the watch must say it. The part
 * answers as a site server's `/_ready` does; SIGUSR2 makes it say its database is out of reach.
 */
const PART = `
let away = false;
process.on('SIGUSR2', () => { away = !away; });
const server = require('node:http').createServer((_req, res) => {
  res.writeHead(away ? 503 : 200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ problems: away ? ['the control-plane database is unreachable: deploys are refused'] : [] }));
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

let part: ChildProcess;
let url: string;

beforeAll(async () => {
  part = spawn(process.execPath, ['-e', PART], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) =>
    readline.createInterface({ input: part.stdout! }).once('line', resolve),
  );
  url = `http://127.0.0.1:${port}/_ready`;
});

afterAll(() => {
  part.kill('SIGCONT');
  part.kill('SIGKILL');
});

/** Resolves with the first line logged that matches, or fails after `ms`. */
function logged(lines: string[], pattern: RegExp, ms = 10_000): Promise<string> {
  const deadline = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const look = () => {
      const found = lines.find((l) => pattern.test(l));
      if (found) resolve(found);
      else if (Date.now() > deadline)
        reject(new Error(`not logged: ${pattern}\n${lines.join('\n')}`));
      else setTimeout(look, 50);
    };
    look();
  });
}

test('a part stopped (SIGSTOP) is told within seconds, and again when it answers; a lost database likewise', async () => {
  const lines: string[] = [];
  const watch = watchParts([{ name: 'site-2', url }], {
    intervalMs: 300,
    timeoutMs: 500,
    log: (line) => lines.push(line),
  });
  try {
    part.kill('SIGSTOP');
    const stoppedAt = Date.now();
    expect(await logged(lines, /site-2 has not answered/)).toBe(
      '[watch] site-2 has not answered within 1 s: hung or stopped (the balancer sends its requests to the others)',
    );
    expect(Date.now() - stoppedAt).toBeLessThan(5000);
    part.kill('SIGCONT');
    expect(await logged(lines, /site-2 answers again/)).toMatch(
      /^\[watch\] site-2 answers again, after \d+ s without an answer$/,
    );
    expect(lines.filter((l) => /has not answered/.test(l))).toHaveLength(1);

    part.kill('SIGUSR2');
    expect(await logged(lines, /cannot reach/)).toBe(
      "[watch] site-2 cannot reach the control plane's database: it serves its last manifest, deploys are refused until the database is back",
    );
    part.kill('SIGUSR2');
    expect(await logged(lines, /database again/)).toBe(
      "[watch] site-2 reaches the control plane's database again",
    );
  } finally {
    watch.stop();
  }
});
