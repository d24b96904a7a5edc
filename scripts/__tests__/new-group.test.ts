import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SITE_FILE, nextSteps, planGroup } from '../new-group';

/**
 * `npm run new-group` checks its input against the site table before it writes anything. Run on a
 * table of the test's own in a temporary folder, so neither the checkout's table nor what it holds
 * today (a group made with the command the day before) changes what the test expects.
 */

const SCRIPT = path.join(__dirname, '..', 'new-group.ts');

/** Four groups on 3001-3004, as the site started. */
const TABLE = {
  shell: { port: 3000, pages: { home: '/', about: '/about', contact: '/contact' } },
  remotes: [
    {
      name: 'custom_dev',
      folder: 'mfe-custom-dev',
      port: 3001,
      prefixes: ['/services/custom-dev'],
    },
    {
      name: 'data',
      folder: 'mfe-data',
      port: 3002,
      prefixes: ['/services/business-intelligence', '/services/data-analytics'],
    },
    {
      name: 'enterprise_education',
      folder: 'mfe-enterprise-education',
      port: 3003,
      prefixes: ['/services/enterprise', '/services/education'],
    },
    {
      name: 'public_health',
      folder: 'mfe-public-health',
      port: 3004,
      prefixes: ['/public-health'],
    },
  ],
};

type Remote = (typeof TABLE.remotes)[number];

let root: string;
/** Writes the test's table, with `remotes` in place of its groups when given. */
function writeTable(remotes: Remote[] = TABLE.remotes): void {
  writeFileSync(path.join(root, SITE_FILE), `${JSON.stringify({ ...TABLE, remotes }, null, 2)}\n`);
}
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'new-group-'));
  mkdirSync(path.join(root, path.dirname(SITE_FILE)), { recursive: true });
  writeTable();
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

describe('the port a new group gets', () => {
  const group = (name: string, port: number): Remote => ({
    name,
    folder: `mfe-${name}`,
    port,
    prefixes: [`/${name}`],
  });
  const portFor = () => planGroup(root, { name: 'cyber', prefix: '/cyber' }).port;

  test('the next after the highest, past the ports the local run gives to others', () => {
    // 3005: the mail-service; 3011-3019: the cluster's site servers; 3021, 3022: its
    // mail-services; 3025: the browser tests' SMTP server; 3040: its PostgreSQL.
    writeTable([group('a', 3004)]);
    expect(portFor()).toBe(3006);
    writeTable([group('a', 3010)]);
    expect(portFor()).toBe(3020);
    writeTable([group('a', 3020)]);
    expect(portFor()).toBe(3023);
    writeTable([group('a', 3024)]);
    expect(portFor()).toBe(3026);
  });

  test('a gap below the highest is left for later; the first free one once the range is used up', () => {
    writeTable([group('a', 3001), group('b', 3003)]);
    expect(portFor()).toBe(3004);
    writeTable([group('a', 3002), group('b', 3099)]);
    expect(portFor()).toBe(3001);
  });

  test('every port of the range taken: refused', () => {
    const all: Remote[] = [];
    for (let port = 3001; port <= 3099; port++) all.push(group(`g${port}`, port));
    writeTable(all);
    expect(portFor).toThrow('every local port for a group (3001-3099) is taken');
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
    // How the team goes live, how it releases a change later, and how it gets its token: locally
    // from npm start, in production from the operator.
    for (const step of [
      'npm run deploy -w mfe-cyber-security ',
      'npm version minor -w mfe-cyber-security ',
      'npm run deploy -w mfe-cyber-security -- --preview',
      'npm run deploy -w mfe-cyber-security -- --canary 10',
      'npm run deploy -w mfe-cyber-security -- --promote',
      'npm run rollback -w mfe-cyber-security ',
      'deploy token',
      '(deploy/.group-tokens/cyber_security)',
      'npm run deploy-token -- --group cyber_security',
    ]) {
      expect(result.stdout).toContain(step);
    }
    // Each command's explanation starts in the same column, the longest command's included.
    const columns = result.stdout
      .split('\n')
      .filter((line) => /^ {2}npm /.test(line))
      .map((line) => /^ {2}npm .*?\S {2,}(?=\S)/.exec(line)?.[0].length);
    expect(columns.length).toBeGreaterThan(5);
    expect(new Set(columns)).toEqual(new Set([columns[0]]));

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

describe('what npm run new-group says next', () => {
  test('where to open the new group: on the port the local site runs on (PORT), 3000 by default', () => {
    const group = planGroup(root, { name: 'cyber', prefix: '/cyber' });
    expect(nextSteps(group, [], '4100')).toContain('open http://localhost:4100/cyber');
    expect(nextSteps(group, [], '3000')).toContain('open http://localhost:3000/cyber');
  });
});
