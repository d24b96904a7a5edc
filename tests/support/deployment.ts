import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');

/** A site (shell + its own deploy folder) and remote servers started by a test, on their own ports. */
export class TestDeployment {
  readonly deployDir = mkdtempSync(path.join(os.tmpdir(), 'site-deploy-'));
  private servers: Server[] = [];
  private children: ChildProcess[] = [];
  /** What the servers started by this deployment have logged. */
  siteLog = '';

  /**
   * Starts a site server (the built shell, this deployment's manifest) as its own process, the way
   * it runs when deployed. Its log is kept in `siteLog`.
   */
  async startSite(
    port: number,
    options: {
      apiTarget?: string;
      renderTimeoutMs?: number;
      deploy?: { token: string; allowedOrigins: string[] };
    } = {},
  ): Promise<string> {
    const url = `http://localhost:${port}`;
    await this.run(
      [path.join(ROOT, 'shell', 'server', 'main.ts')],
      {
        PORT: String(port),
        SITE_URL: url,
        DEPLOY_DIR: this.deployDir,
        MAIL_SERVICE_URL: options.apiTarget ?? 'http://127.0.0.1:3005',
        RENDER_TIMEOUT_MS: String(options.renderTimeoutMs ?? 3000),
        RENDER_WORKERS: '1',
        ...(options.deploy
          ? {
              DEPLOY_TOKEN: options.deploy.token,
              DEPLOY_ALLOWED_ORIGINS: options.deploy.allowedOrigins.join(','),
            }
          : {}),
      },
      `${url}/favicon.svg`,
    );
    return url;
  }

  /** Runs a TypeScript entry point as its own process until `readyUrl` answers. */
  private async run(args: string[], env: Record<string, string>, readyUrl: string): Promise<void> {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk) => (this.siteLog += String(chunk)));
    child.stderr.on('data', (chunk) => (this.siteLog += String(chunk)));
    this.children.push(child);
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${args[0]} stopped: ${this.siteLog}`);
      try {
        await fetch(readyUrl);
        return;
      } catch {
        if (Date.now() > deadline) throw new Error(`${args[0]} did not start: ${this.siteLog}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  /** Serves a remote's build folder on a port, as its own process (its static host). */
  async startRemote(dist: string, port: number): Promise<void> {
    await this.run(
      [path.join(ROOT, 'scripts', 'serve-remote.ts'), dist, String(port)],
      {},
      `http://localhost:${port}/`,
    );
  }

  /** Writes this deployment's manifest from the remotes' builds (`scripts/manifest.ts`). */
  async writeManifest(options: {
    versions?: Record<string, string>;
    dists?: Record<string, string>;
    urls?: Record<string, string>;
  }): Promise<void> {
    const env: Record<string, string> = {};
    for (const [name, url] of Object.entries(options.urls ?? {}))
      env[`REMOTE_${name.toUpperCase()}_URL`] = url;
    const args = ['--out', path.join(this.deployDir, 'remotes.json')];
    for (const [name, v] of Object.entries(options.versions ?? {}))
      args.push('--version', `${name}=${v}`);
    for (const [name, d] of Object.entries(options.dists ?? {}))
      args.push('--dist', `${name}=${d}`);
    execFileSync(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'scripts', 'manifest.ts'), ...args],
      {
        cwd: ROOT,
        env: { ...process.env, ...env },
        stdio: 'pipe',
      },
    );
  }

  listen(server: Server, port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        this.servers.push(server);
        resolve();
      });
    });
  }

  async stop(server: Server): Promise<void> {
    this.servers = this.servers.filter((s) => s !== server);
    server.closeAllConnections?.();
    await new Promise((resolve) => server.close(resolve));
  }

  async close(): Promise<void> {
    await Promise.all([...this.servers].map((s) => this.stop(s)));
    await Promise.all(
      this.children.map((child) =>
        child.exitCode === null
          ? new Promise((resolve) => {
              child.once('exit', resolve);
              child.kill('SIGTERM');
            })
          : null,
      ),
    );
    rmSync(this.deployDir, { recursive: true, force: true });
  }
}

/** A fingerprint of every file in a folder, to show that a build's output did not change. */
export function fingerprint(dir: string): string {
  const hash = createHash('sha256');
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const file = path.join(d, name);
      if (statSync(file).isDirectory()) walk(file);
      else hash.update(name).update(readFileSync(file));
    }
  };
  walk(dir);
  return hash.digest('hex');
}

/** A copy of a remote's workspace, to change and build as its team would. */
export function copyWorkspace(folder: string, target: string): void {
  rmSync(target, { recursive: true, force: true });
  cpSync(path.join(ROOT, folder), target, {
    recursive: true,
    filter: (src) => !/[/\\](node_modules|dist)([/\\]|$)/.test(src),
  });
}
