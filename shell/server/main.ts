/**
 * Starts the site server: `node --import tsx shell/server/main.ts`. Its settings are environment
 * variables, checked at start (`settings.ts` lists them and what each accepts; docs/configuration.md and
 * `.env.example` too): a bad one stops the server, before it starts anything, with a message naming
 * it and exit code 78 (EX_CONFIG), which tells `npm start` not to start it again as it is.
 */
import { limitConnections } from '@site/serving';
import { createSite } from './site';
import { checkSiteMachine, listenProblem } from './config/machine-checks';
import { SettingsError, connectionLimits, parseSiteSettings } from './settings';

/** sysexits.h's EX_CONFIG: a restart cannot help, the settings must change. */
const EX_CONFIG = 78;

async function main(): Promise<void> {
  const config = parseSiteSettings(process.env);
  await checkSiteMachine(config);
  const site = await createSite(config);
  limitConnections(site.app.server, connectionLimits(config));
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
    await site.listen(config.PORT, config.HOST);
  } catch (error) {
    await site.close().catch(() => undefined);
    throw listenProblem(error, config) ?? error;
  }
  console.log(`site: http://localhost:${config.PORT}/`);
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
