/**
 * The commands a team and the site's operator run against a deployment: a deploy token for some
 * groups, and a team's deploy or rollback from its workspace.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './deployment';

/**
 * A deploy token that can change only `groups`, as the site's operator makes it: `npm run
 * deploy-token -- --group <name>` against `site` with the operator's token. Returns the token it
 * printed.
 */
export function groupToken(site: string, operatorToken: string, ...groups: string[]): string {
  const run = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(ROOT, 'scripts', 'deploy-token.ts'),
      ...groups.flatMap((group) => ['--group', group]),
    ],
    {
      cwd: ROOT,
      env: { ...process.env, DEPLOY_API: site, DEPLOY_TOKEN: operatorToken },
      encoding: 'utf8',
    },
  );
  if (run.status !== 0) throw new Error(`npm run deploy-token failed: ${run.stderr}`);
  return run.stdout.trim();
}

/**
 * Runs a team's command in its workspace as `npm run deploy|rollback -w <group>` would
 * (`scripts/deploy.ts` with `args`), with `env` added to the environment. Returns its exit status
 * and what it printed.
 */
export function teamCommand(
  workspace: string,
  env: Record<string, string>,
  ...args: string[]
): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'scripts', 'deploy.ts'), ...args],
    { cwd: workspace, env: { ...process.env, ...env }, encoding: 'utf8' },
  );
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}
