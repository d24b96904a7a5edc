/**
 * @jest-environment node
 */
import { DEPLOY_TOKEN, drawn, startFixture, type SiteFixture } from './site-fixture';

/**
 * The deploy API as a team's command meets it: who may call it, what a body must be, each refusal
 * with its reason, and a deploy and a rollback seen by the next visitor.
 */
let fixture: SiteFixture;

beforeAll(async () => {
  fixture = await startFixture();
}, 180_000);

afterAll(() => fixture?.close());

const base = async () => (await fixture.site.manifest()).version;

/** A call with a raw body and headers of the test's choosing. */
const raw = (url: string, headers: Record<string, string>, payload?: string) =>
  fixture.inject({
    method: payload === undefined ? 'GET' : 'PUT',
    url: `/_deploy${url}`,
    headers,
    ...(payload === undefined ? {} : { payload }),
  });
const operator = { authorization: `Bearer ${DEPLOY_TOKEN}`, 'content-type': 'application/json' };

describe('who may call', () => {
  test('no token: 401 asking for a Bearer token, in JSON, not to be stored', async () => {
    const answer = await raw('/manifest', {});
    expect(answer.statusCode).toBe(401);
    expect(answer.headers['www-authenticate']).toBe('Bearer');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.json()).toEqual({
      error: 'unauthorized',
      message: 'a valid deploy token is needed (Authorization: Bearer <token>)',
    });
  });

  test('the right token in another scheme, with a prefix, or in a query is no token', async () => {
    for (const headers of [
      { authorization: `Basic ${DEPLOY_TOKEN}` },
      { authorization: `bearer  ${DEPLOY_TOKEN}x` },
      { authorization: `Bearer x${DEPLOY_TOKEN}` },
    ]) {
      expect((await raw('/manifest', headers)).statusCode).toBe(401);
    }
    expect((await raw(`/manifest?token=${DEPLOY_TOKEN}`, {})).statusCode).toBe(401);
  });

  test('the operator reads the live manifest and its version', async () => {
    const answer = await fixture.deploy('GET', '/manifest');
    expect(answer.status).toBe(200);
    expect(answer.body.version).toBe(await base());
    const manifest = answer.body.manifest as { remotes: { name: string }[] };
    expect(manifest.remotes.map((r) => r.name).sort()).toEqual(['other', 'probe']);
  });

  test('a call the API does not have is a 404 naming it, in JSON', async () => {
    const answer = await fixture.deploy('POST', '/remotes');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({
      error: 'not_found',
      message: 'no deploy API call POST /_deploy/remotes',
    });
  });
});

describe('bodies that are refused, each with its reason', () => {
  const version = () => ({
    entry: `${fixture.origin}/other/1.1.0/remoteEntry.js`,
    version: '1.1.0',
  });

  test('not JSON: 400 bad_json', async () => {
    const answer = await raw('/remotes/other', operator, '{"base":');
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({ error: 'bad_json' });
  });

  test('JSON sent as another type (text/plain, a form, XML): 415 saying it must be application/json', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const answer = await raw(
        '/remotes/other',
        { ...operator, 'content-type': type },
        JSON.stringify({ base: await base(), ...version() }),
      );
      expect([type, answer.statusCode]).toEqual([type, 415]);
      expect(answer.json()).toEqual({
        error: 'unsupported_media_type',
        message: 'the request body must be JSON (Content-Type: application/json)',
      });
    }
  });

  test('over 16 KB: 413 too_large', async () => {
    const answer = await raw(
      '/remotes/other',
      operator,
      JSON.stringify({ base: await base(), ...version(), reason: 'x'.repeat(20_000) }),
    );
    expect(answer.statusCode).toBe(413);
    expect(answer.json()).toEqual({
      error: 'too_large',
      message: 'the request body is over 16384 bytes',
    });
  });

  test('without base: 428, saying what base is', async () => {
    const answer = await fixture.deploy('PUT', '/remotes/other', version());
    expect(answer.status).toBe(428);
    expect(answer.body.error).toBe('base_required');
    expect(answer.body.message).toMatch(/manifest version/);
  });

  test('a field the API does not know, a name that is no group name, a version that is not semver: 400 bad_field', async () => {
    const extra = await fixture.deploy('PUT', '/remotes/other', {
      base: await base(),
      ...version(),
      force: true,
    });
    expect([extra.status, extra.body.error]).toEqual([400, 'bad_field']);
    const name = await fixture.deploy('PUT', '/remotes/Other-Group', {
      base: await base(),
      ...version(),
    });
    expect([name.status, name.body.error]).toEqual([400, 'bad_field']);
    expect(name.body.message).toMatch(/^params/);
    const semver = await fixture.deploy('PUT', '/remotes/other', {
      base: await base(),
      ...version(),
      version: 'latest',
    });
    expect(semver).toEqual({
      status: 400,
      body: { error: 'bad_field', message: '"latest" is not a semantic version' },
    });
  });

  test('a base that is not the live version: 409 stale_base naming the live one', async () => {
    const answer = await fixture.deploy('PUT', '/remotes/other', { base: 'old', ...version() });
    expect(answer.status).toBe(409);
    expect(answer.body.error).toBe('stale_base');
    expect(answer.body.message).toContain(await base());
  });

  test('a preview that is a canary too: 400', async () => {
    const answer = await fixture.deploy('PUT', '/remotes/other', {
      base: await base(),
      ...version(),
      preview: true,
      canary: 10,
    });
    expect(answer).toEqual({
      status: 400,
      body: { error: 'bad_field', message: 'a deploy is a preview or a canary, not both' },
    });
  });
});

describe('entries that are refused, each with its reason, the live site unchanged', () => {
  test('an entry at an origin not allowed: 403 origin_not_allowed, naming the allowed one', async () => {
    const before = await base();
    const answer = await fixture.deploy('PUT', '/remotes/other', {
      base: before,
      entry: 'https://cdn.evil.example/other/1.1.0/remoteEntry.js',
      version: '1.1.0',
    });
    expect(answer.status).toBe(403);
    expect(answer.body.error).toBe('origin_not_allowed');
    expect(answer.body.message).toContain(fixture.origin);
    expect(await base()).toBe(before);
  });

  test('a Node build that is not the one the deploy pins: 422 contents_differ', async () => {
    const published = fixture.version('other', '1.2.0');
    const answer = await fixture.deploy('PUT', '/remotes/other', {
      base: await base(),
      entry: published.entry,
      version: '1.2.0',
      serverIntegrity: fixture.version('probe', '1.2.0').serverIntegrity,
    });
    expect(answer.status).toBe(422);
    expect(answer.body.error).toBe('contents_differ');
  });

  test('a version with a page that cannot be rendered: 422 render_failed naming the page', async () => {
    const published = fixture.version('probe', '1.1.0');
    const answer = await fixture.deploy('PUT', '/remotes/probe', {
      base: await base(),
      entry: published.entry,
      version: '1.1.0',
      serverIntegrity: published.serverIntegrity,
    });
    expect(answer.status).toBe(422);
    expect(answer.body.error).toBe('render_failed');
    expect(answer.body.message).toContain('/probe/broken');
    expect((await fixture.inject('/probe/hello')).body).toContain(
      drawn('probe', '1.0.0', '/probe/hello'),
    );
  });

  test('a rollback of a group that has no earlier version: 404 no_such_version', async () => {
    const answer = await fixture.deploy('POST', '/remotes/probe/rollback', { base: await base() });
    expect(answer).toEqual({
      status: 404,
      body: { error: 'no_such_version', message: '"probe" has no earlier version in the history' },
    });
  });
});

describe('a deploy and its rollback', () => {
  test('the next visitor sees the new version, and after the rollback the old one; the history says who and why', async () => {
    const published = fixture.version('other', '1.1.0');
    const done = await fixture.deploy('PUT', '/remotes/other', {
      base: await base(),
      entry: published.entry,
      version: '1.1.0',
      serverIntegrity: published.serverIntegrity,
      by: 'the other team',
      reason: 'new copy',
    });
    expect(done.status).toBe(200);
    expect((await fixture.inject('/other/page')).body).toContain(
      drawn('other', '1.1.0', '/other/page'),
    );
    const manifest = (await fixture.inject('/remotes.json')).json<{
      remotes: { name: string; version: string }[];
    }>();
    expect(manifest.remotes.find((r) => r.name === 'other')?.version).toBe('1.1.0');

    const back = await fixture.deploy('POST', '/remotes/other/rollback', {
      base: await base(),
      reason: 'copy error',
    });
    expect(back.status).toBe(200);
    expect((await fixture.inject('/other/page')).body).toContain(
      drawn('other', '1.0.0', '/other/page'),
    );

    const history = await fixture.deploy('GET', '/history?remote=other');
    const entries = JSON.stringify(history.body.history);
    expect(entries).toContain('the other team');
    expect(entries).toContain('new copy');
    expect(entries).toContain('copy error');
  });
});

describe('without a deploy token', () => {
  test('the API is off: 404 on every call, saying it needs DEPLOY_TOKEN', async () => {
    const off = await startFixture({ settings: { DEPLOY_TOKEN: '' } });
    try {
      for (const url of ['/_deploy', '/_deploy/manifest', '/_deploy/remotes/probe']) {
        const answer = await off.inject({ method: 'GET', url, headers: operator });
        expect([url, answer.statusCode]).toEqual([url, 404]);
        expect(answer.body).toBe('The deploy API is off: it needs DEPLOY_TOKEN.\n');
      }
    } finally {
      await off.close();
    }
  }, 120_000);
});
