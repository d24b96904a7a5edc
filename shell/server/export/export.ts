/**
 * `npm run export`: the whole site as files, for hosts that only serve files. The pages are made
 * by the site server's own composition (same renders, same head, same manifest), so an export and
 * the running site answer alike; only what changes per request is lost (a deploy needs a new
 * export).
 *
 *   npm run export                         writes export/ from the live manifest
 *   npm run export -- --out /tmp/site      somewhere else
 *   SITE_URL=https://www.example.com npm run export   canonical URLs for production
 *
 * The live manifest is read where the site keeps it, the database of DATABASE_URL: `npm run export`
 * (scripts/export.ts) passes the local run's when it is not set. Remotes on
 * localhost that are not running are served from their workspaces' builds while the export runs;
 * remotes elsewhere must be reachable.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROUTE_TABLE_PATH, type GroupRoutes } from '@site/contracts';
import { SITE_REMOTES } from '@site/contracts/site';
import { createRemoteServer, type RemoteHost } from '@site/serving';
import { createSite } from '../site';
import { parseSiteSettings } from '../settings';
import { robotsTxt, sitemapXml } from '../pages/seo-files';

const root = path.join(__dirname, '..', '..', '..');

async function reachable(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(1500) })).ok;
  } catch {
    return false;
  }
}

/** Local remotes that are not running, served from their workspaces' builds. */
async function serveLocalRemotes(
  remotes: { name: string; entry: string; version: string }[],
): Promise<RemoteHost[]> {
  const servers: RemoteHost[] = [];
  for (const remote of remotes) {
    const entry = new URL(remote.entry);
    if (!['localhost', '127.0.0.1'].includes(entry.hostname)) continue;
    if (await reachable(new URL('routes.json', entry).href)) continue;
    const folder = SITE_REMOTES.find((r) => r.name === remote.name)?.folder;
    if (!folder) continue;
    const server = await createRemoteServer(path.join(root, folder, 'dist'));
    await server.listen(Number(entry.port), '127.0.0.1');
    servers.push(server);
  }
  return servers;
}

const pageFile = (urlPath: string) =>
  urlPath === '/' ? 'index.html' : `${urlPath.slice(1)}/index.html`;

export async function exportSite(options: {
  out: string;
  shellDist: string;
  deployDir: string;
  siteUrl: string;
  databaseUrl: string;
}): Promise<{ pages: number; failed: string[] }> {
  const site = await createSite(
    parseSiteSettings({
      SHELL_DIST: options.shellDist,
      DEPLOY_DIR: options.deployDir,
      SITE_URL: options.siteUrl,
      DATABASE_URL: options.databaseUrl,
      // No form is sent from a static copy.
      MAIL_SERVICE_URL: 'http://127.0.0.1:9',
    }),
  );
  const live = await site.manifest();
  const servers = await serveLocalRemotes(live.manifest.remotes);
  const next = `${options.out}.next`;
  try {
    await fs.rm(next, { recursive: true, force: true });
    // What visitors may fetch: the shell's public folder, never its Node build.
    await fs.cp(path.join(options.shellDist, 'public'), next, { recursive: true });
    // The template the pages are composed from, and its compressed copies, are not a page.
    for (const file of ['index.html', 'index.html.br', 'index.html.gz']) {
      await fs.rm(path.join(next, file), { force: true });
    }
    const paths = await site.paths();
    const failed: string[] = [];
    for (const urlPath of [...paths, '/404']) {
      const page = await site.page(urlPath);
      if (page.status === 503) failed.push(urlPath);
      const file = path.join(next, urlPath === '/404' ? '404.html' : pageFile(urlPath));
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, page.body);
    }
    const siteUrl = options.siteUrl.replace(/\/+$/, '');
    await fs.writeFile(path.join(next, 'sitemap.xml'), sitemapXml(siteUrl, paths));
    await fs.writeFile(path.join(next, 'robots.txt'), robotsTxt(siteUrl));
    await fs.writeFile(path.join(next, 'remotes.json'), live.text);
    // Each group's whole route table, where pages fetch it as the visitor goes further in.
    await fs.mkdir(path.join(next, ROUTE_TABLE_PATH.slice(1)), { recursive: true });
    for (const remote of live.manifest.remotes) {
      const table: GroupRoutes = {
        remote: remote.name,
        version: remote.version,
        routes: remote.routes,
      };
      await fs.writeFile(
        path.join(next, ROUTE_TABLE_PATH.slice(1), remote.name),
        JSON.stringify(table),
      );
    }
    // The new export replaces the old one at once, never half-written.
    await fs.rm(options.out, { recursive: true, force: true });
    await fs.rename(next, options.out);
    return { pages: paths.length, failed };
  } finally {
    await Promise.all(servers.map((s) => s.close()));
    await site.close();
  }
}

if (require.main === module) {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const out = path.resolve(values.out ?? path.join(root, 'export'));
  const deployDir = process.env.DEPLOY_DIR ?? path.join(root, 'deploy');
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    console.error('export: DATABASE_URL is not set: npm run export passes the local run’s');
    process.exit(78);
  }
  exportSite({
    out,
    shellDist: process.env.SHELL_DIST ?? path.join(root, 'shell', 'dist'),
    deployDir,
    siteUrl: process.env.SITE_URL ?? 'http://localhost:3000',
    databaseUrl,
  }).then(
    ({ pages, failed }) => {
      console.log(
        `exported ${pages} pages and the 404 page into ${path.relative(process.cwd(), out)}`,
      );
      if (failed.length) {
        console.error(`export: these pages' groups could not be rendered: ${failed.join(', ')}`);
        process.exit(1);
      }
    },
    (error: unknown) => {
      console.error(`export: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
