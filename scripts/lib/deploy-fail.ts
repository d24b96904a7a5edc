/**
 * How the deploy command stops on a refusal, shared by its steps: the reason on stderr after
 * `deploy:`, and exit status 1.
 */

export function fail(message: string): never {
  console.error(`deploy: ${message}`);
  process.exit(1);
}
