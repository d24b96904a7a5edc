/**
 * Serves page groups' built files, each on its own origin, as their static host or CDN path would
 * (`createRemoteServer` of @site/serving):
 *
 *   node --import tsx scripts/serve-remote.ts --site <checkout>
 *     every group in the checkout's site table, each `<folder>/dist` on its port, all in this one
 *     process, following the table as it changes (`npm start` runs this)
 *   node --import tsx scripts/serve-remote.ts --dist <dist folder> --port <port>
 *     one folder on one port
 */
import path from 'node:path';
import { createRemoteServer } from '@site/serving';
import { GroupHosts } from './lib/group-hosts';
import { ArgsError, readArgs, wholeNumber } from './lib/args';

const USAGE =
  'usage: serve-remote.ts --site <checkout> | serve-remote.ts --dist <dist folder> --port <port>';

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
  let start: () => Promise<() => Promise<void>>;
  try {
    const values = readArgs(
      process.argv.slice(2),
      { site: { type: 'string' }, dist: { type: 'string' }, port: { type: 'string' } },
      { site: '.', dist: 'mfe-data/dist', port: '3002' },
    );
    if (values.site !== undefined && values.dist === undefined && values.port === undefined) {
      const checkout = path.resolve(values.site);
      start = () => serveSite(checkout);
    } else if (values.site === undefined && values.dist !== undefined) {
      const { dist } = values;
      const port = wholeNumber('port', values.port, 1, 65535);
      if (port === undefined) throw new ArgsError('--dist needs --port');
      start = () => serveOne(dist, String(port));
    } else throw new ArgsError('give --site, or --dist with --port');
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    process.exit(2);
  }
  void start().then((close) => {
    const stop = () => void close().then(() => process.exit(0));
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}
