import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Site, SiteOptions } from '../../shell/server/site';

export const ROOT = path.resolve(__dirname, '..', '..');

/** A site (shell + its own deploy folder) and remote servers started by a test, on their own ports. */
export class TestDeployment {
  readonly deployDir = mkdtempSync(path.join(os.tmpdir(), 'site-deploy-'));
  private servers: Server[] = [];
  private sites: Site[] = [];

  async startSite(
    port: number,
    options: Partial<Pick<SiteOptions, 'apiTarget' | 'renderTimeoutMs' | 'log'>> = {},
  ): Promise<string> {
    const { createSite } = await import('../../shell/server/site');
    const url = `http://localhost:${port}`;
    const site = await createSite({
      shellDist: path.join(ROOT, 'shell', 'dist'),
      deployDir: this.deployDir,
      apiTarget: 'http://127.0.0.1:3005',
      siteUrl: url,
      renderWorkers: 1,
      ...options,
    });
    this.sites.push(site);
    await this.listen(site.server, port);
    return url;
  }

  async startRemote(dist: string, port: number): Promise<Server> {
    const { createRemoteServer } = await import('../../scripts/serve-remote');
    const server = createRemoteServer(dist);
    await this.listen(server, port);
    return server;
  }

  /** Writes this deployment's manifest, as a team's deploy step would (`scripts/manifest.mjs`). */
  async writeManifest(options: {
    versions?: Record<string, string>;
    dists?: Record<string, string>;
    urls?: Record<string, string>;
  }): Promise<void> {
    const { buildManifest, writeManifest } = await import('../../scripts/manifest.mjs');
    const env: Record<string, string> = {};
    for (const [name, url] of Object.entries(options.urls ?? {}))
      env[`REMOTE_${name.toUpperCase()}_URL`] = url;
    const manifest = await buildManifest({ versions: options.versions, dists: options.dists, env });
    await writeManifest(path.join(this.deployDir, 'remotes.json'), manifest);
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
    await Promise.all(this.sites.map((site) => site.close()));
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
