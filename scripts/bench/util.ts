import zlib from 'node:zlib';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from '@playwright/test';

const t0 = Date.now();

/** Progress on stderr, with the seconds since the start; the report goes to stdout. */
export const log = (msg: string): void => {
  process.stderr.write(`[bench ${((Date.now() - t0) / 1000).toFixed(0).padStart(4)}s] ${msg}\n`);
};

export const elapsedS = (): number => Math.round((Date.now() - t0) / 1000);

export function median(values: readonly (number | null | undefined)[]): number | null {
  const v = values
    .filter((x): x is number => typeof x === 'number' && Number.isFinite(x))
    .sort((a, b) => a - b);
  if (!v.length) return null;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
}

export const kb = (bytes: number | null | undefined): string =>
  bytes == null ? '-' : (bytes / 1024).toFixed(1);
export const fmt = (v: number | null | undefined, digits = 0): string =>
  v == null || Number.isNaN(v) ? '-' : v.toFixed(digits);
export const gzipSize = (buffer: Buffer): number => zlib.gzipSync(buffer, { level: 9 }).length;
export const errorMessage = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** Rejects after `ms` with a clear message; the work itself is left to its own clean-up. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** A desktop browser window. */
export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 720 } };

/**
 * Runs `run` on a page of a fresh browser context (empty cache, service workers blocked, `timeout`
 * ms for each action and wait) and closes the context afterwards, whatever happens.
 */
export async function withPage<T>(
  browser: Browser,
  { timeout, ...options }: BrowserContextOptions & { timeout: number },
  run: (page: Page, context: BrowserContext) => Promise<T>,
): Promise<T> {
  const context = await browser.newContext({ ...options, serviceWorkers: 'block' });
  context.setDefaultTimeout(timeout);
  try {
    return await run(await context.newPage(), context);
  } finally {
    await context.close().catch(() => {});
  }
}

// Clean-up: everything started is registered here and stopped on success, error or signal.
const cleanups: (() => unknown)[] = [];
let cleaningUp: Promise<void> | null = null;

export const onCleanup = (fn: () => unknown): void => {
  cleanups.push(fn);
};

export function cleanup(): Promise<void> {
  cleaningUp ??= (async () => {
    for (const fn of cleanups.splice(0).reverse()) {
      try {
        await withTimeout(Promise.resolve().then(fn), 10_000, 'clean-up step');
      } catch (error) {
        log(`clean-up: ${errorMessage(error)}`);
      }
    }
  })();
  return cleaningUp;
}

/** A plain text table, first column left-aligned, no line ending in blanks. */
export function table(headers: string[], rows: string[][], alignLeft = [0]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (alignLeft.includes(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      // No trailing blanks (an empty last heading): the tables are written into Markdown too.
      .trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
