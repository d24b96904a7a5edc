import { spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * `npm run deploy-token` checks its command line before it calls the site: what does not parse
 * ends with exit code 2 and a sentence naming the problem. (Its calls of the site are driven by the
 * browser tests' deploy-credential spec, against a real site server.)
 */
const SCRIPT = path.join(__dirname, '..', 'deploy-token.ts');

const run = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', SCRIPT, ...args], {
    encoding: 'utf8',
    // Nowhere to call: a command that got past its checks would fail differently (exit 1).
    env: { ...process.env, DEPLOY_API: 'http://127.0.0.1:9', DEPLOY_TOKEN: 'x'.repeat(20) },
  });

describe('npm run deploy-token', () => {
  test('--help prints the usage and exits 0', () => {
    const help = run('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('npm run deploy-token -- --group <name>');
    expect(help.stdout).toContain('--revoke <id>');
  });

  test.each([
    [[], 'say one of --group <name>, --list, --rotate <id> or --revoke <id>'],
    [
      ['--list', '--group', 'data'],
      'say one of --group <name>, --list, --rotate <id> or --revoke <id>',
    ],
    [
      ['--group', 'Data Team'],
      '--group takes a group\'s federation name such as data or public_health, not "Data Team"',
    ],
    [['--rotate', 'abc'], '--rotate takes a token\'s id (12 hex digits, see --list), not "abc"'],
    [
      ['--revoke', '../tokens'],
      '--revoke takes a token\'s id (12 hex digits, see --list), not "../tokens"',
    ],
    [['--groups', 'data'], 'unknown option --groups'],
    [['--rotate'], '--rotate needs a value'],
    [['data'], 'unexpected argument data'],
  ])('%j is refused with exit code 2, naming the problem', (args, message) => {
    const refused = run(...args);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(`deploy-token: ${message}`);
    expect(refused.stdout).toBe('');
  });

  test('a workspace folder names its group; a site that cannot be reached exits 1 with the reason', () => {
    const unreachable = run('--group', 'mfe-public-health');
    expect(unreachable.status).toBe(1);
    expect(unreachable.stderr).toContain(
      "deploy-token: the site's deploy API at http://127.0.0.1:9 could not be reached",
    );
    expect(unreachable.stdout).toBe('');
  });
});
