/**
 * Serves one remote's built files on its own origin, as its static host or CDN path would:
 * `node --import tsx scripts/serve-remote.ts <dist folder> <port>`. Files are public, so any origin may fetch
 * them (the shell fetches mf-manifest.json and chunks cross-origin).
 */
import http from 'node:http';
import path from 'node:path';
import { resolveFile, sendBody, sendFile } from '../shell/server/static-files';

export function createRemoteServer(root: string): http.Server {
  const absolute = path.resolve(root);
  return http.createServer(async (req, res) => {
    const cors = { 'Access-Control-Allow-Origin': '*', 'Timing-Allow-Origin': '*' };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        ...cors,
        'Access-Control-Allow-Methods': 'GET, HEAD',
        'Access-Control-Max-Age': '86400',
      });
      res.end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' });
      res.end();
      return;
    }
    const found = await resolveFile(absolute, new URL(req.url ?? '/', 'http://x').pathname);
    if (!found) {
      sendBody(req, res, {
        status: 404,
        body: 'Not found\n',
        type: 'text/plain; charset=utf-8',
        headers: cors,
      });
      return;
    }
    await sendFile(req, res, found, { headers: cors });
  });
}

if (require.main === module) {
  const [root, port] = process.argv.slice(2);
  if (!root || !port) {
    console.error('usage: serve-remote.ts <dist folder> <port>');
    process.exit(2);
  }
  const server = createRemoteServer(root);
  server.listen(Number(port), () =>
    console.log(`remote ${path.basename(path.resolve(root, '..'))}: http://localhost:${port}/`),
  );
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
