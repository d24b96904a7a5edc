/**
 * Serves page groups' built files, each on its own origin, as their static host or CDN path would
 * (`createRemoteServer` of @site/serving):
 *
 *   node --import tsx scripts/serve-remote.ts --site [<checkout>]
 *     every group in the checkout's site table (this one's by default), each `<folder>/dist` on its
 *     port, all in this one process, following the table as it changes (`npm start` runs this)
 *   node --import tsx scripts/serve-remote.ts <dist folder> <port>
 *     one folder on one port
 */
import path from 'node:path';
import { createRemoteServer } from '@site/serving';
import { GroupHosts } from './lib/group-hosts';

const USAGE = 'usage: serve-remote.ts --site [<checkout>] | serve-remote.ts <dist folder> <port>';

async function serveOne(root: string, port: string): Promise<() => Promise<void>> {
  const host = await createRemoteServer(root);
  await host.listen(Number(port));
  console.log(`remote ${path.basename(path.resolve(root, '..'))}: http://localhost:${port}/`);
  return () => host.close();
}

async function serveSite(root: string): Promise<() => Promise<void>> {
  const hosts = new GroupHosts({ root });
  await hosts.sync();
  hosts.follow();
  return () => hosts.close();
}

if (require.main === module) {
  const args = process.argv.slice(2);
  let start: () => Promise<() => Promise<void>>;
  if (args[0] === '--site' && args.length <= 2) {
    start = () => serveSite(path.resolve(args[1] ?? path.join(__dirname, '..')));
  } else {
    const [root, port] = args;
    if (args.length !== 2 || !root || !port || !/^\d+$/.test(port) || Number(port) > 65535) {
      console.error(USAGE);
      process.exit(2);
    }
    start = () => serveOne(root, port);
  }
  void start().then((close) => {
    const stop = () => void close().then(() => process.exit(0));
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}
