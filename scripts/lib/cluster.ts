/**
 * The pieces of the local cluster run (`npm run start:cluster`) that the single-process run does
 * not have: a load balancer (Debian's nginx) in front of several site servers and mail-services,
 * and a PostgreSQL they share.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const NGINX_PATHS = ['/usr/sbin/nginx', '/usr/bin/nginx'];

/** Debian's nginx, installed when it is missing and this user may install packages. */
export function findNginx(): string {
  const found = NGINX_PATHS.find((p) => existsSync(p));
  if (found) return found;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root || !existsSync('/usr/bin/apt-get')) {
    throw new Error(
      'the cluster run needs nginx as its load balancer: install it (Debian: apt-get install nginx)',
    );
  }
  console.log('installing nginx (Debian) for the load balancer…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', 'nginx'], { stdio: 'inherit', env });
  const installed = NGINX_PATHS.find((p) => existsSync(p));
  if (!installed) throw new Error('nginx was installed but is not where Debian puts it');
  return installed;
}

export interface BalancerOptions {
  /** Where its configuration, pid and temporary files go. */
  dir: string;
  port: number;
  sites: number[];
  mailServices: number[];
  /** Whether it keeps public answers for a second (`BALANCER_CACHE`); on unless told otherwise. */
  cache?: boolean;
  /** nginx's worker processes: one per core unless told otherwise (a benchmark's fair share). */
  workers?: number;
}

/**
 * The balancer's short cache of public answers. The site server composes each page once and keeps
 * it, but nginx serves a kept copy faster than the site server can (`docs/performance.md`); held
 * for one second, a page a thousand visitors ask for each second reaches a replica once, and a
 * deploy is still seen within about a second. What the site server says decides what is kept:
 *
 * - kept: a 200 answer to a GET or HEAD whose Cache-Control is `no-cache` (pages, `/remotes.json`
 *   and the shell's unhashed files: "ask again"; the balancer asks again each second) or starts
 *   with `public` (hashed files, the sitemap, robots.txt: held one second too, never longer);
 * - never kept: anything `private` or `no-store` (preview pages and manifests, every page and
 *   manifest while a canary runs, health, metrics, errors, the beacon), anything with a
 *   `Set-Cookie` (nginx's own rule, kept), anything without a Cache-Control, any other status;
 * - never served from it: a request carrying the preview or canary cohort cookie (its answer is
 *   its own), any method but GET and HEAD (nginx's own rule), `/api/` and `/_deploy/`.
 *
 * The key holds the request's Accept-Encoding as it was sent, so a gzip, br or uncompressed answer
 * only ever reaches a visitor who asked in the same words (and `Vary`, which nginx also honours,
 * says the same). Visitors get the site server's Cache-Control unchanged (a browser and a CDN
 * still revalidate every page, answered 304 from the kept copy by its ETag), and `X-Cache-Status`
 * says how the balancer answered (HIT, MISS, EXPIRED, BYPASS). A page asked for by many visitors at
 * once is fetched once (`lock`) and the others wait for it. No kept copy is served while it is
 * fetched again (no `proxy_cache_use_stale updating`): when the fresh answer may not be kept (a
 * canary has started: pages are private), the copy would stay stale, and under steady traffic
 * some request is always fetching, so visitors would get the old page for as long as it lasts.
 */
export const BALANCER_CACHE = {
  validS: 1,
  /** Cookies whose holder sees a view of its own: a preview, a canary cohort. */
  privateCookies: ['site_preview', 'site_cohort'],
} as const;

/** What the balancer waits for before it first starts: any site server's liveness answer. */
export const balancerWaitsFor = (sites: readonly number[]): string[] =>
  sites.map((port) => `http://127.0.0.1:${port}/_health`);

/**
 * How the balancer tells a replica that stopped answering from a slow one. A replica that is hung
 * (stopped, or stuck in a loop) still accepts connections (the kernel does), so only the read and
 * send timeouts notice it: a page or `/api` request waits at most `readMs` for the first byte
 * before nginx gives up on that replica and asks the next one. After `maxFails` such failures
 * within `failTimeoutS` the replica is skipped for `failTimeoutS`, then tried with one request
 * again. `maxFails` is more than one so that a burst of slow answers (replicas starting together,
 * a group's first render on a cold machine) does not take every replica out at once; should every
 * replica still be marked failed, each is also listed as a backup that is never marked, so nginx
 * keeps asking instead of answering "no live upstreams".
 */
export const BALANCER_TIMEOUTS = {
  connectMs: 1000,
  sendMs: 2000,
  readMs: 2000,
  maxFails: 3,
  failTimeoutS: 10,
  /**
   * When no replica answered a page within `readMs` (they are all starting, or all busy composing
   * the same cold page, the others refusing connections), a GET or HEAD is asked once more, with
   * this much patience: a visitor waits for the page rather than getting the balancer's error.
   * Never a POST: it may have reached a replica already.
   */
  patientMs: 20_000,
  /** A change (deploy, rollback, release) runs its checks: it may take this long, and is never retried. */
  changeMs: 120_000,
} as const;

/**
 * nginx as the load balancer: pages to the site servers, `/api/` to the mail-services. A server
 * that refuses connections, does not answer within the timeouts above, or answers 502/504 is
 * skipped for the request (passive health checks: `max_fails`, `fail_timeout`,
 * `proxy_next_upstream`), so a dead replica costs at most the requests that were in flight on it,
 * and a hung one about `readMs`. The failure counts live in shared memory (`zone`), so every nginx
 * worker skips a failed replica at once. Deploys (`/_deploy/`) go to the first site server while
 * it is up (the others are its backups); nginx retries only their reads on another one, never a
 * change: nginx would pass a PUT on (it counts PUT as idempotent), and a deploy whose site server
 * died after its commit would then be refused by the next one as stale. A client that lost the
 * answer to a change reads the manifest for the outcome instead (`npm run deploy` does). A
 * mail-service's own 503 (its database is out of reach: the other instance shares it) is passed to
 * the visitor as it is, and does not count as a failure: the instance is alive, and marking both
 * down would leave visitors nginx's own error page instead of the form's words.
 */
export function writeBalancerConfig({
  dir,
  port,
  sites,
  mailServices,
  cache = true,
  workers,
}: BalancerOptions): string {
  mkdirSync(path.join(dir, 'logs'), { recursive: true });
  // nginx's workers drop root's rights: they must reach the cache folder it makes here.
  chmodSync(dir, 0o755);
  const c = BALANCER_CACHE;
  const ownView = c.privateCookies.map((name) => `$cookie_${name}`).join('');
  const t = BALANCER_TIMEOUTS;
  const server = (p: number, extra = '') =>
    `    server 127.0.0.1:${p} max_fails=${t.maxFails} fail_timeout=${t.failTimeoutS}s${extra};`;
  /** Every server, then each again as a backup that is never marked failed. */
  const upstream = (name: string, ports: number[]) =>
    `  upstream ${name} {\n    zone ${name} 64k;\n${ports.map((p) => server(p)).join('\n')}\n${ports
      .map((p) => `    server 127.0.0.1:${p} max_fails=0 backup;`)
      .join('\n')}\n    keepalive 32;\n  }`;
  /** The first server, the others its backups. */
  const firstUp = (name: string, ports: number[]) =>
    `  upstream ${name} {\n    zone ${name} 64k;\n${ports
      .map((p, i) => server(p, i > 0 ? ' backup' : ''))
      .join('\n')}\n    keepalive 32;\n  }`;
  const proxied = (
    to: string,
    retry: string,
    readMs: number = t.readMs,
  ) => `      proxy_pass http://${to};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream ${retry};
      proxy_connect_timeout ${t.connectMs}ms;
      proxy_send_timeout ${t.sendMs}ms;
      proxy_read_timeout ${readMs}ms;`;
  const pageCache = cache
    ? `
      proxy_cache pages;
      proxy_cache_key $scheme$host$request_uri|$http_accept_encoding;
      proxy_cache_valid 200 ${c.validS}s;
      proxy_ignore_headers Cache-Control Expires;
      proxy_no_cache $site_not_shared ${ownView};
      proxy_cache_bypass ${ownView};
      proxy_cache_lock on;
      add_header X-Cache-Status $upstream_cache_status always;`
    : '';
  const config = `worker_processes ${workers ?? 'auto'};
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'logs', 'error.log')} warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${path.join(dir, 'client_body')};
  proxy_temp_path ${path.join(dir, 'proxy')};
  fastcgi_temp_path ${path.join(dir, 'fastcgi')};
  uwsgi_temp_path ${path.join(dir, 'uwsgi')};
  scgi_temp_path ${path.join(dir, 'scgi')};
  proxy_cache_path ${path.join(dir, 'cache')} levels=1:2 keys_zone=pages:10m max_size=256m inactive=1m use_temp_path=off;
  # What the site server lets the balancer keep (BALANCER_CACHE): 0 keeps, 1 does not.
  map $upstream_http_cache_control $site_not_shared {
    default 1;
    "~*(private|no-store)" 1;
    "~*^(no-cache|public)" 0;
  }
${upstream('site', sites)}
${firstUp('deploy', sites)}
${upstream('mail', mailServices)}
  server {
    listen ${port};
    location /api/ {
${proxied('mail', 'error timeout http_502 http_504')}
    }
    location /_deploy/ {
      error_page 418 = @deploy_change;
      if ($request_method !~ ^(GET|HEAD)$) { return 418; }
${proxied('deploy', 'error timeout http_502 http_504')}
    }
    location @deploy_change {
${proxied('deploy', 'off', t.changeMs)}
    }
    location / {
${proxied('site', 'error timeout http_502 http_504')}${pageCache}
      error_page 502 504 = @site_patient;
    }
    location @site_patient {
      if ($request_method !~ ^(GET|HEAD)$) { return 502; }
${proxied('site', 'error timeout http_502 http_504', t.patientMs)}${pageCache}
    }
  }
}
`;
  const file = path.join(dir, 'nginx.conf');
  writeFileSync(file, config);
  const nginx = findNginx();
  const checked = spawnSync(nginx, ['-t', '-p', dir, '-c', file], { encoding: 'utf8' });
  if (checked.status !== 0) throw new Error(`the load balancer's configuration: ${checked.stderr}`);
  return file;
}
