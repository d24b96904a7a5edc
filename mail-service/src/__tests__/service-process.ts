/**
 * The service as its own process, started the way `npm start` starts it, for the tests that kill,
 * restart or run several instances of it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { SERVICE_DIR } from '../config';
import { waitFor } from './helpers';

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  logs: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs `node --import tsx src/server.ts`, exactly as `npm start` does, with these variables added. */
export const spawnServer = (env: Record<string, string>) =>
  spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: SERVICE_DIR,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

/** Starts the service as `npm start` does, on a port of its own, and waits for it to listen. */
export async function startService(env: Record<string, string>): Promise<ServiceProcess> {
  const child = spawnServer({ MAIL_SERVICE_PORT: '0', LOG_LEVEL: 'info', ...env });
  const logs: string[] = [];
  let buffered = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    logs.push(...lines);
  });
  child.stderr?.on('data', (chunk: Buffer) => logs.push(chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const port = await waitFor(
    () => {
      if (child.exitCode !== null) throw new Error(`the service exited:\n${logs.join('\n')}`);
      for (const line of logs) {
        const m = /"port":(\d+).*listening/.exec(line);
        if (m) return Number(m[1]);
      }
      return undefined;
    },
    { timeoutMs: 20_000, what: 'the service to listen' },
  ).catch((error: unknown) => {
    // A service that never listened must not outlive the test (Jest would wait for it).
    child.kill('SIGKILL');
    throw error;
  });
  return { child, url: `http://127.0.0.1:${port}`, logs, exited };
}
