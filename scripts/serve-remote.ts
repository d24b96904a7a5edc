/**
 * Serves one remote's built files on its own origin, as its static host or CDN path would:
 * `node --import tsx scripts/serve-remote.ts <dist folder> <port>` (`createRemoteServer` of
 * @site/serving).
 */
import path from 'node:path';
import { createRemoteServer } from '@site/serving';

if (require.main === module) {
  const [root, port] = process.argv.slice(2);
  if (!root || !port || !/^\d+$/.test(port) || Number(port) > 65535) {
    console.error('usage: serve-remote.ts <dist folder> <port>');
    process.exit(2);
  }
  void createRemoteServer(root).then(async (host) => {
    await host.listen(Number(port));
    console.log(`remote ${path.basename(path.resolve(root, '..'))}: http://localhost:${port}/`);
    const stop = () => void host.close().then(() => process.exit(0));
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}
