import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRemoteServer, type RemoteHost } from '../remote-host';

/**
 * A remote's static host, over real HTTP on a free port: what a browser on the shell's origin gets
 * for the files of a version folder.
 */
let dir: string;
let host: RemoteHost;
let base: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'remote-host-'));
  const entry = 'var data_remote = {};\n'.repeat(40);
  fs.writeFileSync(path.join(dir, 'remoteEntry.js'), entry);
  fs.writeFileSync(path.join(dir, 'remoteEntry.js.br'), zlib.brotliCompressSync(entry));
  fs.writeFileSync(path.join(dir, 'pages.0123456789.js'), 'export {};\n');
  fs.writeFileSync(path.join(dir, '.secret'), 'no\n');
  host = await createRemoteServer(dir);
  await host.listen(0, '127.0.0.1');
  const address = host.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  base = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await host.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("a remote's static host", () => {
  it('serves the entry to any origin, revalidated on every use, brotli when asked', async () => {
    const response = await fetch(`${base}/remoteEntry.js`, {
      headers: { 'accept-encoding': 'br', origin: 'http://localhost:3000' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(await response.text()).toContain('var data_remote');
  });

  it('keeps a file whose name carries its content hash for a year', async () => {
    const response = await fetch(`${base}/pages.0123456789.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('sends no brotli to a client that refuses it, even when it accepts anything else', async () => {
    const response = await fetch(`${base}/remoteEntry.js`, {
      headers: { 'accept-encoding': 'br;q=0, *' },
    });
    expect(response.headers.get('content-encoding')).not.toBe('br');
  });

  it('answers a missing file, a dotfile and a write with a plain error, never a 500', async () => {
    const missing = await fetch(`${base}/nothing.js`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe('Not found\n');
    expect((await fetch(`${base}/.secret`)).status).toBe(404);
    const post = await fetch(`${base}/remoteEntry.js`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});
