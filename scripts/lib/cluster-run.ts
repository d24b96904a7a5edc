/**
 * The cluster run (`npm run start:cluster`, `npm start -- --replicas N`): its processes, what its
 * operator is told once it answers, and the watch that says when a part hangs.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { balancerWaitsFor, findNginx, writeBalancerConfig } from './cluster';
import { CLUSTER } from './local-ports';
import type { ProcessSpec } from './processes';
import { watchParts } from './watch';

/**
 * The cluster run's metrics token: METRICS_TOKEN, else one made once for this checkout and kept in
 * deploy/.metrics-token, so that every site server and mail-service answers its metrics to it.
 */
const METRICS_TOKEN_FILE = path.join('deploy', '.metrics-token');

function metricsToken(root: string): string {
  if (process.env.METRICS_TOKEN) return process.env.METRICS_TOKEN;
  const file = path.join(root, METRICS_TOKEN_FILE);
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${randomBytes(24).toString('base64url')}\n`, { mode: 0o600 });
  }
  return readFileSync(file, 'utf8').trim();
}

export interface ClusterRun {
  root: string;
  /** The balancer's port: the site's address. */
  port: string;
  replicas: number;
  siteSpec: (name: string, env: Record<string, string>) => ProcessSpec;
  mailSpec: (name: string, env: Record<string, string>) => ProcessSpec;
  /** The database every site server and mail-service shares. */
  databaseUrl: string;
}

/** The cluster run's processes beside PostgreSQL: the site servers, the mail-services, nginx. */
export function clusterSpecs({
  root,
  port,
  replicas,
  siteSpec,
  mailSpec,
  databaseUrl,
}: ClusterRun): ProcessSpec[] {
  const dir = path.join(root, 'deploy', '.cluster');
  mkdirSync(dir, { recursive: true });
  const nginx = findNginx();
  const metrics = metricsToken(root);
  const sitePorts = Array.from({ length: replicas }, (_, i) => CLUSTER.sites + i);
  // The mail-service makes its DATA_DIR one level deep, no more.
  mkdirSync(path.join(root, 'mail-service', '.data'), { recursive: true });
  const config = writeBalancerConfig({
    dir,
    port: Number(port),
    sites: sitePorts,
    mailServices: [...CLUSTER.mailServices],
  });
  return [
    ...sitePorts.map((sitePort, i) =>
      siteSpec(`site-${i + 1}`, {
        PORT: String(sitePort),
        SITE_URL: process.env.SITE_URL ?? `http://localhost:${port}`,
        DATABASE_URL: databaseUrl,
        // The no-script contact form through the load balancer, spread over the mail-services
        // like the visitors' own /api calls (and moved off one that is down).
        MAIL_SERVICE_URL: `http://127.0.0.1:${port}`,
        REPLICA_NAME: `site-${i + 1}`,
        METRICS_TOKEN: metrics,
      }),
    ),
    ...CLUSTER.mailServices.map((mailServicePort, i) =>
      mailSpec(`mail-${i + 1}`, {
        MAIL_SERVICE_PORT: String(mailServicePort),
        DATABASE_URL: databaseUrl,
        DATA_DIR: path.join(root, 'mail-service', '.data', `instance-${i + 1}`),
        METRICS_TOKEN: metrics,
      }),
    ),
    {
      name: 'nginx',
      command: nginx,
      args: ['-p', dir, '-c', config, '-g', 'daemon off;'],
      // Its workers outlive a master that is killed, and keep the port: they go with it.
      ownGroup: true,
      // The site's port opens once a site server answers: before that, nginx could only answer
      // visitors with errors (every replica refusing connections).
      startAfterAnswer: balancerWaitsFor(sitePorts),
    },
  ];
}

/** What the operator of the cluster run is told once it answers: where to look, how to act. */
export function clusterNotes(site: string, replicas: number): string {
  const sites = Array.from({ length: replicas }, (_, i) => CLUSTER.sites + i);
  const token = process.env.METRICS_TOKEN ? '$METRICS_TOKEN' : `$(cat ${METRICS_TOKEN_FILE})`;
  return [
    `Each site server: http://localhost:${sites[0]}/ to :${sites.at(-1)} (site-1 to site-${replicas}); every answer names its replica in X-Replica.`,
    `Health: curl ${site}/_health (alive) and curl http://localhost:${sites[0]}/_ready (ready: 503 with the reasons while its database is away).`,
    `Metrics: curl -H "Authorization: Bearer ${token}" http://localhost:${sites[0]}/_metrics (each site server), and ${site}/api/metrics (the mail-services).`,
    `One part by hand: kill -TERM <pid> stops it and it is started again within a second (the lines above say so); Ctrl-C stops everything. PostgreSQL is on port ${CLUSTER.postgres}, data in deploy/.postgres.`,
  ].join('\n');
}

/** A hung part never exits, so the supervisor cannot tell: the watch says so. */
export function watchCluster(replicas: number): void {
  watchParts([
    ...Array.from({ length: replicas }, (_, i) => ({
      name: `site-${i + 1}`,
      url: `http://127.0.0.1:${CLUSTER.sites + i}/_ready`,
    })),
    ...CLUSTER.mailServices.map((p, i) => ({
      name: `mail-${i + 1}`,
      url: `http://127.0.0.1:${p}/api/health`,
    })),
  ]);
}
