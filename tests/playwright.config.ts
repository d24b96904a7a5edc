import os from 'node:os';
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from '../scripts/lib/browser';

/**
 * Browser tests against the real production build: every deployable runs as its own process
 * (started by global-setup.ts), Chromium drives the site at http://localhost:3000.
 */
export default defineConfig({
  testDir: './e2e',
  globalSetup: './support/global-setup.ts',
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // One worker more than the machine has cores (at most four): many tests wait on processes they
  // start and stop (a replica hung for 20 s, PostgreSQL stopped for 10 s, a canary's window), and
  // a third worker keeps a two-core machine busy meanwhile (12.9 min with two workers, 11.1 with
  // three, same machine, every test passing).
  workers: Math.min(4, os.availableParallelism() + 1),
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['./support/summary-reporter.ts']],
  // The list reporter ends by naming the spec files that took longest: where the suite's time goes.
  reportSlowTests: { max: 12, threshold: 30_000 },
  use: {
    baseURL: 'http://localhost:3000',
    launchOptions: chromiumLaunchOptions(),
    // No trace by default: recording one for every test (to keep it only when the test fails) made
    // the suite a fifth slower. A failing test keeps a screenshot of its page; to see its steps,
    // run it again with `npx playwright test <file> --trace on`.
    trace: 'off',
    screenshot: 'only-on-failure',
  },
});
