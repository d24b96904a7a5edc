/**
 * @jest-environment node
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testManifest, testRemote, testRoute as route } from '@site/build/testing/manifest';
import { History, rollbackTarget, type HistoryEntry } from '../deploy/history';
import { RefusedError, patchManifest } from '../deploy/patch';
import { SERVER_PATHS, refuseReserved, reservedPaths } from '../deploy/reserved';

const live = () =>
  testManifest([
    testRemote('custom_dev', 'https://cdn.example.com/custom-dev', '/services/custom-dev', [
      '/services/custom-dev/a',
    ]),
    testRemote('data', 'https://cdn.example.com/data', '/services/data', ['/services/data/x']),
  ]);

const published = {
  name: 'data',
  entry: 'https://cdn.example.com/data/1.1.0/remoteEntry.js',
  version: '1.1.0',
};
const table = (routes = [route('/services/data/x'), route('/services/data/y')]) => ({
  remote: 'data',
  prefixes: ['/services/data'],
  routes,
});
const SHELL = ['/', '/about', '/contact'];

describe('patchManifest', () => {
  it('replaces only the published entry and keeps every other entry exactly as it was', () => {
    const before = live();
    const { json, remote } = patchManifest(
      before,
      published,
      table(),
      SHELL,
      new Date('2026-11-23T10:00:00Z'),
    );
    const remotes = json.remotes as typeof before.remotes;
    expect(remotes[0]).toEqual(before.remotes[0]);
    expect(remotes[1]).toMatchObject({ name: 'data', version: '1.1.0', entry: published.entry });
    expect(remote.routes.map((r) => r.path)).toEqual(['/services/data/x', '/services/data/y']);
    expect(json.generatedAt).toBe('2026-11-23T10:00:00.000Z');
  });

  it('adds a group that is not live yet at the end', () => {
    const { json } = patchManifest(
      live(),
      {
        name: 'public_health',
        entry: 'https://cdn.example.com/ph/1.0.0/remoteEntry.js',
        version: '1.0.0',
      },
      {
        remote: 'public_health',
        prefixes: ['/public-health'],
        routes: [route('/public-health/a')],
      },
      SHELL,
    );
    expect((json.remotes as { name: string }[]).map((r) => r.name)).toEqual([
      'custom_dev',
      'data',
      'public_health',
    ]);
  });

  const refusals: [string, () => unknown, RegExp][] = [
    [
      'a path outside its prefixes',
      () => patchManifest(live(), published, table([route('/elsewhere')]), SHELL),
      /outside/,
    ],
    [
      'a path another group owns',
      () =>
        patchManifest(
          live(),
          published,
          {
            ...table([route('/services/custom-dev/a')]),
            prefixes: ['/services/data', '/services/custom-dev'],
          },
          SHELL,
        ),
      /overlaps/,
    ],
    [
      'one of the shell’s own pages',
      () =>
        patchManifest(
          live(),
          published,
          { ...table([route('/about')]), prefixes: ['/about'] },
          SHELL,
        ),
      /shell's own pages/,
    ],
    [
      'a prefix under one of the shell’s own pages',
      () =>
        patchManifest(
          live(),
          published,
          { ...table([route('/about/team')]), prefixes: ['/about/team'] },
          SHELL,
        ),
      /the prefix "\/about\/team" overlaps "\/about", one of the shell's own pages/,
    ],
    [
      'a route table of another remote',
      () => patchManifest(live(), published, { ...table(), remote: 'other' }, SHELL),
      /belongs to "other"/,
    ],
  ];
  it.each(refusals)('refuses %s with the reason', (_name, act, reason) => {
    expect(act).toThrow(RefusedError);
    expect(act).toThrow(reason);
  });

  it('lets a team deploy while another group’s entry is broken, and leaves that entry alone', () => {
    const before = live();
    (before.remotes[0] as Record<string, unknown>).routes = 'broken';
    const { json } = patchManifest(before, published, table(), SHELL);
    expect((json.remotes as unknown[])[0]).toEqual(before.remotes[0]);
  });
});

describe('history', () => {
  const change = (
    from: string | null,
    to: string,
    action: HistoryEntry['action'] = 'deploy',
  ): HistoryEntry => ({
    at: '2026-11-23T10:00:00.000Z',
    by: 'data-team',
    action,
    remote: 'data',
    from: from
      ? { version: from, entry: `https://cdn.example.com/data/${from}/remoteEntry.js` }
      : null,
    to: { version: to, entry: `https://cdn.example.com/data/${to}/remoteEntry.js` },
    reason: `to ${to}`,
    manifestVersion: `m-${to}`,
  });

  it('keeps every change on disk, in order, and reads them back by remote', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'history-'));
    try {
      const history = new History(path.join(dir, 'history.jsonl'));
      await history.append(change(null, '1.0.0'));
      await history.append({ ...change('1.0.0', '1.1.0'), remote: 'data' });
      await history.append({ ...change(null, '1.0.0'), remote: 'custom_dev' });
      expect((await history.read('data')).map((e) => e.to.version)).toEqual(['1.0.0', '1.1.0']);
      expect(await history.read()).toHaveLength(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rolls back to the version live before the current one, or to a named earlier one', () => {
    const changes = [change(null, '1.0.0'), change('1.0.0', '1.1.0'), change('1.1.0', '1.2.0')];
    expect(rollbackTarget(changes, '1.2.0')?.version).toBe('1.1.0');
    expect(rollbackTarget(changes, '1.2.0', '1.0.0')?.entry).toBe(
      'https://cdn.example.com/data/1.0.0/remoteEntry.js',
    );
    expect(rollbackTarget(changes, '1.2.0', '0.9.0')).toBeUndefined();
    expect(rollbackTarget([change(null, '1.0.0')], '1.0.0')).toBeUndefined();
  });

  it('rolls back to what everyone last had: a canary ended or rolled back never was, a promoted one was', () => {
    const before = [change(null, '1.0.0'), change('1.0.0', '1.0.1')];
    const ended = [
      ...before,
      change('1.0.1', '1.0.2', 'canary'),
      change('1.0.2', '1.0.1', 'rollback'),
    ];
    expect(rollbackTarget(ended, '1.0.1')?.version).toBe('1.0.0');
    // A redeploy of the live version moves nothing either.
    expect(rollbackTarget([...ended, change('1.0.1', '1.0.1')], '1.0.1')?.version).toBe('1.0.0');
    const promoted = [...before, change('1.0.1', '1.0.2', 'canary'), change('1.0.1', '1.0.2')];
    expect(rollbackTarget(promoted, '1.0.2')?.version).toBe('1.0.1');
    // A rollback that is no canary's end still counts: rolling back again goes forward.
    const back = [...before, change('1.0.1', '1.0.0', 'rollback')];
    expect(rollbackTarget(back, '1.0.0')?.version).toBe('1.0.1');
    // Named, any version the group has had, a rejected canary's too.
    expect(rollbackTarget(ended, '1.0.1', '1.0.2')?.version).toBe('1.0.2');
  });
});

describe('the paths the site serves itself', () => {
  it('are the server’s own and whatever the shell’s build puts at the root of its public folder', async () => {
    const publicDir = mkdtempSync(path.join(os.tmpdir(), 'public-'));
    try {
      mkdirSync(path.join(publicDir, 'assets'));
      mkdirSync(path.join(publicDir, 'fonts'));
      writeFileSync(path.join(publicDir, 'manifest.webmanifest'), '{}');
      writeFileSync(path.join(publicDir, 'favicon.svg'), '<svg/>');
      const reserved = await reservedPaths(publicDir);
      expect(reserved).toEqual(
        [...new Set([...SERVER_PATHS, '/fonts', '/manifest.webmanifest'])].sort(),
      );
    } finally {
      rmSync(publicDir, { recursive: true, force: true });
    }
  });

  const reserved = ['/api', '/assets', '/favicon.svg'];
  const claiming = (prefixes: string[], paths: string[]) => ({
    remote: 'data',
    prefixes,
    routes: paths.map((p) => route(p)),
  });
  it.each([
    [
      'a prefix that is one',
      ['/assets'],
      ['/assets/x'],
      /the prefix "\/assets" .*overlaps "\/assets"/,
    ],
    ['a prefix under one', ['/api/v2'], ['/api/v2/x'], /the prefix "\/api\/v2" .*overlaps "\/api"/],
    ['a prefix above one', ['/favicon.svg'], ['/favicon.svg'], /overlaps "\/favicon\.svg"/],
    [
      'a percent-encoded one',
      ['/%61ssets'],
      ['/%61ssets/x'],
      /the prefix "\/%61ssets" .*overlaps "\/assets"/,
    ],
    ['anything under /_', ['/_next'], ['/_next/x'], /the prefix "\/_next" .*starts with "\/_"/],
    [
      'a path under /_ in a sound prefix',
      ['/services/x'],
      ['/_x'],
      /the path "\/_x" .*starts with "\/_"/,
    ],
  ])('refuses %s, naming it', (_what, prefixes, paths, reason) => {
    const act = () => refuseReserved(claiming(prefixes, paths), reserved);
    expect(act).toThrow(RefusedError);
    expect(act).toThrow(reason);
  });

  it('lets every other path through, and leaves values that are not paths to the parser', () => {
    expect(() =>
      refuseReserved(claiming(['/apis', '/assets-library'], ['/apis/x']), reserved),
    ).not.toThrow();
    expect(() =>
      refuseReserved(
        { remote: 'data', prefixes: [7, null], routes: [null, {}] } as never,
        reserved,
      ),
    ).not.toThrow();
  });
});
