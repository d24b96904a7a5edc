/** After the run: the PostgreSQL global-setup.ts started is stopped and removed. */
export default async function globalTeardown(): Promise<void> {
  await globalThis.mailTestPostgres?.stop();
}
