import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';
import { SITE_REMOTES } from '@site/contracts/site';
import { testRoute } from '@site/build/testing/manifest';
import { ROOT, changesOf, test, type TestDeployment } from '../support/deployment';
import { groupToken } from '../support/team-commands';

/**
 * One team cannot move another team's group or take the site's own paths: the data team, with its
 * own deploy token, tries through the site's deploy API (a real site server process, the data team's
 * own static host serving built copies of groups) what any team could before credentials were per
 * group. Ports: the site 3115, the data team's host 3116, a second host of public health's 3117.
 */
const OPERATOR = 'credentials-operator-token-0123456789';
const SITE = 'http://localhost:3115';
const DATA_HOST = 'http://localhost:3116';
const HEALTH_HOST = 'http://localhost:3117';
const LOCAL = Object.fromEntries(SITE_REMOTES.map((r) => [r.name, `http://localhost:${r.port}`]));

async function api(method: string, route: string, token: string, body?: unknown) {
  const response = await fetch(`${SITE}/_deploy${route}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A token for `groups`, made by the site's operator with `npm run deploy-token`. */
function deployToken(...groups: string[]): string {
  return groupToken(SITE, OPERATOR, ...groups);
}

/** A group's Node build whose every page says the data team was there. */
const defaced = (paths: string[]) => `const React = require('react');
const Page = () => React.createElement('h1', null, 'Taken over by the data team');
exports.pages = Object.fromEntries(${JSON.stringify(paths)}.map((p) => [p, () => Promise.resolve({ default: Page })]));
`;

/**
 * The data team's bucket: built copies of groups, each version changed as a hostile team would
 * change it (its route table, and a Node build that renders every path the table claims, so that
 * every check but the ones this test is about passes).
 */
function hostileBucket(
  versions: Record<string, { from: string; table: (table: Record<string, unknown>) => void }>,
): string {
  const dist = path.join(ROOT, 'tests', '.tmp', `credentials-${process.pid}-${Date.now()}`);
  rmSync(dist, { recursive: true, force: true });
  for (const [version, { from, table }] of Object.entries(versions)) {
    const folder = path.join(dist, version);
    cpSync(path.join(ROOT, from, 'dist', '1.0.0'), folder, { recursive: true });
    const file = path.join(folder, 'routes.json');
    const routes = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    table(routes);
    writeFileSync(file, JSON.stringify(routes));
    const paths = (routes.routes as { path: string }[]).map((r) => r.path);
    writeFileSync(path.join(folder, 'server', 'pages.js'), defaced(paths));
  }
  return dist;
}

async function startSite(deployment: TestDeployment, bucket: string): Promise<void> {
  await deployment.startSite(3115, {
    deploy: {
      token: OPERATOR,
      allowedOrigins: [...Object.values(LOCAL), DATA_HOST, HEALTH_HOST],
    },
  });
  await deployment.writeManifest({});
  await deployment.startRemote(bucket, 3116);
  await deployment.startRemote(path.join(ROOT, 'mfe-public-health', 'dist'), 3117);
}

/** Every public-health page as a visitor gets it now. */
async function healthPages(): Promise<string[]> {
  const table = JSON.parse(
    readFileSync(path.join(ROOT, 'mfe-public-health', 'src', 'routes.json'), 'utf8'),
  ) as { routes: { path: string }[] };
  return Promise.all(
    table.routes.map(async (r) => {
      const response = await fetch(`${SITE}${r.path}`);
      return `${response.status} ${await response.text()}`;
    }),
  );
}

test.describe("a team's deploy token moves its own group only", () => {
  test("the data team's token cannot publish, preview, canary, promote or roll back public_health, nor release it; nothing changes", async ({
    deployment,
  }) => {
    test.setTimeout(120_000);
    const bucket = hostileBucket({
      // Public health's own build, its pages replaced by the data team's.
      '6.6.6': { from: 'mfe-public-health', table: () => undefined },
    });
    await startSite(deployment, bucket);
    const live = async () => (await api('GET', '/manifest', OPERATOR)).body.version as string;
    // The operator moves public health to its second host and releases two groups: the history
    // now has a version to roll back to and a release to take back.
    const moved = await api('PUT', '/remotes/public_health', OPERATOR, {
      base: await live(),
      entry: `${HEALTH_HOST}/1.0.0/remoteEntry.js`,
      version: '1.0.0',
      by: 'operator',
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const released = await api('POST', '/releases', OPERATOR, {
      base: await live(),
      entries: [
        { name: 'data', entry: `${LOCAL.data}/1.0.0/remoteEntry.js`, version: '1.0.0' },
        {
          name: 'public_health',
          entry: `${LOCAL.public_health}/1.0.0/remoteEntry.js`,
          version: '1.0.0',
        },
      ],
    });
    expect(released.status, JSON.stringify(released.body)).toBe(200);

    const dataToken = deployToken('data');
    const manifestBefore = await deployment.storedManifest();
    const historyBefore = (await api('GET', '/history', OPERATOR)).body.history;
    const pagesBefore = await healthPages();
    expect(pagesBefore.join('')).not.toContain('Taken over');

    const base = await live();
    const hostile = { base, entry: `${DATA_HOST}/6.6.6/remoteEntry.js`, version: '6.6.6' };
    const attempts: [string, string, string, Record<string, unknown>][] = [
      ['publish', 'PUT', '/remotes/public_health', hostile],
      ['preview', 'PUT', '/remotes/public_health', { ...hostile, preview: true }],
      ['canary', 'PUT', '/remotes/public_health', { ...hostile, canary: 50 }],
      ['promote', 'PUT', '/remotes/public_health', { ...hostile, reason: 'promote 6.6.6' }],
      ['roll back', 'POST', '/remotes/public_health/rollback', { base }],
      ['roll back to a version', 'POST', '/remotes/public_health/rollback', { base, to: '1.0.0' }],
      [
        'release with its own group',
        'POST',
        '/releases',
        {
          base,
          entries: [
            { name: 'data', entry: `${LOCAL.data}/1.0.0/remoteEntry.js`, version: '1.0.0' },
            { name: 'public_health', ...hostile, base: undefined },
          ],
        },
      ],
      [
        'take a release back',
        'POST',
        `/releases/${String(released.body.release)}/rollback`,
        { base },
      ],
    ];
    for (const [what, method, route, body] of attempts) {
      const answer = await api(method, route, dataToken, JSON.parse(JSON.stringify(body)));
      expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBe(403);
      expect(answer.body.error, what).toBe('group_not_allowed');
      expect(String(answer.body.message), what).toMatch(
        /^the deploy token group:data#[0-9a-f]{12} may change only data, not public_health; nothing was changed$/,
      );
      expect(await deployment.storedManifest(), what).toBe(manifestBefore);
    }
    expect((await api('GET', '/history', OPERATOR)).body.history).toEqual(historyBefore);
    expect(await healthPages()).toEqual(pagesBefore);

    // Its own group it can move, and the history names each credential, never a token.
    const own = await api('PUT', '/remotes/data', dataToken, {
      base,
      entry: `${LOCAL.data}/1.0.0/remoteEntry.js`,
      version: '1.0.0',
      by: 'data-ci',
    });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    type Entry = { action?: unknown; by: string; credential: string; remote: string };
    const history = changesOf<Entry>((await api('GET', '/history', OPERATOR)).body.history);
    const id = /#([0-9a-f]{12})$/.exec(String(own.body.credential))?.[1];
    expect(dataToken).toContain(`_${id}_`);
    expect(history.map((e) => [e.remote, e.by, e.credential])).toEqual([
      ['public_health', 'operator', 'operator'],
      ['data', 'unknown', 'operator'],
      ['public_health', 'unknown', 'operator'],
      ['data', 'data-ci', `group:data#${id}`],
    ]);
    // The team's own token reads its own group's history alone.
    const ownHistory = changesOf<Entry>((await api('GET', '/history', dataToken)).body.history);
    expect(ownHistory.map((e) => [e.remote, e.by])).toEqual([
      ['data', 'unknown'],
      ['data', 'data-ci'],
    ]);
    // What the control plane keeps (the history, the tokens' records) holds no token's secret.
    const stored = await deployment.storedRecords();
    expect(stored).toContain('data-ci');
    expect(stored).not.toContain(dataToken);
    // The secret is all after `gdt_<id>_`: base64url, so it may hold `_` itself.
    const secret = dataToken.slice(`gdt_${id}_`.length);
    expect(secret).toHaveLength(43);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(OPERATOR);
    rmSync(bucket, { recursive: true, force: true });
  });

  test("an entry claiming the site's own paths or another group's prefix is refused with the reason; nothing changes", async ({
    deployment,
  }) => {
    test.setTimeout(120_000);
    const index = readFileSync(path.join(ROOT, 'shell', 'dist', 'public', 'index.html'), 'utf8');
    const mainScript = /src="?(\/assets\/main\.[^" >]+\.js)/.exec(index)?.[1];
    expect(mainScript).toBeDefined();
    /** The data group's build, also claiming `prefix` with a page at `page`. */
    const claiming = (prefix: string, page: string) => ({
      from: 'mfe-data',
      table: (table: Record<string, unknown>) => {
        (table.prefixes as string[]).push(prefix);
        (table.routes as unknown[]).push(testRoute(page));
      },
    });
    const claims: [string, string, string, string, RegExp][] = [
      [
        '9.1.1',
        '/assets',
        mainScript!,
        'reserved_path',
        /"\/assets" cannot be a group's: it overlaps "\/assets", which the site serves itself/,
      ],
      [
        '9.1.2',
        '/favicon.svg',
        '/favicon.svg',
        'reserved_path',
        /"\/favicon\.svg" cannot be a group's: it overlaps "\/favicon\.svg", which the site serves itself/,
      ],
      [
        '9.1.3',
        '/api',
        '/api/sendmail',
        'reserved_path',
        /"\/api" cannot be a group's: it overlaps "\/api", which the site serves itself/,
      ],
      [
        '9.1.4',
        '/_deploy',
        '/_deploy/manifest',
        'reserved_path',
        /"\/_deploy" cannot be a group's: it starts with "\/_", which the site keeps for itself/,
      ],
      [
        '9.1.5',
        '/remotes.json',
        '/remotes.json',
        'reserved_path',
        /"\/remotes\.json" cannot be a group's: it overlaps "\/remotes\.json", which the site serves itself/,
      ],
      [
        '9.1.6',
        '/public-health',
        '/public-health/MandE-tools',
        'invalid_entry',
        /the prefix "\/public-health" overlaps "\/public-health" of remote "public_health"/,
      ],
      [
        '9.1.7',
        '/about/team',
        '/about/team',
        'invalid_entry',
        /the prefix "\/about\/team" overlaps "\/about", one of the shell's own pages/,
      ],
    ];
    const bucket = hostileBucket(
      Object.fromEntries(
        claims.map(([version, prefix, page]) => [version, claiming(prefix, page)]),
      ),
    );
    await startSite(deployment, bucket);
    const dataToken = deployToken('data');
    const manifestBefore = await deployment.storedManifest();
    const base = (await api('GET', '/manifest', dataToken)).body.version as string;

    for (const [version, prefix, , error, reason] of claims) {
      const answer = await api('PUT', '/remotes/data', dataToken, {
        base,
        entry: `${DATA_HOST}/${version}/remoteEntry.js`,
        version,
      });
      expect(answer.status, `${prefix}: ${JSON.stringify(answer.body)}`).toBe(422);
      expect(answer.body.error, prefix).toBe(error);
      expect(String(answer.body.message), prefix).toMatch(reason);
      expect(await deployment.storedManifest(), prefix).toBe(manifestBefore);
    }
    expect(changesOf((await api('GET', '/history', OPERATOR)).body.history)).toEqual([]);

    // The site's own answers are as they were.
    const script = await fetch(`${SITE}${mainScript}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
    const icon = await fetch(`${SITE}/favicon.svg`);
    expect(icon.headers.get('content-type')).toContain('image/svg+xml');
    expect(await (await fetch(`${SITE}/remotes.json`)).text()).toBe(manifestBefore);
    expect((await healthPages()).join('')).not.toContain('Taken over');
    rmSync(bucket, { recursive: true, force: true });
  });
});
