/** After the run: the PostgreSQL global-setup.ts started is stopped and its folder removed. */
export default async function globalTeardown(): Promise<void> {
  await globalThis.shellTestPostgres?.stop();
}
