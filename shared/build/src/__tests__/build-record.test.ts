/**
 * @jest-environment node
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import webpack, { type Configuration } from 'webpack';
import {
  RECORD_FILE,
  buildRecordPlugin,
  differingFiles,
  folderDigests,
  parseRecord,
  readRecord,
  sourcesDigest,
} from '../../webpack/build-record.cjs';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'build-record-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const write = (file: string, content: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
};
const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/**
 * A repository laid out as this one is: a lockfile, the TypeScript settings, the packages under
 * `shared/` (linked into node_modules as npm links a workspace) and a team's workspace `team/`,
 * with files a build reads and files it does not.
 */
function repository(root: string): string {
  write(path.join(root, 'tsconfig.json'), json({ compilerOptions: { target: 'ES2022' } }));
  write(path.join(root, 'tsconfig.build.json'), json({ extends: './tsconfig.json' }));
  const teamDeps = { '@site/ui': '1.0.0', '@site/contracts': '1.0.0' };
  write(
    path.join(root, 'package-lock.json'),
    json({
      lockfileVersion: 3,
      packages: {
        '': { name: 'site', workspaces: ['shared/ui', 'shared/contracts', 'shared/build', 'team'] },
        'node_modules/@site/ui': { resolved: 'shared/ui', link: true },
        'node_modules/@site/contracts': { resolved: 'shared/contracts', link: true },
        'node_modules/@site/build': { resolved: 'shared/build', link: true },
        'shared/ui': {
          name: '@site/ui',
          version: '1.0.0',
          dependencies: { '@site/contracts': '1.0.0' },
          peerDependencies: { react: '^19.0.0' },
        },
        'shared/contracts': {
          name: '@site/contracts',
          version: '1.0.0',
          dependencies: { zod: '^4.0.0' },
        },
        'shared/build': { name: '@site/build', version: '1.0.0' },
        team: {
          name: 'team',
          version: '1.1.0',
          dependencies: teamDeps,
          devDependencies: { '@site/build': '1.0.0' },
        },
        'node_modules/react': { version: '19.3.1', dependencies: { scheduler: '^0.28.0' } },
        'node_modules/scheduler': { version: '0.28.0' },
        'node_modules/zod': { version: '4.6.7' },
        'node_modules/webpack': { version: '5.110.3', dependencies: { terser: '^5.0.0' } },
        'node_modules/terser': { version: '5.51.2' },
        'node_modules/eslint': { version: '10.15.0' },
      },
    }),
  );
  const pkg = (name: string) => {
    const dir = path.join(root, 'shared', name);
    write(path.join(dir, 'package.json'), json({ name: `@site/${name}`, version: '1.0.0' }));
    write(path.join(dir, 'jest.config.cjs'), 'module.exports = {};\n');
    write(path.join(dir, 'tsconfig.json'), json({ include: ['src'] }));
    fs.mkdirSync(path.join(root, 'node_modules', '@site'), { recursive: true });
    fs.symlinkSync(
      path.join('..', '..', 'shared', name),
      path.join(root, 'node_modules', '@site', name),
    );
    return dir;
  };
  const ui = pkg('ui');
  write(path.join(ui, 'src', 'index.ts'), "export const name = 'Highveld';\n");
  write(path.join(ui, 'src', '__tests__', 'name.test.ts'), "it('names', () => {});\n");
  const contracts = pkg('contracts');
  write(path.join(contracts, 'site.json'), json({ remotes: [] }));
  write(path.join(contracts, 'src', 'index.ts'), 'export const MIN = 50;\n');
  const build = pkg('build');
  write(path.join(build, 'webpack.cjs'), 'module.exports = {};\n');
  write(path.join(build, 'webpack', 'plugins.cjs'), 'module.exports = {};\n');
  write(path.join(build, 'dev', 'index.html'), '<div id="root"></div>\n');
  write(path.join(build, 'src', 'testing', 'helpers.ts'), 'export {};\n');
  const team = path.join(root, 'team');
  write(
    path.join(team, 'package.json'),
    json({
      name: 'team',
      version: '1.1.0',
      dependencies: teamDeps,
      devDependencies: { '@site/build': '1.0.0' },
    }),
  );
  write(path.join(team, 'webpack.config.js'), 'module.exports = {};\n');
  write(path.join(team, 'README.md'), '# Team\n');
  write(path.join(team, 'jest.config.cjs'), 'module.exports = {};\n');
  write(path.join(team, 'src', 'routes.json'), json({ remote: 'team', routes: [] }));
  write(path.join(team, 'src', 'content', 'tools.ts'), "export default 'Tools we build';\n");
  write(path.join(team, 'src', '__tests__', 'pages.test.tsx'), "it('renders', () => {});\n");
  write(path.join(team, 'dist', '1.0.0', 'remoteEntry.js'), 'var team;\n');
  return team;
}

const edit = (file: string, from: string | RegExp, to: string) =>
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(from, to));

describe('the digest of what a version folder is built from', () => {
  it('is the same for a copy of the workspace elsewhere in the repository', () => {
    const team = repository(tmp);
    const copy = path.join(tmp, 'tests', '.tmp', 'team-copy');
    fs.cpSync(team, copy, { recursive: true });
    expect(sourcesDigest(copy)).toBe(sourcesDigest(team));
    expect(sourcesDigest(team)).toMatch(/^[0-9a-f]{64}$/);
  });

  const lock = (root: string) => path.join(root, 'package-lock.json');
  const cases: [string, (root: string) => void][] = [
    ["a page's content", (r) => edit(path.join(r, 'team/src/content/tools.ts'), 'build', 'run')],
    ['a new content file', (r) => write(path.join(r, 'team/src/content/new.ts'), 'export {};\n')],
    ['the route table', (r) => edit(path.join(r, 'team/src/routes.json'), '[]', '[{}]')],
    ["the workspace's version", (r) => edit(path.join(r, 'team/package.json'), '1.1.0', '1.1.1')],
    ["the workspace's webpack config", (r) => write(path.join(r, 'team/webpack.config.js'), '')],
    ["the UI package's source", (r) => edit(path.join(r, 'shared/ui/src/index.ts'), 'H', 'h')],
    ["the UI package's version", (r) => edit(path.join(r, 'shared/ui/package.json'), '1.0', '1.1')],
    ['the contracts', (r) => edit(path.join(r, 'shared/contracts/src/index.ts'), '50', '60')],
    ['the webpack configuration', (r) => write(path.join(r, 'shared/build/webpack.cjs'), '')],
    ["a build plugin's file", (r) => write(path.join(r, 'shared/build/webpack/x.cjs'), '')],
    ['the site', (r) => write(path.join(r, 'shared/contracts/site.json'), '{}')],
    ['the TypeScript settings', (r) => write(path.join(r, 'tsconfig.build.json'), '{}')],
    ['the locked React', (r) => edit(lock(r), '"19.3.1"', '"19.3.2"')],
    ["React's own dependency", (r) => edit(lock(r), '"0.28.0"', '"0.28.1"')],
    ["the contracts' dependency", (r) => edit(lock(r), '"4.6.7"', '"4.6.8"')],
    ['the minifier under webpack', (r) => edit(lock(r), '"5.51.2"', '"5.51.3"')],
  ];
  it.each(cases)('changes with %s', (_name, change) => {
    const team = repository(tmp);
    const before = sourcesDigest(team);
    change(tmp);
    expect(sourcesDigest(team)).not.toBe(before);
  });

  const unrelated: [string, (root: string) => void][] = [
    ["the workspace's tests", (r) => write(path.join(r, 'team/src/__tests__/pages.test.tsx'), '')],
    ["the workspace's README", (r) => write(path.join(r, 'team/README.md'), '# Team!\n')],
    ["the workspace's Jest config", (r) => write(path.join(r, 'team/jest.config.cjs'), '')],
    ['an earlier build', (r) => write(path.join(r, 'team/dist/1.0.0/remoteEntry.js'), '')],
    ["the UI package's tests", (r) => write(path.join(r, 'shared/ui/src/__tests__/a.test.ts'), '')],
    ['the standalone frame', (r) => write(path.join(r, 'shared/build/dev/index.html'), '')],
    ['the test helpers', (r) => write(path.join(r, 'shared/build/src/testing/helpers.ts'), '')],
    ["the UI package's Jest config", (r) => write(path.join(r, 'shared/ui/jest.config.cjs'), '')],
    ['a linter in the lockfile', (r) => edit(lock(r), '"10.15.0"', '"10.16.0"')],
  ];
  it.each(unrelated)('does not change with %s', (_name, change) => {
    const team = repository(tmp);
    const before = sourcesDigest(team);
    change(tmp);
    expect(sourcesDigest(team)).toBe(before);
  });
});

describe("a version folder's file digests", () => {
  it('lists every file by its path in the folder, the build record aside', () => {
    const folder = path.join(tmp, '1.1.0');
    write(path.join(folder, 'remoteEntry.js'), 'var team;\n');
    write(path.join(folder, 'server', 'pages.js'), 'exports.pages = {};\n');
    write(path.join(folder, RECORD_FILE), '{}');
    // As `sha256sum` prints them.
    expect(folderDigests(folder)).toEqual({
      'remoteEntry.js': '7560430b92e91d9755cfd2b26581807555275a18c8d02f640635f3de39ac344c',
      'server/pages.js': '058682efca4fe1a170df41886a826ec21eed73d8b898068ada7639c1248e779d',
    });
  });

  it('names the files two lists do not hold alike: changed, missing or added', () => {
    const a = { 'a.js': '1'.repeat(64), 'b.js': '2'.repeat(64), 'c.js': '3'.repeat(64) };
    const b = { 'a.js': '1'.repeat(64), 'b.js': '4'.repeat(64), 'd.js': '5'.repeat(64) };
    expect(differingFiles(a, b)).toEqual(['b.js', 'c.js', 'd.js']);
    expect(differingFiles(a, { ...a })).toEqual([]);
  });
});

describe('a build record', () => {
  const digest = 'a'.repeat(64);
  const good = { version: '1.1.0', sources: digest, files: { 'remoteEntry.js': digest } };

  it('reads back as written', () => {
    expect(parseRecord(JSON.parse(JSON.stringify(good)))).toEqual(good);
  });

  it.each([
    ['not an object', [], /not a JSON object/],
    ['no version', { ...good, version: undefined }, /"version"/],
    ['no sources digest', { ...good, sources: 'abc' }, /"sources"/],
    ['no files', { ...good, files: {} }, /"files"/],
    ['a file digest that is not one', { ...good, files: { 'a.js': 'x' } }, /"a\.js"/],
  ])('refuses %s', (_name, value, message) => {
    expect(() => parseRecord(value)).toThrow(message);
  });

  it('is absent from a folder that has none, and an error when it does not parse', () => {
    expect(readRecord(tmp)).toBeUndefined();
    write(path.join(tmp, RECORD_FILE), '{"version":');
    expect(() => readRecord(tmp)).toThrow(/is not a build record/);
  });
});

describe('the build record plugin', () => {
  /** A remote's two builds, for the browser and for Node, writing into one version folder. */
  function builds(folder: string, sources: () => string, entry = './pages.js'): Configuration[] {
    const context = path.join(tmp, 'team');
    write(path.join(context, 'pages.js'), 'export const pages = ["/tools"];\n');
    const record = buildRecordPlugin({ folder, version: '1.1.0', sources });
    const common = { context, mode: 'production' as const, entry, plugins: [record] };
    return [
      {
        ...common,
        output: { path: folder, filename: 'remoteEntry.js', clean: { keep: /^server\// } },
      },
      {
        ...common,
        target: 'node',
        output: { path: path.join(folder, 'server'), filename: 'pages.js', clean: false },
      },
    ];
  }

  const run = (configs: Configuration[]) =>
    new Promise<webpack.MultiStats | undefined>((resolve, reject) => {
      const compiler = webpack(configs);
      compiler.run((error, stats) =>
        compiler.close(() => (error ? reject(error) : resolve(stats))),
      );
    });

  it("records the files of both builds and the sources' digest once both are written", async () => {
    const folder = path.join(tmp, 'dist', '1.1.0');
    const stats = await run(builds(folder, () => 'b'.repeat(64)));
    expect(stats?.hasErrors()).toBe(false);
    const record = readRecord(folder);
    expect(record).toEqual({
      version: '1.1.0',
      sources: 'b'.repeat(64),
      files: folderDigests(folder),
    });
    expect(Object.keys(record?.files ?? {})).toEqual(['remoteEntry.js', 'server/pages.js']);
  });

  it('leaves no record when a build fails, not even an earlier one', async () => {
    const folder = path.join(tmp, 'dist', '1.1.0');
    await run(builds(folder, () => 'b'.repeat(64)));
    expect(readRecord(folder)).toBeDefined();
    const stats = await run(builds(folder, () => 'b'.repeat(64), './missing.js'));
    expect(stats?.hasErrors()).toBe(true);
    expect(fs.existsSync(path.join(folder, RECORD_FILE))).toBe(false);
  });

  it('leaves no record when the sources changed while the build ran', async () => {
    const folder = path.join(tmp, 'dist', '1.1.0');
    let edits = 0;
    await run(builds(folder, () => String(edits++).padStart(64, '0')));
    expect(fs.existsSync(path.join(folder, 'remoteEntry.js'))).toBe(true);
    expect(fs.existsSync(path.join(folder, RECORD_FILE))).toBe(false);
  });
});
