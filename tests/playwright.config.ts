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
  workers: 2,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['./support/summary-reporter.ts']],
  // The list reporter ends by naming the spec files that took longest: where the suite's time goes.
  reportSlowTests: { max: 12, threshold: 30_000 },
  use: {
    baseURL: 'http://localhost:3000',
    launchOptions: chromiumLaunchOptions(),
    trace: 'retain-on-failure',
  },
});
