/**
 * @jest-environment node
 */
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { DeploymentManifest, RemoteDeployment } from '@site/contracts';
import { sha256Integrity } from '@site/contracts/integrity';
import { lineLogger } from '../http/logger';
import { frame, readFrames } from '../render/channel';
import { chooseWall } from '../render/launcher';
import { RenderPools } from '../render/pools';
import { RandomText, fuzzSeed } from './random-text';

/**
 * The channel between the site server and its render processes carries any text intact: the
 * framing alone, cut into random chunks, and real render processes given route tables and code
 * full of the characters that once split a message (U+2028, U+2029, NUL, lone surrogates).
 */
const SHELL_SERVER_DIR = path.join(__dirname, '..', '..', 'dist', 'server');
const seed = fuzzSeed();

beforeAll(async () => {}, 180_000);

describe('the framing', () => {
  test('a frame is one line: no newline, U+2028 or U+2029 inside, whatever the text', () => {
    const text = 'a\u2028b\u2029c\nd\re\0f\ud800g';
    const line = frame({ text });
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toMatch(/[\n\r\u2028\u2029\0]/);
    expect(JSON.parse(line)).toEqual({ text });
  });

  test(`random messages cut into random chunks come out whole and in order (seed ${seed})`, async () => {
    const random = new RandomText(seed);
    const sent = Array.from({ length: 300 }, (_, i) => ({
      i,
      text: random.string(random.next() < 0.1 ? 20_000 : 200, { loneSurrogates: true }),
      list: [random.string(20, { loneSurrogates: true }), random.string(5)],
    }));
    const bytes = Buffer.from(sent.map((m) => frame(m)).join(''), 'utf8');
    const stream = new PassThrough();
    const received: unknown[] = [];
    const overflows: number[] = [];
    readFrames(
      stream,
      1024 * 1024,
      (line) => received.push(JSON.parse(line)),
      (n) => overflows.push(n),
    );
    for (let at = 0; at < bytes.length;) {
      // Chunks of 1 byte to 64 KB: a cut falls inside characters and escapes alike.
      const size = random.int(1, random.next() < 0.2 ? 8 : 65_536);
      stream.write(bytes.subarray(at, at + size));
      at += size;
    }
    stream.end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(overflows).toEqual([]);
    expect(received).toEqual(sent);
  });

  test('a line past the bound is never held whole: the reader says so and reads no more', () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    const overflows: number[] = [];
    readFrames(
      stream,
      100,
      (l) => lines.push(l),
      (n) => overflows.push(n),
    );
    stream.write(frame({ ok: 1 }));
    stream.write('x'.repeat(150));
    stream.write(frame({ ok: 2 }));
    expect(lines).toEqual(['{"ok":1}']);
    expect(overflows).toEqual([150]);
  });
});

describe('real render processes', () => {
  const PREFIX = '/fuzz';
  const PATHS = ['/fuzz/a', '/fuzz/b', '/fuzz/c'];

  /** A group's Node build whose pages draw `texts`, one each: the code itself crosses the channel. */
  const pagesJs = (texts: readonly string[]) => `const React = require('react');
const texts = ${JSON.stringify(texts)};
exports.pages = Object.fromEntries(${JSON.stringify(PATHS)}.map((p, i) => [
  p,
  () => Promise.resolve({ default: () => React.createElement('p', { id: 'fuzzed' }, texts[i]) }),
]));
`;

  const unescapeHtml = (s: string) =>
    s.replace(/&(#x?[0-9a-f]+|quot|amp|lt|gt);/gi, (_, e: string) => {
      const named: Record<string, string> = { quot: '"', amp: '&', lt: '<', gt: '>' };
      return (
        named[e] ??
        String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10))
      );
    });

  test(`route tables and pages of random text cross both ways intact, and no process ends (seed ${seed})`, async () => {
    const random = new RandomText(seed ^ 0x5a5a5a5a);
    const builds = new Map<string, string>();
    const pools = await RenderPools.create({
      shellServerDir: SHELL_SERVER_DIR,
      wall: chooseWall('nobody'),
      shellProcesses: 1,
      groupProcesses: 1,
      timeoutMs: 10_000,
      maxPageBytes: 4 * 1024 * 1024,
      memoryMb: 256,
      groupMemoryMb: 1024,
      previewPools: 2,
      fetchBuild: (url) => Promise.resolve(builds.get(url) ?? ''),
      log: lineLogger(() => undefined),
    });
    try {
      for (let v = 0; v < 4; v++) {
        const version = `1.0.${v}`;
        const origin = 'http://127.0.0.1:9/fuzz';
        const texts = PATHS.map(() => random.string(3000, { loneSurrogates: true }));
        const code = pagesJs(texts);
        builds.set(`${origin}/${version}/server/pages.js`, code);
        const routes = PATHS.map((p) => ({
          path: p,
          title: random.string(200, { loneSurrogates: true }),
          description: random.string(500, { loneSurrogates: true }),
          group: random.string(40, { loneSurrogates: true }),
          navLabel: random.string(40, { loneSurrogates: true }),
        }));
        const remote = {
          name: 'fuzz',
          version,
          entry: `${origin}/${version}/remoteEntry.js`,
          prefixes: [PREFIX],
          routes,
          serverIntegrity: sha256Integrity(code),
        } as RemoteDeployment;
        const manifest = {
          schemaVersion: 1,
          generatedAt: '2026-01-01T00:00:00.000Z',
          remotes: [remote],
        } as DeploymentManifest;
        const pool = pools.group(remote);
        let pids: number[] | undefined;
        for (const [i, route] of routes.entries()) {
          const where = `seed ${seed}, version ${version}, ${route.path}`;
          const reply = await pool.render({ part: 'page', manifest, path: route.path });
          expect([where, reply.failure]).toEqual([where, null]);
          expect([where, reply.meta.title]).toEqual([where, route.title]);
          expect([where, reply.meta.description]).toEqual([where, route.description]);
          const drawn = /<p id="fuzzed">([\s\S]*?)<\/p>/.exec(reply.html)?.[1];
          expect([where, unescapeHtml(drawn ?? '')]).toEqual([where, texts[i]]);
          pids ??= pool.processes;
          expect([where, pool.processes]).toEqual([where, pids]);
        }
        // The shell's frame draws the group's navigation labels from the same table.
        const shellPids = pools.shell.processes;
        const frameReply = await pools.shell.render({ part: 'frame', manifest, path: '/' });
        expect(frameReply.failure).toBeNull();
        if (shellPids.length) expect(pools.shell.processes).toEqual(shellPids);
      }
    } finally {
      await pools.close();
    }
  }, 120_000);
});
