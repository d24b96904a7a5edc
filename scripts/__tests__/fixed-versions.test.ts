import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { folderDigests, type BuildRecord } from '@site/build/webpack/build-record';
import {
  OriginError,
  inspectFolder,
  probeOrigin,
  publishedReason,
  staleReason,
} from '../lib/fixed-versions';
import { SettingsError, httpUrl, parseDeployArgs } from '../lib/deploy-settings';

/**
 * What a deploy checks before it uploads or publishes: the local version folder against its build
 * record and the workspace's sources, and the origin's copy over real HTTP.
 */

const SOURCES = 'a'.repeat(64);
let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fixed-versions-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A version folder as a build leaves it: two files and its record. */
function built(version = '1.1.0'): { folder: string; record: BuildRecord } {
  const folder = path.join(tmp, 'dist', version);
  fs.mkdirSync(path.join(folder, 'server'), { recursive: true });
  fs.writeFileSync(path.join(folder, 'remoteEntry.js'), 'var public_health;\n');
  fs.writeFileSync(path.join(folder, 'server', 'pages.js'), 'exports.pages = {};\n');
  const record = { version, sources: SOURCES, files: folderDigests(folder) };
  fs.writeFileSync(path.join(folder, 'build.json'), JSON.stringify(record));
  return { folder, record };
}

describe('the local version folder', () => {
  it('is missing when it was never built', () => {
    expect(inspectFolder(path.join(tmp, 'dist', '1.1.0'), '1.1.0', SOURCES)).toEqual({
      state: 'missing',
    });
  });

  it('is built when its record names the sources the workspace holds and its files', () => {
    const { folder, record } = built();
    expect(inspectFolder(folder, '1.1.0', SOURCES)).toEqual({ state: 'built', record });
  });

  it('is stale when it was built from other sources', () => {
    const { folder } = built();
    expect(inspectFolder(folder, '1.1.0', 'b'.repeat(64))).toEqual({
      state: 'stale',
      why: 'sources',
    });
  });

  it('is stale when its record is of another version', () => {
    const { folder } = built();
    fs.renameSync(folder, path.join(tmp, 'dist', '1.1.1'));
    expect(inspectFolder(path.join(tmp, 'dist', '1.1.1'), '1.1.1', SOURCES)).toMatchObject({
      state: 'stale',
      why: 'sources',
    });
  });

  it('is stale when a file was changed, added or removed after the build', () => {
    const { folder } = built();
    fs.appendFileSync(path.join(folder, 'remoteEntry.js'), '// patched\n');
    fs.writeFileSync(path.join(folder, 'extra.js'), '');
    fs.rmSync(path.join(folder, 'server', 'pages.js'));
    expect(inspectFolder(folder, '1.1.0', SOURCES)).toEqual({
      state: 'stale',
      why: 'changed',
      files: ['extra.js', 'remoteEntry.js', 'server/pages.js'],
    });
  });

  it('is stale when it has no record, or one that does not parse', () => {
    const { folder } = built();
    fs.writeFileSync(path.join(folder, 'build.json'), '{');
    expect(inspectFolder(folder, '1.1.0', SOURCES)).toEqual({ state: 'stale', why: 'unrecorded' });
    fs.rmSync(path.join(folder, 'build.json'));
    expect(inspectFolder(folder, '1.1.0', SOURCES)).toEqual({ state: 'stale', why: 'unrecorded' });
  });

  const about = {
    pkg: 'mfe-public-health',
    version: '1.1.0',
    origin: 'https://cdn.example.com/ph',
  };
  it('is refused with what to do, offering --rebuild only for a version never published', () => {
    const reason = staleReason({ state: 'stale', why: 'sources' }, { ...about, held: true });
    expect(reason).toBe(
      "mfe-public-health 1.1.0 was built from other sources than the workspace holds now; a version's contents are fixed once built: bump the version (npm version patch -w mfe-public-health) and deploy again",
    );
    expect(staleReason({ state: 'stale', why: 'sources' }, { ...about, held: false })).toBe(
      `${reason}; or, as 1.1.0 was never published at https://cdn.example.com/ph, rebuild it: npm run deploy -w mfe-public-health -- --rebuild`,
    );
    expect(
      staleReason(
        { state: 'stale', why: 'changed', files: ['a.js', 'b.js', 'c.js', 'd.js', 'e.js'] },
        { ...about, held: true },
      ),
    ).toMatch(
      /^dist\/1\.1\.0 of mfe-public-health was changed after it was built \(a\.js, b\.js, c\.js and 2 more\); /,
    );
  });
});

describe('what the origin holds', () => {
  const PORT = 3440;
  const origin = `http://localhost:${PORT}`;
  let files: Record<string, { status: number; body: string }>;
  let server: http.Server;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const file = files[req.url ?? ''];
      res.writeHead(file?.status ?? 404).end(file?.body ?? 'Not found\n');
    });
    await new Promise<void>((resolve) => server.listen(PORT, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => {
    files = {};
  });

  it('is nothing when neither the record nor the entry is there', async () => {
    expect(await probeOrigin(origin, '1.1.0')).toEqual({ held: false });
  });

  it('is the build its record describes', async () => {
    const { record } = built();
    files['/1.1.0/build.json'] = { status: 200, body: JSON.stringify(record) };
    expect(await probeOrigin(origin, '1.1.0')).toEqual({ held: true, record });
  });

  it('is a version of unknown contents when it serves the entry but no record', async () => {
    files['/1.1.0/remoteEntry.js'] = { status: 200, body: 'var public_health;\n' };
    expect(await probeOrigin(origin, '1.1.0')).toEqual({ held: true });
  });

  it('cannot be told from a record that does not parse, an error, or no answer', async () => {
    files['/1.1.0/build.json'] = { status: 200, body: '<html>' };
    const unparsed = probeOrigin(origin, '1.1.0');
    await expect(unparsed).rejects.toBeInstanceOf(OriginError);
    await expect(unparsed).rejects.toThrow(
      `${origin}/1.1.0/build.json is not a build record (Unexpected token '<', "<html>" is not valid JSON)`,
    );
    files['/1.1.0/build.json'] = { status: 403, body: 'Forbidden' };
    await expect(probeOrigin(origin, '1.1.0')).rejects.toThrow(
      `${origin}/1.1.0/build.json answered HTTP 403: cannot tell whether ${origin} holds 1.1.0`,
    );
    await expect(probeOrigin('http://localhost:3441', '1.1.0')).rejects.toThrow(
      'http://localhost:3441 could not be reached to see whether it holds 1.1.0 (connect ECONNREFUSED',
    );
  });

  const about = { pkg: 'mfe-public-health', version: '1.1.0', origin };
  it('lets the deploy go on when it holds nothing or the very same files', () => {
    const { record } = built();
    expect(publishedReason({ held: false }, record, about)).toBeUndefined();
    expect(publishedReason({ held: true, record: { ...record } }, record, about)).toBeUndefined();
  });

  it('refuses other contents under the same version, naming the files', () => {
    const { record } = built();
    const other = {
      ...record,
      sources: 'c'.repeat(64),
      files: { ...record.files, 'remoteEntry.js': 'd'.repeat(64) },
    };
    expect(publishedReason({ held: true, record: other }, record, about)).toBe(
      `mfe-public-health 1.1.0 was already published at ${origin} with other contents than dist/1.1.0 (1 file differs: remoteEntry.js); a version's contents are fixed once published: bump the version (npm version patch -w mfe-public-health) and deploy again`,
    );
    expect(publishedReason({ held: true }, record, about)).toMatch(
      /already serves mfe-public-health 1\.1\.0 without a build record .* bump the version/,
    );
  });
});

describe("the deploy command's settings", () => {
  it('reads its options', () => {
    expect(parseDeployArgs(['--reason', 'New page', '--rebuild'])).toEqual({
      help: false,
      rollback: false,
      rebuild: true,
      reason: 'New page',
      with: [],
      preview: false,
      promote: false,
    });
    expect(parseDeployArgs(['--preview']).preview).toBe(true);
    expect(parseDeployArgs(['--with', 'mfe-data', '--with', 'mfe-public-health']).with).toEqual([
      'mfe-data',
      'mfe-public-health',
    ]);
    expect(parseDeployArgs(['--rollback', '--release', 'r-3f2a9c1b7d4e']).release).toBe(
      'r-3f2a9c1b7d4e',
    );
    expect(parseDeployArgs(['--rollback', '--to', '1.0.0-rc.1'])).toMatchObject({
      rollback: true,
      to: '1.0.0-rc.1',
    });
    expect(parseDeployArgs(['-h']).help).toBe(true);
    expect(
      parseDeployArgs([
        '--canary',
        '10',
        '--steps',
        '25,50,100',
        '--interval',
        '10m',
        '--max-error-rate',
        '0.01',
        '--min-views',
        '200',
        '--window',
        '5m',
      ]),
    ).toMatchObject({
      canary: 10,
      plan: {
        steps: [25, 50, 100],
        intervalSeconds: 600,
        maxErrorRate: 0.01,
        minViews: 200,
        windowSeconds: 300,
      },
    });
    expect(parseDeployArgs(['--canary', '10']).plan).toBeUndefined();
    expect(parseDeployArgs(['--status']).status).toBe(true);
  });

  it.each([
    [['--force'], 'unknown option --force'],
    [['--reason'], '--reason needs a value, e.g. --reason "New page"'],
    [['--rebuild=yes'], '--rebuild takes no value'],
    [['1.2.0'], 'unexpected argument 1.2.0'],
    [['--to', '1.2.0'], '--to is for a rollback'],
    [
      ['--rollback', '--to', 'latest'],
      '--to must be a semantic version such as 1.2.0, not "latest"',
    ],
    [['--rollback', '--rebuild'], '--rebuild is for a deploy'],
    [['--with'], '--with needs a value, e.g. --with mfe-data'],
    [['--rollback', '--preview'], '--preview and --promote are for a deploy'],
    [['--preview', '--promote'], '--preview shows one group'],
    [['--with', '../etc'], '--with names a group workspace such as mfe-data'],
    [['--rollback', '--with', 'mfe-data'], '--with is for a deploy'],
    [['--release', 'r-3f2a9c1b7d4e'], '--release is for a rollback'],
    [['--rollback', '--release', 'latest'], '--release takes a release id such as r-3f2a9c1b7d4e'],
    [['--steps', '25,50,100', '--interval', '1m'], '--steps is for a canary'],
    [['--canary', '10', '--steps', '25,50,100'], 'steps and an interval go together'],
    [['--canary', '10', '--steps', '25,75,100', '--interval', '1m'], 'at most 50 %'],
    [['--canary', '10', '--steps', '5,50,100', '--interval', '1m'], 'must be above'],
    [['--canary', '10', '--steps', '25,50', '--interval', '1m'], 'the last step is 100'],
    [['--canary', '10', '--interval', 'soon', '--steps', '50,100'], '--interval takes a time'],
    [['--canary', '10', '--max-error-rate', '2%'], '--max-error-rate takes a number'],
    [['--canary', '10', '--max-error-rate', '2'], 'maxErrorRate'],
    [['--canary', '10', '--min-views', '0'], 'minViews'],
    [['--canary', '10', '--window', '2h'], 'windowSeconds'],
    [['--status', '--canary', '10'], '--status only reads'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseDeployArgs(argv)).toThrow(SettingsError);
    expect(() => parseDeployArgs(argv)).toThrow(message);
  });

  it('takes http(s) URLs only, without a trailing slash', () => {
    expect(httpUrl('DEPLOY_API', 'https://www.example.com/')).toBe('https://www.example.com');
    expect(httpUrl('REMOTE_DATA_URL', 'https://cdn.example.com/data/')).toBe(
      'https://cdn.example.com/data',
    );
    for (const value of ['www.example.com', 'ftp://example.com', 'file:///srv', 'http://x/?v=1']) {
      expect(() => httpUrl('DEPLOY_API', value)).toThrow(/^DEPLOY_API must be an http\(s\) URL/);
    }
  });
});
