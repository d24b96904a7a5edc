/**
 * @jest-environment node
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sha384Integrity } from '@site/contracts/integrity';
import { PINNED_FILE_MAX_BYTES } from '../../deploy/file-pins';
import { METRICS_TOKEN, startFixture, type SiteFixture } from './site-fixture';

/**
 * Every file a group's pages load in the browser is pinned when it is deployed: the deploy API
 * fetches each from the version's origin and records its SHA-384 in the entry, the composed page
 * preloads each with its pin, and a file that cannot be pinned refuses the deploy with the reason.
 * A browser that could not load a group has the group's files checked by the site, which counts
 * only a file that really differs from its pin.
 */
let fixture: SiteFixture;

beforeAll(async () => {
  fixture = await startFixture();
}, 180_000);

afterAll(() => fixture?.close());

const base = async () => (await fixture.site.manifest()).version;

/** A version of `other` whose federation manifest lists `files` (written with `contents`). */
function versionWith(version: string, files: Record<string, string | Buffer>, listed?: string[]) {
  const published = fixture.version('other', version);
  const folder = path.join(fixture.dir, 'other', version);
  for (const [file, contents] of Object.entries(files)) {
    writeFileSync(path.join(folder, file), contents);
  }
  const names = listed ?? Object.keys(files);
  writeFileSync(
    path.join(folder, 'mf-manifest.json'),
    JSON.stringify({
      id: 'other',
      shared: [{ name: 'react', assets: { js: { sync: [], async: [] }, css: { sync: [] } } }],
      exposes: [
        {
          name: 'pages',
          assets: {
            js: { sync: names.filter((f) => f.endsWith('.js')), async: [] },
            css: { sync: names.filter((f) => f.endsWith('.css')), async: [] },
          },
        },
      ],
    }),
  );
  return { published, folder };
}

const deploy = async (version: string, serverIntegrity: string) =>
  fixture.deploy('PUT', '/remotes/other', {
    base: await base(),
    entry: `${fixture.origin}/other/${version}/remoteEntry.js`,
    version,
    serverIntegrity,
  });

const liveOther = async () =>
  (await fixture.site.manifest()).manifest.remotes.find((r) => r.name === 'other');

const metrics = async () =>
  (
    await fixture.inject({
      url: '/_metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    })
  ).body;

const integrityReports = async (group: string) =>
  Number(
    new RegExp(`^site_integrity_failures_total\\{group="${group}"\\} (\\d+)$`, 'm').exec(
      await metrics(),
    )?.[1] ?? 0,
  );

describe('a deploy pins the files its pages load', () => {
  test('each file by its SHA-384 in the entry, and the page preloads each with its pin', async () => {
    const { published } = versionWith('1.3.0', {
      'pages.1a.js': 'window.pages = 1;',
      'chunk.2b.js': 'window.chunk = 2;',
      'style.3c.css': 'p { color: teal }',
    });
    const answer = await deploy('1.3.0', published.serverIntegrity);
    expect(answer.status).toBe(200);
    const files = {
      'remoteEntry.js': sha384Integrity('var other;'),
      'pages.1a.js': sha384Integrity('window.pages = 1;'),
      'chunk.2b.js': sha384Integrity('window.chunk = 2;'),
      'style.3c.css': sha384Integrity('p { color: teal }'),
    };
    expect((await liveOther())?.files).toEqual(files);
    const page = (await fixture.inject('/other/page')).body;
    expect(page).toContain(
      JSON.stringify(`${fixture.origin}/other/1.3.0/remoteEntry.js`) +
        ':' +
        JSON.stringify(files['remoteEntry.js']),
    );
    // A shell page runs no group's code: it carries no group's pins.
    for (const path of ['/', '/about', '/contact']) {
      expect((await fixture.inject(path)).body).not.toContain(files['remoteEntry.js']);
    }
  });

  test('a file the origin does not serve: 422 file_unreachable naming it, nothing changed', async () => {
    const before = await base();
    const { published } = versionWith('1.4.0', { 'here.js': '1;' }, ['here.js', 'gone.4d.js']);
    const answer = await deploy('1.4.0', published.serverIntegrity);
    expect(answer.status).toBe(422);
    expect(answer.body.error).toBe('file_unreachable');
    expect(answer.body.message).toContain('/other/1.4.0/gone.4d.js');
    expect(answer.body.message).toContain('HTTP 404');
    expect(await base()).toBe(before);
  });

  test(`a file over ${PINNED_FILE_MAX_BYTES} bytes: 422 file_too_large naming it`, async () => {
    const before = await base();
    const { published } = versionWith('1.5.0', {
      'huge.5e.js': Buffer.alloc(PINNED_FILE_MAX_BYTES + 1, 0x20),
    });
    const answer = await deploy('1.5.0', published.serverIntegrity);
    expect(answer.status).toBe(422);
    expect(answer.body.error).toBe('file_too_large');
    expect(answer.body.message).toContain('/other/1.5.0/huge.5e.js');
    expect(answer.body.message).toContain(`over ${PINNED_FILE_MAX_BYTES} bytes`);
    expect(await base()).toBe(before);
  });

  test('a file outside the version folder: 422 invalid_entry naming it', async () => {
    for (const outside of ['../1.0.0/x.js', 'https://elsewhere.test/x.js', '/x.js']) {
      const { published } = versionWith('1.6.0', {}, [outside]);
      const answer = await deploy('1.6.0', published.serverIntegrity);
      expect(answer.status).toBe(422);
      expect(answer.body).toEqual({
        error: 'invalid_entry',
        message: `the page file "${outside}" is not a script or style sheet inside the version folder`,
      });
    }
  });
});

describe('a file changed after its deploy', () => {
  test('a rollback to it is refused: 422 contents_differ naming the file', async () => {
    const first = versionWith('2.0.0', { 'page.6f.js': 'window.v = 2;' });
    expect((await deploy('2.0.0', first.published.serverIntegrity)).status).toBe(200);
    const next = versionWith('2.1.0', { 'page.7a.js': 'window.v = 21;' });
    expect((await deploy('2.1.0', next.published.serverIntegrity)).status).toBe(200);
    appendFileSync(path.join(first.folder, 'page.6f.js'), 'window.stolen = true;');
    const before = await base();
    const answer = await fixture.deploy('POST', '/remotes/other/rollback', { base: before });
    expect(answer.status).toBe(422);
    expect(answer.body.error).toBe('contents_differ');
    expect(answer.body.message).toContain('/other/2.0.0/page.6f.js');
    expect(await base()).toBe(before);
  });

  test('a browser that could not load the group is counted once the site finds a file unlike its pin', async () => {
    const report = (group: string, version: string) =>
      fixture.inject({
        method: 'POST',
        url: '/_integrity',
        headers: { 'content-type': 'text/plain;charset=UTF-8' },
        payload: JSON.stringify({ kind: 'remote-load-failed', group, version, message: 'x' }),
      });
    const clean = versionWith('3.0.0', { 'page.8b.js': 'window.v = 3;' });
    expect((await deploy('3.0.0', clean.published.serverIntegrity)).status).toBe(200);
    // The files are as deployed (a host that was down, a made-up report): nothing is counted.
    expect((await report('other', '3.0.0')).statusCode).toBe(204);
    // Neither is a version or a group that is not live.
    expect((await report('other', '9.9.9')).statusCode).toBe(204);
    expect((await report('nobody', '3.0.0')).statusCode).toBe(204);
    expect(await integrityReports('other')).toBe(0);
    expect((await fixture.inject('/_integrity')).json()).toEqual({ failures: [] });

    const changed = versionWith('3.1.0', { 'page.9c.js': 'window.v = 31;' });
    expect((await deploy('3.1.0', changed.published.serverIntegrity)).status).toBe(200);
    appendFileSync(path.join(changed.folder, 'page.9c.js'), 'window.stolen = true;');
    expect((await report('other', '3.1.0')).statusCode).toBe(204);
    expect((await report('other', '3.1.0')).statusCode).toBe(204);
    expect(await integrityReports('other')).toBe(2);
    expect((await fixture.inject('/_integrity')).json()).toEqual({
      failures: [
        {
          group: 'other',
          version: '3.1.0',
          reports: 2,
          files: ['page.9c.js'],
          at: expect.any(String),
        },
      ],
    });
  });

  test('a report that is not one: 400 naming what is wrong', async () => {
    const answer = await fixture.inject({
      method: 'POST',
      url: '/_integrity',
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify({ group: 'Not A Group', version: '1.0.0' }),
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.body).toContain('group');
  });
});
