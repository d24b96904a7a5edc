import { existsSync } from 'node:fs';
import type { LaunchOptions } from '@playwright/test';

/**
 * Which Chromium to drive: CHROME_PATH when set, else the system's Chromium (Debian's package, as
 * CI installs it), else Playwright's own download on machines that have one.
 */
export function chromiumExecutable(): string | undefined {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((c): c is string => Boolean(c && existsSync(c)));
}

export function chromiumLaunchOptions(): LaunchOptions {
  return {
    executablePath: chromiumExecutable(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  };
}
