/**
 * Starts the site server: `node --import tsx shell/server/main.ts`.
 *
 *   PORT               where it listens (3000)
 *   SITE_URL           the public origin for canonical links and the sitemap (http://localhost:PORT)
 *   DEPLOY_DIR         the folder of the live manifest remotes.json (deploy/)
 *   SHELL_DIST         the shell's build (shell/dist)
 *   MAIL_SERVICE_URL   where /api/* goes (http://127.0.0.1:3005)
 *   RENDER_TIMEOUT_MS  time limit of one page's render (3000)
 *   DEPLOY_TOKEN       turns the deploy API (/_deploy/*) on; teams send it as a bearer token
 *   DEPLOY_ALLOWED_ORIGINS  comma-separated origins remote entries may point at
 *   RENDER_WORKERS     render threads (one fewer than the cores, at least 1, at most 4)
 */
import path from 'node:path';
import { DEFAULTS, createSite } from './site';

const root = path.join(__dirname, '..', '..');
const port = Number(process.env.PORT ?? 3000);

createSite({
  shellDist: process.env.SHELL_DIST ?? path.join(root, 'shell', 'dist'),
  deployDir: process.env.DEPLOY_DIR ?? path.join(root, 'deploy'),
  apiTarget: process.env.MAIL_SERVICE_URL ?? 'http://127.0.0.1:3005',
  siteUrl: process.env.SITE_URL ?? `http://localhost:${port}`,
  renderTimeoutMs: Number(process.env.RENDER_TIMEOUT_MS ?? DEFAULTS.renderTimeoutMs),
  ...(process.env.DEPLOY_TOKEN
    ? {
        deploy: {
          token: process.env.DEPLOY_TOKEN,
          allowedOrigins: (process.env.DEPLOY_ALLOWED_ORIGINS ?? '')
            .split(',')
            .map((o) => o.trim())
            .filter(Boolean),
        },
      }
    : {}),
  ...(process.env.RENDER_WORKERS ? { renderWorkers: Number(process.env.RENDER_WORKERS) } : {}),
}).then(
  (site) => {
    site.server.listen(port, () => console.log(`site: http://localhost:${port}/`));
    const stop = () => void site.close().then(() => process.exit(0));
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  },
  (error: unknown) => {
    console.error(
      `site: could not start: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  },
);
