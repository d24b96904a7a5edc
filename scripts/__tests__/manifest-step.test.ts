import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SITE_REMOTES } from '@site/contracts/site';

/**
 * The manifest step `npm run build` runs after the workspaces' builds, run as the build runs it
 * (its command line read from the root package.json) against a deploy folder of its own
 * (DEPLOY_DIR): a live manifest the teams have deployed to, with its history, is not the build's to
 * rewrite; a checkout with none gets one.
 */

const root = path.join(__dirname, '..', '..');

/** The build's last command, `node … scripts/manifest.ts …`, as arguments to this Node. */
function manifestStep(): string[] {
  const { scripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const step = (scripts.build ?? '')
    .split('&&')
    .map((part) => part.trim())
    .find((part) => part.includes('scripts/manifest.ts'));
  if (!step) throw new Error('npm run build does not run scripts/manifest.ts');
  const [command, ...args] = step.split(/\s+/);
  expect(command).toBe('node');
  return args;
}

let dir: string;
let deployDir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'manifest-step-'));
  deployDir = path.join(dir, 'deploy');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function run(extra: string[] = []) {
  const result = spawnSync(process.execPath, [...manifestStep(), ...extra], {
    cwd: root,
    env: { ...process.env, DEPLOY_DIR: deployDir },
    encoding: 'utf8',
  });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

/** A built version 1.0.0 of every group, as the build leaves it, in a folder of the test's own. */
function builtGroups(): string[] {
  const args: string[] = [];
  for (const { name } of SITE_REMOTES) {
    const version = path.join(dir, 'dist', name, '1.0.0');
    mkdirSync(path.join(version, 'server'), { recursive: true });
    writeFileSync(
      path.join(version, 'routes.json'),
      JSON.stringify({
        remote: name,
        prefixes: [`/fixture/${name}`],
        routes: [{ path: `/fixture/${name}/page`, title: 'A page' }],
      }),
    );
    writeFileSync(path.join(version, 'server', 'pages.js'), `module.exports = '${name}';\n`);
    writeFileSync(path.join(version, 'remoteEntry.js'), `var ${name} = 1;\n`);
    writeFileSync(path.join(version, 'pages.1a2b.js'), `/* ${name}'s pages */\n`);
    writeFileSync(
      path.join(version, 'mf-manifest.json'),
      JSON.stringify({ exposes: [{ assets: { js: { sync: ['pages.1a2b.js'], async: [] } } }] }),
    );
    args.push('--dist', `${name}=${path.join(dir, 'dist', name)}`);
  }
  return args;
}

test("the build's manifest step never asks to replace the live manifest", () => {
  expect(manifestStep()).not.toContain('--replace');
});

test('a live manifest with a deployed entry, and its history, survive the build byte for byte', () => {
  mkdirSync(deployDir, { recursive: true });
  const manifest = `${JSON.stringify(
    {
      schemaVersion: 1,
      generatedAt: '2026-11-01T09:00:00.000Z',
      remotes: [
        {
          name: 'data',
          entry: 'https://cdn.example/data/1.4.0/remoteEntry.js',
          version: '1.4.0',
          prefixes: ['/services/data-analytics'],
          routes: [{ path: '/services/data-analytics/big-data', title: 'Big Data' }],
          serverIntegrity: 'sha256-deployed',
        },
      ],
    },
    null,
    2,
  )}\n`;
  const history = `${JSON.stringify({
    at: '2026-11-01T09:00:00.000Z',
    by: 'data team',
    action: 'deploy',
    remote: 'data',
    from: { version: '1.3.2', entry: 'https://cdn.example/data/1.3.2/remoteEntry.js' },
    to: { version: '1.4.0', entry: 'https://cdn.example/data/1.4.0/remoteEntry.js' },
    reason: 'new dashboards page',
    manifestVersion: 'a1b2c3d4e5f6',
  })}\n`;
  writeFileSync(path.join(deployDir, 'remotes.json'), manifest);
  writeFileSync(path.join(deployDir, 'history.jsonl'), history);

  // With every group built and ready to be written, so only the rule keeps the file.
  const { status, out } = run(builtGroups());

  expect(status).toBe(0);
  expect(readFileSync(path.join(deployDir, 'remotes.json'), 'utf8')).toBe(manifest);
  expect(readFileSync(path.join(deployDir, 'history.jsonl'), 'utf8')).toBe(history);
  const note = out.split('\n').filter((line) => line.includes('deployment manifest'));
  expect(note).toHaveLength(1);
  expect(note[0]).toMatch(/kept the live .*remotes\.json/);
  expect(note[0]).toContain('npm run deploy -w <group>');
});

test('a checkout with no live manifest gets one written from the builds', () => {
  expect(existsSync(path.join(deployDir, 'remotes.json'))).toBe(false);

  const { status, out } = run(builtGroups());

  expect(status).toBe(0);
  const written = JSON.parse(readFileSync(path.join(deployDir, 'remotes.json'), 'utf8')) as {
    remotes: {
      name: string;
      version: string;
      entry: string;
      serverIntegrity?: string;
      files?: Record<string, string>;
    }[];
  };
  expect(written.remotes.map((r) => [r.name, r.version])).toEqual(
    SITE_REMOTES.map((r) => [r.name, '1.0.0']),
  );
  for (const remote of written.remotes) {
    expect(remote.entry).toMatch(/\/1\.0\.0\/remoteEntry\.js$/);
    expect(remote.serverIntegrity).toMatch(/^sha256-/);
    // Pages load the browser's files only as built, as after a deploy through the API.
    const folder = path.join(dir, 'dist', remote.name, '1.0.0');
    const sha384 = (file: string) =>
      `sha384-${createHash('sha384')
        .update(readFileSync(path.join(folder, file)))
        .digest('base64')}`;
    expect(remote.files).toEqual({
      'remoteEntry.js': sha384('remoteEntry.js'),
      'pages.1a2b.js': sha384('pages.1a2b.js'),
    });
  }
  expect(out).toMatch(/deployment manifest: .*remotes\.json \(/);
});

test('--replace (npm start --fresh-manifest) writes over the live manifest and says so', () => {
  mkdirSync(deployDir, { recursive: true });
  writeFileSync(path.join(deployDir, 'remotes.json'), '{"schemaVersion":1,"remotes":[]}\n');

  const { status, out } = run([...builtGroups(), '--replace']);

  expect(status).toBe(0);
  const written = JSON.parse(readFileSync(path.join(deployDir, 'remotes.json'), 'utf8')) as {
    remotes: unknown[];
  };
  expect(written.remotes).toHaveLength(SITE_REMOTES.length);
  expect(out).toMatch(/replaced the live .*remotes\.json/);
});

test('a command line it cannot act on is refused with exit 2 and a reason, and nothing is written', () => {
  mkdirSync(deployDir, { recursive: true });
  const live = '{"schemaVersion":1,"remotes":[]}\n';
  writeFileSync(path.join(deployDir, 'remotes.json'), live);
  const group = SITE_REMOTES[0]!.name;
  for (const [args, reason] of [
    [['--replace', '--version', group], `--version takes <group>=<value>, not "${group}"`],
    [['--replace', '--version', 'no_such_group=1.0.0'], 'no group is called "no_such_group"'],
    [['--replace', '--dist', `${group}=`], `--dist takes <group>=<value>, not "${group}="`],
    [['--replace', '--versions', `${group}=1.0.0`], "Unknown option '--versions'"],
    [['--replace', 'everything'], "Unexpected argument 'everything'"],
  ] as const) {
    const { status, out } = run([...builtGroups(), ...args]);
    expect(status).toBe(2);
    expect(out).toContain(`manifest: `);
    expect(out).toContain(reason);
    expect(readFileSync(path.join(deployDir, 'remotes.json'), 'utf8')).toBe(live);
  }
});
