/**
 * The shell's build, as the site server uses it: its public folder, its Node build (trusted, built
 * with this server: its paths, what it provides, its head and notice renderers) and its page
 * template. A new shell build in place is noticed within a second, without a request waiting for
 * it; whoever depends on the build (the render processes) is told.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import { loadShellTemplate, type ShellTemplate } from './compose';
import type { ShellServerBuild } from '../render/protocol';

export interface ShellBuild {
  /** What visitors may fetch. */
  publicDir: string;
  /** The Node build's folder (`render.js`, `chunks.json`). */
  serverDir: string;
  /** The site's public origin, without a trailing slash. */
  siteUrl: string;
  shell: ShellServerBuild;
  /** The template pages are composed into: the build's, noticed again when it changes. */
  template(): ShellTemplate;
  /** Called with the new template when a new build is in place. */
  onChange(listener: (template: ShellTemplate) => Promise<void> | void): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    shellBuild: ShellBuild;
  }
}

export default fp(
  async (app) => {
    const { SHELL_DIST: shellDist, SITE_URL: siteUrl } = app.config;
    const dist = path.resolve(shellDist);
    const serverDir = path.join(dist, 'server');
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the shell's Node build is CommonJS
    const shell = require(path.join(serverDir, 'render.js')) as ShellServerBuild;
    const stampFile = path.join(serverDir, 'chunks.json');
    let template = await loadShellTemplate(dist);
    let stamp = (await fs.stat(stampFile)).mtimeMs;
    let checked = Date.now();
    const listeners: ((template: ShellTemplate) => Promise<void> | void)[] = [];

    function current(): ShellTemplate {
      const now = Date.now();
      if (now - checked >= 1000) {
        checked = now;
        void fs
          .stat(stampFile)
          .then(async ({ mtimeMs }) => {
            if (mtimeMs === stamp) return;
            const next = await loadShellTemplate(dist);
            for (const listener of listeners) await listener(next);
            template = next;
            stamp = mtimeMs;
            app.log.info(`site: a new shell build is in use (${next.id})`);
          })
          .catch(() => {
            // A shell build in progress: keep the template in use.
          });
      }
      return template;
    }

    app.decorate('shellBuild', {
      publicDir: path.join(dist, 'public'),
      serverDir,
      siteUrl: siteUrl.replace(/\/+$/, ''),
      shell,
      template: current,
      onChange: (listener) => void listeners.push(listener),
    });
  },
  { name: 'shell-build' },
);
