/**
 * What the local run (`npm start`) does with the control plane before any site server starts,
 * run as a command of its own (`node --import tsx shell/server/control-plane/local-start.ts
 * [--fresh-manifest]`, with DATABASE_URL and DEPLOY_DIR as the site server takes them): brings the
 * database's schema up to date, fills an empty one from the deploy folder (its `remotes.json`, and
 * whatever an earlier run kept in files: move-in.ts), and with `--fresh-manifest` makes the manifest
 * just written from the local builds live, with a history entry per group that it changes. It
 * prints the live manifest's version, and names the groups whose server code the site will not run.
 */
import { promises as fs } from 'node:fs';
import { parseArgs } from 'node:util';
import path from 'node:path';
import type { Logger } from '../http/logger';
import { parseSiteSettings } from '../settings';
import { liveVersion } from '../deploy/history';
import { live, manifestText, type HistoryDraft, type LiveManifest } from './index';
import { PostgresControlPlane } from './postgres';

async function prepareLocalControlPlane({
  url,
  deployDir,
  freshManifest,
  log,
}: {
  url: string;
  deployDir: string;
  /** Make `<deployDir>/remotes.json` (just written from the local builds) the live manifest. */
  freshManifest: boolean;
  log: Logger;
}): Promise<LiveManifest> {
  const plane = new PostgresControlPlane({ url, deployDir, log });
  try {
    const before = await plane.start();
    if (!freshManifest) return before;
    const file = path.join(deployDir, 'remotes.json');
    // As a publish writes it, so that the same manifest is recognised as the live one.
    const next = live(
      manifestText(JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>),
    );
    if (next.version === before.version) return before;
    const at = new Date().toISOString();
    const was = new Map(before.manifest.remotes.map((r) => [r.name, liveVersion(r)]));
    const entries = next.manifest.remotes.flatMap((remote): HistoryDraft[] => {
      const from = was.get(remote.name) ?? null;
      const to = liveVersion(remote);
      if (from && from.version === to.version && from.entry === to.entry) return [];
      return [
        {
          at,
          by: 'npm start',
          credential: 'site',
          action: 'seed',
          remote: remote.name,
          from,
          to,
          reason: `the manifest written from the local builds (${path.basename(file)}) by npm start --fresh-manifest`,
        },
      ];
    });
    const published = await plane.publish(
      next.json as Record<string, unknown>,
      before.version,
      entries,
    );
    log.info(`site: manifest ${published.version}, written from the local builds, is live`);
    return published;
  } finally {
    await plane.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { 'fresh-manifest': { type: 'boolean' } } });
  const config = parseSiteSettings(process.env);
  const fresh = values['fresh-manifest'] ?? false;
  const live = await prepareLocalControlPlane({
    url: config.DATABASE_URL,
    deployDir: config.DEPLOY_DIR,
    freshManifest: fresh,
    log: { info: console.log, warn: console.warn, error: console.error },
  });
  console.log(
    `deployment manifest: ${live.version}, ${fresh ? 'written from the local builds' : 'as last deployed'}`,
  );
  const unpinned = live.manifest.remotes.filter((r) => !r.serverIntegrity).map((r) => r.name);
  if (unpinned.length) {
    console.warn(
      `deployment manifest: ${unpinned.join(', ')} not pinned by SHA-256, so the site will not run their pages' server code (their pages answer 503): deploy them again, or start with --fresh-manifest to write the manifest from the local builds`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(
    `the control plane could not be prepared: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
