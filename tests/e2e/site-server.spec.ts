import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect } from '@playwright/test';
import { servicePages, shellPages } from '../support/site';
import { ROOT, test } from '../support/deployment';

/**
 * The site server as an operator runs it: its settings checked at start, its first pages answered
 * under load, and the visitor's scheme passed on by a proxy it trusts. Ports 3155-3159.
 */
const MAIN = path.join(ROOT, 'shell', 'server', 'main.ts');

test.describe('settings are checked at start', () => {
  test('a mistyped setting stops the server with a message naming it, instead of breaking every page', () => {
    const started = spawnSync(process.execPath, ['--import', 'tsx', MAIN], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: '3155',
        RENDER_TIMEOUT_MS: '3s',
        DEPLOY_ALLOWED_ORIGINS: 'ftp://cdn.example.com',
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(started.status).toBe(78);
    expect(started.stderr).toContain('RENDER_TIMEOUT_MS: "3s"');
    expect(started.stderr).toContain('DEPLOY_ALLOWED_ORIGINS');
    expect(started.stderr).toContain('ftp://cdn.example.com');
  });
});

test.describe('start-up on a busy machine', () => {
  test('the first requests, all at once while the machine is busy, get their pages or the notice: never a 500', async ({
    deployment,
  }) => {
    test.setTimeout(120_000);
    // Two processes that keep both cores busy while the site starts and answers.
    const burners: ChildProcess[] = [0, 1].map(() =>
      spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
    );
    try {
      await deployment.writeManifest({});
      const site = await deployment.startSite(3156, { renderTimeoutMs: 3000 });
      const paths = ['/', ...shellPages.map((p) => p.path), ...servicePages.map((p) => p.path)];
      const answers = await Promise.all(
        paths.map(async (p) => {
          const response = await fetch(`${site}${p}`);
          return { path: p, status: response.status, body: await response.text() };
        }),
      );
      // A page is composed, or (when its render cannot finish in time on a machine this busy) it
      // is the notice with Retry: never a server error, never a blank answer.
      for (const { path: p, status, body } of answers) {
        expect([200, 503], p).toContain(status);
        if (status === 503) expect(body, p).toContain('temporarily unavailable');
        else expect(body, p).toMatch(/<h1\b/);
      }
      expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(paths.length / 2);
    } finally {
      for (const burner of burners) burner.kill('SIGKILL');
    }
  });
});

test.describe('behind a proxy', () => {
  test('the token cookie is Secure when a trusted proxy says the visitor came over https, and only then', async ({
    deployment,
  }) => {
    // The site of `npm start` trusts a proxy on this machine (TRUST_PROXY=loopback).
    const viaTls = await fetch('http://localhost:3000/api/csrf', {
      headers: { 'X-Forwarded-Proto': 'https' },
    });
    expect(viaTls.status).toBe(200);
    expect(viaTls.headers.get('set-cookie')).toMatch(/XSRF-TOKEN=[^;]+;.*\bSecure\b/i);

    const plain = await fetch('http://localhost:3000/api/csrf');
    expect(plain.headers.get('set-cookie')).toMatch(/XSRF-TOKEN=/);
    expect(plain.headers.get('set-cookie')).not.toMatch(/\bSecure\b/i);

    // A site that trusts no proxy does not take a client's word for it.
    await deployment.writeManifest({});
    const untrusting = await deployment.startSite(3157, { apiTarget: 'http://127.0.0.1:3005' });
    const claimed = await fetch(`${untrusting}/api/csrf`, {
      headers: { 'X-Forwarded-Proto': 'https' },
    });
    expect(claimed.status).toBe(200);
    expect(claimed.headers.get('set-cookie')).not.toMatch(/\bSecure\b/i);
  });
});
