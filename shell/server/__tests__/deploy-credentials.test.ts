/**
 * @jest-environment node
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Site } from '../site';
import {
  Bucket,
  OPERATOR,
  base,
  call,
  deployDirWith,
  groupToken,
  startSite,
  tableOf,
} from './deploy-credentials-helpers';
import { freshDatabase, tableText } from './test-postgres';

/**
 * Each group's team deploys with a token of its own, on a real site (the real shell build, real
 * render processes, groups `alpha` and `beta` served by a real HTTP server) with its manifest, its
 * history and the groups' tokens in a database of the run's PostgreSQL. The deploy API is called
 * in-process; the bucket listens on a port the system has free.
 */
jest.setTimeout(60_000);

let work: string;
let bucket: Bucket;
let site: Site;
let databaseUrl: string;

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'site-credentials-'));
  bucket = new Bucket(path.join(work, 'bucket'));
  await bucket.listen();
  for (const group of ['alpha', 'beta']) {
    for (const version of ['1.0.0', '1.1.0']) bucket.version(group, version);
  }
  const deployDir = deployDirWith(path.join(work, 'deploy'), [
    bucket.remote('alpha'),
    bucket.remote('beta'),
  ]);
  databaseUrl = await freshDatabase();
  site = await startSite(deployDir, bucket.origin, databaseUrl);
}, 180_000);

afterAll(async () => {
  await site?.close();
  await bucket?.close();
  rmSync(work, { recursive: true, force: true });
});

/** The live manifest, as the site serves it. */
const manifestText = async () => (await site.app.inject('/remotes.json')).body;

describe('group deploy tokens', () => {
  test('only the operator makes, lists, rotates and revokes them; the site keeps their digests alone', async () => {
    const made = await call(site, 'POST', '/tokens', OPERATOR, { groups: ['alpha'] });
    expect(made.status).toBe(201);
    const token = made.body.token as string;
    const id = made.body.id as string;
    expect(token).toMatch(/^gdt_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(made.body).toMatchObject({ groups: ['alpha'], credential: `group:alpha#${id}` });

    // The token reads the manifest and the history, and manages no token.
    expect((await call(site, 'GET', '/manifest', token)).status).toBe(200);
    expect((await call(site, 'GET', '/history', token)).status).toBe(200);
    for (const [method, route, body] of [
      ['GET', '/tokens', undefined],
      ['POST', '/tokens', { groups: ['beta'] }],
      ['POST', `/tokens/${id}/rotate`, {}],
      ['POST', `/tokens/${id}/revoke`, {}],
    ] as const) {
      const refused = await call(site, method, route, token, body);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        error: 'operator_only',
        message: `only the site's operator token (DEPLOY_TOKEN) can make, list, rotate or revoke deploy tokens, not group:alpha#${id}`,
      });
    }

    // Listed without its secret; stored as a digest.
    const listed = (await call(site, 'GET', '/tokens', OPERATOR)).body.tokens as Record<
      string,
      unknown
    >[];
    expect(listed.find((t) => t.id === id)).toEqual({
      id,
      groups: ['alpha'],
      credential: `group:alpha#${id}`,
      createdAt: expect.any(String),
    });
    const stored = await tableText(databaseUrl, 'deploy_tokens');
    expect(stored).not.toContain(token.slice(`gdt_${id}_`.length));
    expect(stored).toContain(id);

    // Rotated: the old secret is refused at once, the new one works, under the same id.
    const rotated = await call(site, 'POST', `/tokens/${id}/rotate`, OPERATOR, {});
    expect(rotated.status).toBe(200);
    const next = rotated.body.token as string;
    expect(next).not.toBe(token);
    expect(next.startsWith(`gdt_${id}_`)).toBe(true);
    expect(rotated.body.rotatedAt).toEqual(expect.any(String));
    expect((await call(site, 'GET', '/manifest', token)).status).toBe(401);
    expect((await call(site, 'GET', '/manifest', next)).status).toBe(200);

    // Revoked: refused from the next call; revoking again is harmless; it cannot be rotated back.
    const revoked = await call(site, 'POST', `/tokens/${id}/revoke`, OPERATOR);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).toEqual(expect.any(String));
    const refused = await call(site, 'GET', '/manifest', next);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('unauthorized');
    expect((await call(site, 'POST', `/tokens/${id}/revoke`, OPERATOR)).status).toBe(200);
    const again = await call(site, 'POST', `/tokens/${id}/rotate`, OPERATOR);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('revoked');
  });

  test.each([
    ['no groups', { groups: [] }, 400, 'bad_field'],
    ['a group that is not a name', { groups: ['Data Team'] }, 400, 'bad_field'],
    ['a group named twice', { groups: ['alpha', 'alpha'] }, 400, 'bad_field'],
    ['anything else', { groups: ['alpha'], admin: true }, 400, 'bad_field'],
  ])('a token for %s is refused with the reason', async (_what, body, status, error) => {
    const answer = await call(site, 'POST', '/tokens', OPERATOR, body);
    expect(answer.status).toBe(status);
    expect(answer.body.error).toBe(error);
    expect(String(answer.body.message)).not.toBe('');
  });

  test('a token id that names no token, or is not an id, is refused with the reason', async () => {
    const none = await call(site, 'POST', '/tokens/0123456789ab/revoke', OPERATOR);
    expect(none.status).toBe(404);
    expect(none.body).toEqual({
      error: 'no_such_token',
      message: 'there is no deploy token "0123456789ab" (GET /_deploy/tokens lists them)',
    });
    expect((await call(site, 'POST', '/tokens/ZZ/rotate', OPERATOR)).status).toBe(400);
  });

  test('a token that is not one, or a guessed one, is refused as unauthorized', async () => {
    const real = await groupToken(site, 'alpha');
    for (const token of [
      '',
      'gdt_',
      `${real}x`,
      real.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
      `gdt_0123456789ab_${'A'.repeat(43)}`,
      OPERATOR.slice(1),
    ]) {
      const answer = await call(site, 'GET', '/manifest', token);
      expect(answer.status).toBe(401);
      expect(answer.body.error).toBe('unauthorized');
    }
  });
});

describe("a group's token changes its own group only", () => {
  test('alpha moves alpha; beta it cannot publish, preview, canary, promote, roll back or release; the history names each credential', async () => {
    const alpha = await groupToken(site, 'alpha');
    const alphaId = /^gdt_([0-9a-f]{12})_/.exec(alpha)![1];
    const recorded = ((await call(site, 'GET', '/history', OPERATOR)).body.history as unknown[])
      .length;

    const own = await call(site, 'PUT', '/remotes/alpha', alpha, {
      base: await base(site),
      entry: bucket.entry('alpha', '1.1.0'),
      version: '1.1.0',
      by: 'alpha-ci',
    });
    expect(own.status).toBe(200);
    expect(own.body.credential).toBe(`group:alpha#${alphaId}`);

    const before = await manifestText();
    const now = await base(site);
    const beta = { base: now, entry: bucket.entry('beta', '1.1.0'), version: '1.1.0' };
    const attempts: [string, 'PUT' | 'POST', string, unknown][] = [
      ['publish', 'PUT', '/remotes/beta', beta],
      ['preview', 'PUT', '/remotes/beta', { ...beta, preview: true }],
      ['canary', 'PUT', '/remotes/beta', { ...beta, canary: 10 }],
      ['promote', 'PUT', '/remotes/beta', { ...beta, reason: 'promote 1.1.0' }],
      ['roll back', 'POST', '/remotes/beta/rollback', { base: now }],
      [
        'release',
        'POST',
        '/releases',
        {
          base: now,
          entries: [
            { name: 'alpha', entry: bucket.entry('alpha', '1.0.0'), version: '1.0.0' },
            { name: 'beta', entry: beta.entry, version: beta.version },
          ],
        },
      ],
    ];
    for (const [what, method, route, body] of attempts) {
      const answer = await call(site, method, route, alpha, body);
      expect([what, answer.status, answer.body]).toEqual([
        what,
        403,
        {
          error: 'group_not_allowed',
          message: `the deploy token group:alpha#${alphaId} may change only alpha, not beta; nothing was changed`,
        },
      ]);
      expect(await manifestText()).toBe(before);
    }

    // A release of both needs a token for both (or the operator's), and so does taking it back.
    const both = await groupToken(site, 'alpha', 'beta');
    const released = await call(site, 'POST', '/releases', both, {
      base: now,
      entries: [
        { name: 'alpha', entry: bucket.entry('alpha', '1.0.0'), version: '1.0.0' },
        { name: 'beta', entry: beta.entry, version: beta.version },
      ],
    });
    expect(released.status).toBe(200);
    const back = await call(
      site,
      'POST',
      `/releases/${String(released.body.release)}/rollback`,
      alpha,
      {
        base: await base(site),
      },
    );
    expect(back.status).toBe(403);
    expect(back.body.error).toBe('group_not_allowed');
    const undone = await call(
      site,
      'POST',
      `/releases/${String(released.body.release)}/rollback`,
      OPERATOR,
      {
        base: await base(site),
      },
    );
    expect(undone.status).toBe(200);

    // The operator reads every group's history (alpha's token, only alpha's).
    const history = (
      (await call(site, 'GET', '/history', OPERATOR)).body.history as {
        remote: string;
        action: string;
        credential: string;
      }[]
    ).slice(recorded);
    const bothId = /#([0-9a-f]{12})$/.exec(
      String((released.body.changes as { credential: string }[])[0]!.credential),
    )![1];
    expect(history.map((e) => [e.action, e.remote, e.credential])).toEqual([
      ['deploy', 'alpha', `group:alpha#${alphaId}`],
      ['deploy', 'alpha', `group:alpha+beta#${bothId}`],
      ['deploy', 'beta', `group:alpha+beta#${bothId}`],
      ['rollback', 'alpha', 'operator'],
      ['rollback', 'beta', 'operator'],
    ]);
    const stored = await tableText(databaseUrl, 'manifest_history');
    for (const secret of [alpha, OPERATOR]) expect(stored).not.toContain(secret);
  });
});

describe('an entry is checked against its group', () => {
  test('a route table naming another group is refused on every path: deploy, preview, canary, release, rollback', async () => {
    // alpha 2.0.0 is beta's table on alpha's origin.
    bucket.version('alpha', '2.0.0', tableOf('beta'));
    const entry = { entry: bucket.entry('alpha', '2.0.0'), version: '2.0.0' };
    const refusal = {
      error: 'wrong_remote',
      message: `the route table at the entry's origin belongs to "beta", not "alpha"`,
    };
    const now = await base(site);
    const before = await manifestText();
    for (const [what, method, route, body] of [
      ['deploy', 'PUT', '/remotes/alpha', { base: now, ...entry }],
      ['preview', 'PUT', '/remotes/alpha', { base: now, ...entry, preview: true }],
      ['canary', 'PUT', '/remotes/alpha', { base: now, ...entry, canary: 10 }],
      ['release', 'POST', '/releases', { base: now, entries: [{ name: 'alpha', ...entry }] }],
    ] as const) {
      const answer = await call(site, method, route, OPERATOR, body);
      expect([what, answer.status, answer.body]).toEqual([what, 422, refusal]);
      expect(await manifestText()).toBe(before);
    }

    // A version that was live, whose route table was changed since: its rollback is refused too.
    bucket.version('alpha', '1.2.0');
    const up = await call(site, 'PUT', '/remotes/alpha', OPERATOR, {
      base: now,
      entry: bucket.entry('alpha', '1.2.0'),
      version: '1.2.0',
    });
    expect(up.status).toBe(200);
    const current = await call(site, 'GET', '/manifest', OPERATOR);
    const previous = (up.body.from as { version: string }).version;
    bucket.version('alpha', previous, tableOf('beta'));
    try {
      const answer = await call(site, 'POST', '/remotes/alpha/rollback', OPERATOR, {
        base: current.body.version,
      });
      expect([answer.status, answer.body]).toEqual([422, refusal]);
      expect((await call(site, 'GET', '/manifest', OPERATOR)).body).toEqual(current.body);
    } finally {
      bucket.version('alpha', previous);
    }
  });

  test.each([
    [
      '/assets',
      'reserved_path',
      'the prefix "/assets" cannot be a group\'s: it overlaps "/assets", which the site serves itself; nothing was changed',
    ],
    [
      '/favicon.svg',
      'reserved_path',
      'the prefix "/favicon.svg" cannot be a group\'s: it overlaps "/favicon.svg", which the site serves itself; nothing was changed',
    ],
    // Not in the server's own list: read from the root of the shell's build.
    [
      '/index.html',
      'reserved_path',
      'the prefix "/index.html" cannot be a group\'s: it overlaps "/index.html", which the site serves itself; nothing was changed',
    ],
    [
      '/api/mail',
      'reserved_path',
      'the prefix "/api/mail" cannot be a group\'s: it overlaps "/api", which the site serves itself; nothing was changed',
    ],
    [
      '/_deploy',
      'reserved_path',
      'the prefix "/_deploy" cannot be a group\'s: it starts with "/_", which the site keeps for itself; nothing was changed',
    ],
    [
      '/%5Fmetrics',
      'reserved_path',
      'the prefix "/%5Fmetrics" cannot be a group\'s: it starts with "/_", which the site keeps for itself; nothing was changed',
    ],
    [
      '/404',
      'reserved_path',
      'the prefix "/404" cannot be a group\'s: it overlaps "/404", which the site serves itself; nothing was changed',
    ],
    [
      '/share',
      'reserved_path',
      'the prefix "/share" cannot be a group\'s: it overlaps "/share", which the site serves itself; nothing was changed',
    ],
    [
      '/sitemap.xml',
      'reserved_path',
      'the prefix "/sitemap.xml" cannot be a group\'s: it overlaps "/sitemap.xml", which the site serves itself; nothing was changed',
    ],
    [
      '/robots.txt',
      'reserved_path',
      'the prefix "/robots.txt" cannot be a group\'s: it overlaps "/robots.txt", which the site serves itself; nothing was changed',
    ],
    [
      '/remotes.json',
      'reserved_path',
      'the prefix "/remotes.json" cannot be a group\'s: it overlaps "/remotes.json", which the site serves itself; nothing was changed',
    ],
    [
      '/contact',
      'invalid_entry',
      'the prefix "/contact" overlaps "/contact", one of the shell\'s own pages',
    ],
    ['/beta', 'invalid_entry', 'the prefix "/beta" overlaps "/beta" of remote "beta"'],
  ])(
    'a prefix %s is refused with the reason, and nothing changes',
    async (prefix, error, message) => {
      const version = `3.0.${Buffer.from(prefix).reduce((a, b) => a + b, 0)}`;
      bucket.version('alpha', version, {
        remote: 'alpha',
        prefixes: ['/alpha', prefix],
        routes: tableOf('alpha', ['/alpha/page', `${prefix}/page`]).routes,
      });
      const before = await manifestText();
      const answer = await call(site, 'PUT', '/remotes/alpha', await groupToken(site, 'alpha'), {
        base: await base(site),
        entry: bucket.entry('alpha', version),
        version,
      });
      expect([answer.status, answer.body.error, String(answer.body.message)]).toEqual([
        422,
        error,
        expect.stringContaining(message),
      ]);
      expect(await manifestText()).toBe(before);
    },
  );
});
