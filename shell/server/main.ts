/**
 * Starts the site server: `node --import tsx shell/server/main.ts`. Its settings are environment
 * variables, checked at start (`settings.ts` lists them and what each accepts; README and
 * `.env.example` too): a bad one stops the server with a message naming it.
 */
import { createSite } from './site';
import { SettingsError, parseSiteSettings } from './settings';

async function main(): Promise<void> {
  const settings = parseSiteSettings(process.env);
  const site = await createSite({
    shellDist: settings.shellDist,
    deployDir: settings.deployDir,
    apiTarget: settings.mailServiceUrl,
    siteUrl: settings.siteUrl,
    renderTimeoutMs: settings.renderTimeoutMs,
    fetchTimeoutMs: settings.fetchTimeoutMs,
    renderWorkers: settings.renderWorkers,
    trustProxy: settings.trustProxy,
    metricsToken: settings.metricsToken,
    beaconRateLimit: settings.beaconRateLimit,
    canary: settings.canary,
    ...(settings.databaseUrl ? { databaseUrl: settings.databaseUrl } : {}),
    ...(settings.deploy ? { deploy: settings.deploy } : {}),
  });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // Requests in flight finish; whatever still holds on after 10 s (a database that does not
    // answer) does not keep the process from stopping.
    setTimeout(() => process.exit(0), 10_000).unref();
    void site.close().then(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  await site.listen(settings.port, settings.host);
  console.log(`site: http://localhost:${settings.port}/`);
}

main().catch((error: unknown) => {
  console.error(
    error instanceof SettingsError
      ? `site: could not start: ${error.message}`
      : `site: could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  process.exit(1);
});
