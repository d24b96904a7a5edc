/**
 * Starts the site server: `node --import tsx shell/server/main.ts`. Its settings are environment
 * variables, checked at start (`settings.ts` lists them and what each accepts; docs/configuration.md and
 * `.env.example` too): a bad one stops the server, before it starts anything, with a message naming
 * it and exit code 78 (EX_CONFIG), which tells `npm start` not to start it again as it is.
 */
import { limitConnections } from '@site/serving';
import { createSite } from './site';
import { checkSiteMachine, listenProblem } from './config/machine-checks';
import { SettingsError, parseSiteSettings } from './settings';

/** sysexits.h's EX_CONFIG: a restart cannot help, the settings must change. */
const EX_CONFIG = 78;

async function main(): Promise<void> {
  const settings = parseSiteSettings(process.env);
  await checkSiteMachine(settings);
  const site = await createSite({
    shellDist: settings.shellDist,
    deployDir: settings.deployDir,
    apiTarget: settings.mailServiceUrl,
    siteUrl: settings.siteUrl,
    renderTimeoutMs: settings.renderTimeoutMs,
    fetchTimeoutMs: settings.fetchTimeoutMs,
    renderWorkers: settings.renderWorkers,
    groupRenderWorkers: settings.groupRenderWorkers,
    render: settings.render,
    renderUser: settings.renderUser,
    routeLimits: settings.routeLimits,
    trustProxy: settings.trustProxy,
    metricsToken: settings.metricsToken,
    beaconRateLimit: settings.beaconRateLimit,
    canary: settings.canary,
    replicaName: settings.replicaName,
    logLevel: settings.logLevel,
    lastGood: settings.lastGood,
    ...(settings.databaseUrl ? { databaseUrl: settings.databaseUrl } : {}),
    ...(settings.deploy ? { deploy: settings.deploy } : {}),
  });
  limitConnections(site.app.server, settings.connections);
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
  try {
    await site.listen(settings.port, settings.host);
  } catch (error) {
    await site.close().catch(() => undefined);
    throw listenProblem(error, settings) ?? error;
  }
  console.log(`site: http://localhost:${settings.port}/`);
}

main().catch((error: unknown) => {
  if (error instanceof SettingsError) {
    console.error(`site: could not start: ${error.message}`);
    process.exit(EX_CONFIG);
  }
  console.error(
    `site: could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  process.exit(1);
});
