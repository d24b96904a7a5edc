import { existsSync } from 'node:fs';
import type { LaunchOptions } from '@playwright/test';

/**
 * The one place that says which Chromium drives the site and how, for the browser tests, the
 * benchmark and Lighthouse alike.
 */

/** Flags for a headless Chromium on a machine without a sandbox, GPU or outside network. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/**
 * Which Chromium to drive: CHROME_PATH when set, else the system's Chromium (Debian's package, as
 * CI installs it), else undefined, which lets Playwright use its own download where there is one.
 */
export function chromiumExecutable(): string | undefined {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((c): c is string => Boolean(c && existsSync(c)));
}

/** Launch options for Playwright's `chromium.launch` and the test runner's `launchOptions`. */
export function chromiumLaunchOptions(): LaunchOptions {
  return { executablePath: chromiumExecutable(), args: [...CHROMIUM_FLAGS] };
}
