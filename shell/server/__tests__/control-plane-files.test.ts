/**
 * @jest-environment node
 */
import { lineLogger } from '../http/logger';
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ControlPlaneUnavailableError, StaleManifestError, live } from '../control-plane';
import { FileControlPlane } from '../control-plane/files';
import { deployDirWith, deployOf, manifestJson } from './control-plane-helpers';

describe('the control plane in files (one site server)', () => {
  test('a change writes the manifest and then its history line; a stale base writes neither', async () => {
    const dir = deployDirWith(manifestJson('1.0.0'));
    const store = new FileControlPlane(
      dir,
      lineLogger(() => undefined),
    );
    try {
      const before = await store.start();
      expect(before.version).toBe(
        live(readFileSync(path.join(dir, 'remotes.json'), 'utf8')).version,
      );
      const after = await store.publish(
        manifestJson('1.1.0'),
        before.version,
        deployOf(before, '1.1.0'),
      );
      const text = readFileSync(path.join(dir, 'remotes.json'), 'utf8');
      expect(live(text).version).toBe(after.version);
      expect(store.peek()?.version ?? (await store.get()).version).toBe(after.version);
      expect(await store.history('data')).toEqual([
        expect.objectContaining({
          action: 'deploy',
          from: expect.objectContaining({ version: '1.0.0' }) as unknown,
          to: expect.objectContaining({ version: '1.1.0' }) as unknown,
          manifestVersion: after.version,
        }),
      ]);

      await expect(
        store.publish(manifestJson('1.2.0'), before.version, deployOf(before, '1.2.0')),
      ).rejects.toEqual(new StaleManifestError(after.version));
      expect(readFileSync(path.join(dir, 'remotes.json'), 'utf8')).toBe(text);
      expect(await store.history()).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  test('a hand edit of remotes.json is what the store serves next', async () => {
    const dir = deployDirWith(manifestJson('1.0.0'));
    const store = new FileControlPlane(
      dir,
      lineLogger(() => undefined),
      50,
    );
    try {
      await store.start();
      expect(await store.history()).toEqual([]);
      writeFileSync(path.join(dir, 'remotes.json'), `${JSON.stringify(manifestJson('2.0.0'))}\n`);
      const edited = live(readFileSync(path.join(dir, 'remotes.json'), 'utf8')).version;
      for (let i = 0; i < 100 && (await store.get()).version !== edited; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect((await store.get()).manifest.remotes.find((r) => r.name === 'data')?.version).toBe(
        '2.0.0',
      );
    } finally {
      await store.close();
    }
  });

  test('group tokens made together are all kept; a token file that does not parse refuses every token rather than reading as none', async () => {
    const dir = deployDirWith(manifestJson('1.0.0'));
    const store = new FileControlPlane(
      dir,
      lineLogger(() => undefined),
    );
    const made = await Promise.all(
      ['alpha', 'beta', 'gamma', 'delta'].map((group) => store.tokens.create([group])),
    );
    expect((await store.tokens.list()).map((t) => t.groups[0])).toEqual([
      'alpha',
      'beta',
      'gamma',
      'delta',
    ]);
    for (const { token, record } of made) {
      expect(await store.tokens.verify(token)).toEqual(record);
    }
    writeFileSync(path.join(dir, 'group-tokens.json'), '{"tokens": [');
    await expect(store.tokens.verify(made[0]!.token)).rejects.toThrow(ControlPlaneUnavailableError);
    await expect(store.tokens.create(['alpha'])).rejects.toThrow(
      /the group tokens in .*group-tokens\.json are not valid .*; nothing was changed/,
    );
    expect(readFileSync(path.join(dir, 'group-tokens.json'), 'utf8')).toBe('{"tokens": [');
  });

  test("the deploy folder is its owner's alone: the render processes' user reads nothing in it", async () => {
    const dir = deployDirWith(manifestJson('1.0.0'));
    // As a checkout leaves it: readable by everyone.
    chmodSync(dir, 0o755);
    const store = new FileControlPlane(
      dir,
      lineLogger(() => undefined),
    );
    try {
      const before = await store.start();
      await store.publish(manifestJson('1.1.0'), before.version, deployOf(before, '1.1.0'));
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      if (process.getuid?.() === 0) {
        // The render processes' user (nobody, 65534), as the site server starts them.
        const read = spawnSync(
          process.execPath,
          ['-e', `require('fs').readFileSync(${JSON.stringify(path.join(dir, 'history.jsonl'))})`],
          { uid: 65534, gid: 65534, encoding: 'utf8' },
        );
        expect(read.status).not.toBe(0);
        expect(read.stderr).toContain('EACCES');
      }
    } finally {
      await store.close();
    }
  });
});
