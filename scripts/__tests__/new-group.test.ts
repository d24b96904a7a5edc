import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SITE_FILE, planGroup } from '../new-group';

/**
 * `npm run new-group` checks its input against the site table before it writes anything. Run on a
 * temporary copy of the table, so the checkout's own is never touched.
 */

const ROOT = path.join(__dirname, '..', '..');
const SCRIPT = path.join(__dirname, '..', 'new-group.ts');

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'new-group-'));
  mkdirSync(path.join(root, path.dirname(SITE_FILE)), { recursive: true });
  cpSync(path.join(ROOT, SITE_FILE), path.join(root, SITE_FILE));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const run = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', SCRIPT, '--root', root, ...args], {
    encoding: 'utf8',
  });

const listing = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();

describe('npm run new-group refuses', () => {
  test.each([
    [{ prefix: '/x' }, '--name is required'],
    [{ name: 'Cyber', prefix: '/x' }, '--name "Cyber" is not lower-case words joined by hyphens'],
    [{ name: 'cyber_security', prefix: '/x' }, 'is not lower-case words'],
    [{ name: 'cyber--security', prefix: '/x' }, 'is not lower-case words'],
    [{ name: '-cyber', prefix: '/x' }, 'is not lower-case words'],
    [{ name: '1cyber', prefix: '/x' }, 'is not lower-case words'],
    [{ name: '../cyber', prefix: '/x' }, 'is not lower-case words'],
    [{ name: 'cyber' }, '--prefix is required'],
    [{ name: 'cyber', prefix: 'cyber' }, 'is not a clean absolute path'],
    [{ name: 'cyber', prefix: '/cyber/' }, 'is not a clean absolute path'],
    [{ name: 'cyber', prefix: '/services//cyber' }, 'is not a clean absolute path'],
    [{ name: 'cyber', prefix: '/services/../cyber' }, 'is not a clean absolute path'],
    [{ name: 'cyber', prefix: '/Cyber' }, 'is not a clean absolute path'],
    [{ name: 'cyber', prefix: '/' }, 'is not a clean absolute path'],
    [{ name: 'cyber', prefix: '/_deploy' }, 'is not a clean absolute path'],
  ])('%j: %s', (args, message) => {
    expect(() => planGroup(root, args)).toThrow(message);
  });

  test('a name that is already a group, by folder or by federation name', () => {
    expect(() => planGroup(root, { name: 'data', prefix: '/x' })).toThrow(
      'data is already a page group (mfe-data)',
    );
    expect(() => planGroup(root, { name: 'custom-dev', prefix: '/x' })).toThrow(
      'custom-dev is already a page group (mfe-custom-dev)',
    );
  });

  test('a name whose folder exists though the table does not list it', () => {
    mkdirSync(path.join(root, 'mfe-cyber'));
    expect(() => planGroup(root, { name: 'cyber', prefix: '/cyber' })).toThrow(
      'the folder mfe-cyber already exists',
    );
  });

  test.each([
    ['/public-health', '/public-health, which the page group public_health serves'],
    ['/public-health/cyber', '/public-health, which the page group public_health serves'],
    ['/services', '/services/custom-dev, which the page group custom_dev serves'],
    ['/about', '/about, which the shell serves'],
    ['/contact/cyber', '/contact, which the shell serves'],
    ['/api/cyber', '/api, which the shell serves'],
  ])('a prefix that overlaps another: %s', (prefix, message) => {
    expect(() => planGroup(root, { name: 'cyber', prefix })).toThrow(`overlaps ${message}`);
  });

  test('from the command line: exit code 2, the reason, and nothing written', () => {
    const before = readFileSync(path.join(root, SITE_FILE), 'utf8');
    const files = listing(root);
    for (const args of [
      ['--name', 'public-health', '--prefix', '/ph'],
      ['--name', 'cyber', '--prefix', '/services/data-analytics/cyber'],
      ['--name', 'Cyber', '--prefix', '/cyber'],
      ['--name', 'cyber'],
      ['--name', 'cyber', '--prefix', '/cyber', '--force'],
    ]) {
      const result = run(...args);
      expect({ args, status: result.status }).toEqual({ args, status: 2 });
      expect(result.stderr).toMatch(/^new-group: .+; nothing was written\n$/);
      expect(result.stdout).toBe('');
    }
    expect(readFileSync(path.join(root, SITE_FILE), 'utf8')).toBe(before);
    expect(listing(root)).toEqual(files);
  });
});

describe('npm run new-group writes', () => {
  test('the workspace and its row in the site table, on the next free port', () => {
    const plan = planGroup(root, { name: 'cyber-security', prefix: '/services/cyber-security' });
    // 3005 is the mail-service's.
    expect(plan).toEqual({
      name: 'cyber-security',
      federationName: 'cyber_security',
      folder: 'mfe-cyber-security',
      prefix: '/services/cyber-security',
      port: 3006,
      label: 'Cyber Security',
    });
    const result = run('--name', 'cyber-security', '--prefix', '/services/cyber-security');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('npm run deploy -w mfe-cyber-security');
    // How the new team gets its token: locally from npm start, in production from the operator.
    expect(result.stdout).toContain('deploy token (deploy/.group-tokens/cyber_security)');
    expect(result.stdout).toContain('npm run deploy-token -- --group cyber_security');

    const site = JSON.parse(readFileSync(path.join(root, SITE_FILE), 'utf8')) as {
      remotes: unknown[];
    };
    expect(site.remotes.at(-1)).toEqual({
      name: 'cyber_security',
      folder: 'mfe-cyber-security',
      port: 3006,
      prefixes: ['/services/cyber-security'],
    });
    const folder = path.join(root, 'mfe-cyber-security');
    expect(listing(folder).filter((f) => /\.\w+$/.test(f))).toEqual(
      [
        'jest.config.cjs',
        'package.json',
        'src/__tests__/contract.test.ts',
        'src/__tests__/pages.test.tsx',
        'src/art/cyber-security.tsx',
        'src/content/cyber-security.ts',
        'src/dev/bootstrap.tsx',
        'src/dev/index.ts',
        'src/pages/index.ts',
        'src/routes.json',
        'src/routes.ts',
        'tsconfig.json',
        'webpack.config.js',
      ].sort(),
    );
    const routes = readFileSync(path.join(folder, 'src', 'routes.json'), 'utf8');
    expect(JSON.parse(routes)).toMatchObject({
      remote: 'cyber_security',
      prefixes: ['/services/cyber-security'],
      routes: [{ path: '/services/cyber-security', title: 'Cyber Security' }],
    });
    // The overview page shows a picture of its own, drawn from the group's name.
    const content = readFileSync(path.join(folder, 'src', 'content', 'cyber-security.ts'), 'utf8');
    expect(content).toContain("import { CyberSecurityArt } from '../art/cyber-security';");
    expect(content).toContain('art: CyberSecurityArt,');
    const art = readFileSync(path.join(folder, 'src', 'art', 'cyber-security.tsx'), 'utf8');
    expect(art).toContain('export function CyberSecurityArt()');
    expect(art).not.toMatch(/\{\{\w+\}\}/);
    expect(readdirSync(root).filter((f) => f.startsWith('.'))).toEqual([]);
    expect(existsSync(path.join(root, `${SITE_FILE}.new`))).toBe(false);

    // The same group again is refused.
    expect(run('--name', 'cyber-security', '--prefix', '/cyber').status).toBe(2);

    // Another group gets another picture.
    expect(run('--name', 'garden-care', '--prefix', '/gardens').status).toBe(0);
    const other = readFileSync(
      path.join(root, 'mfe-garden-care', 'src', 'art', 'gardens.tsx'),
      'utf8',
    );
    const figures = (text: string) => text.slice(text.indexOf('<Art>'));
    expect(figures(other).replace('GardenCare', 'CyberSecurity')).not.toBe(figures(art));
  });

  test('a prefix under the services page, where the groups live', () => {
    expect(planGroup(root, { name: 'cyber', prefix: '/services/cyber' }).prefix).toBe(
      '/services/cyber',
    );
  });
});
