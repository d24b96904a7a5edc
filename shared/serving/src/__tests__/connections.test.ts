import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRemoteServer, type RemoteHost } from '../remote-host';
import { CONNECTION_LIMITS, openFileLimit, type ConnectionLimits } from '../connections';

/**
 * A static host's connections, over real sockets: a request whose headers or body never arrive is
 * closed within its bound, and one client address cannot hold more than its share of connections
 * while a visitor from another address is served.
 */
const LIMITS: ConnectionLimits = {
  headersTimeoutMs: 500,
  requestTimeoutMs: 1000,
  keepAliveTimeoutMs: 1000,
  maxPerClient: 20,
  maxConnections: 10_000,
};

let dir: string;
let host: RemoteHost;
let port: number;
const sockets: net.Socket[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'host-connections-'));
  fs.writeFileSync(path.join(dir, 'remoteEntry.js'), 'var entry = {};\n');
  host = await createRemoteServer(dir, { limits: LIMITS });
  await host.listen(0, '127.0.0.1');
  const address = host.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  port = address.port;
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});
afterAll(async () => {
  await host.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A connection from `from` that sends `data` and nothing more; resolves once it is open. */
function connect(data: string, from = '127.0.0.1'): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: from }, () => {
      if (data) socket.write(data);
      resolve(socket);
    });
    socket.once('error', reject);
    sockets.push(socket);
  });
}

/** What the server sent before it closed the connection, and when it closed it. */
function closed(socket: net.Socket): Promise<{ text: string; at: number }> {
  let text = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (text += chunk));
  socket.on('error', () => undefined);
  return new Promise((resolve) => socket.once('close', () => resolve({ text, at: Date.now() })));
}

describe("a static host's connections", () => {
  test.each([
    [
      'a body declared and never sent',
      'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 60000\r\n\r\n',
      'requestTimeoutMs',
    ],
    ['headers that never end', 'GET /remoteEntry.js HTTP/1.1\r\nHost: x\r\n', 'headersTimeoutMs'],
    ['a connection that says nothing', '', 'headersTimeoutMs'],
  ] as const)('%s: closed with 408 within its bound', async (_what, data, bound) => {
    const started = Date.now();
    const socket = await connect(data);
    const { text, at } = await closed(socket);
    // (A POST is refused at once, 405, before its body; the connection still waits for the body.)
    expect(text).toMatch(/HTTP\/1\.1 408 Request Timeout\r\n[^]*$/);
    // The bound, plus the server's check interval and a margin for a busy machine.
    expect(at - started).toBeGreaterThanOrEqual(LIMITS[bound] - 50);
    expect(at - started).toBeLessThan(LIMITS[bound] + 1500);
  });

  test('an address past its share of connections is turned away; a visitor from another is served', async () => {
    const hoarded = await Promise.all(
      Array.from({ length: 200 }, () => connect('GET / HTTP/1.1\r\nHost: x\r\n', '127.0.0.2')),
    );
    // Each connection's whole answer, read until the server closes it: one past the address's
    // share is turned away at once (503); one within it is held like any other until its headers'
    // bound (408), so no timer of the test's own has to tell the two apart.
    const answers = await Promise.all(hoarded.map((socket) => closed(socket)));
    const held = answers.filter((a) => a.text.startsWith('HTTP/1.1 408 '));
    const refused = answers.filter((a) => a.text.startsWith('HTTP/1.1 503 '));
    expect(held).toHaveLength(LIMITS.maxPerClient);
    expect(refused).toHaveLength(200 - LIMITS.maxPerClient);
    const visitor = await fetch(`http://127.0.0.1:${port}/remoteEntry.js`);
    expect(visitor.status).toBe(200);
    expect(await visitor.text()).toBe('var entry = {};\n');
  });
});

describe('the default limits', () => {
  test('are stated and fit the file descriptors this process may open', () => {
    expect(CONNECTION_LIMITS.headersTimeoutMs).toBe(10_000);
    expect(CONNECTION_LIMITS.requestTimeoutMs).toBe(30_000);
    expect(CONNECTION_LIMITS.keepAliveTimeoutMs).toBe(72_000);
    expect(CONNECTION_LIMITS.maxPerClient).toBe(256);
    const files = openFileLimit();
    if (files !== undefined) expect(CONNECTION_LIMITS.maxConnections).toBeLessThan(files);
  });
});
