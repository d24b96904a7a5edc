/**
 * A page-group team's deploy and rollback, run from the group's workspace:
 *
 *   npm run deploy -w mfe-data [-- --reason "New BI page"]
 *   npm run rollback -w mfe-data [-- --to 1.0.0] [-- --reason "Broken chart"]
 *
 * Deploy builds the group if its version folder is not built, makes the folder available at the
 * group's origin and publishes its entry through the site's deploy API, which checks it before it
 * goes live. Rollback goes back through the same API, from the manifest's history: nothing is built
 * and no other group is needed.
 *
 *   REMOTE_<NAME>_URL  where the group's version folders are served (default: its local server,
 *                      which `npm start` runs over the workspace's dist/)
 *   DEPLOY_UPLOAD      a command that uploads the version folder (given as its last argument) to
 *                      that origin, e.g. a bucket sync; unset: the folder must already be served
 *   DEPLOY_API         the site (default http://localhost:3000)
 *   DEPLOY_TOKEN       the deploy token (default: the one `npm start` wrote to deploy/.deploy-token)
 *   DEPLOY_BY          who deploys (default: the user name)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SITE_REMOTES } from '../shared/src/site';

const root = path.join(__dirname, '..');

function fail(message: string): never {
  console.error(`deploy: ${message}`);
  process.exit(1);
}

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}

interface Answer {
  error?: string;
  message?: string;
  remote?: string;
  from?: { version: string; entry: string } | null;
  to?: { version: string; entry: string };
  manifestVersion?: string;
  version?: string;
}

async function call(api: string, token: string, method: string, route: string, body?: unknown) {
  let response: Response;
  try {
    response = await fetch(`${api}${route}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (error) {
    fail(`the site's deploy API at ${api} could not be reached (${String(error)})`);
  }
  const answer = (await response.json().catch(() => ({}))) as Answer;
  if (!response.ok) {
    fail(
      `refused (HTTP ${response.status}${answer.error ? `, ${answer.error}` : ''}): ${answer.message ?? 'no reason given'}`,
    );
  }
  return answer;
}

async function main(): Promise<void> {
  const rollback = process.argv.includes('--rollback');
  const workspace = process.cwd();
  const pkgFile = path.join(workspace, 'package.json');
  const tableFile = path.join(workspace, 'src', 'routes.json');
  if (!existsSync(pkgFile) || !existsSync(tableFile)) {
    fail('run it for a page group: npm run deploy -w mfe-<group>');
  }
  const { version } = JSON.parse(readFileSync(pkgFile, 'utf8')) as { version: string };
  const { remote: name } = JSON.parse(readFileSync(tableFile, 'utf8')) as { remote: string };
  const port = SITE_REMOTES.find((r) => r.name === name)?.port;
  const origin = (
    process.env[`REMOTE_${name.toUpperCase()}_URL`] ?? `http://localhost:${port ?? 3010}`
  ).replace(/\/+$/, '');
  const api = (process.env.DEPLOY_API ?? 'http://localhost:3000').replace(/\/+$/, '');
  const tokenFile = path.join(root, 'deploy', '.deploy-token');
  const token =
    process.env.DEPLOY_TOKEN ??
    (existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : undefined) ??
    fail(
      `no DEPLOY_TOKEN, and no ${path.relative(process.cwd(), tokenFile)} (npm start writes one)`,
    );
  const by = process.env.DEPLOY_BY ?? os.userInfo().username;
  const reason = option('reason');

  const { version: base } = await call(api, token, 'GET', '/_deploy/manifest');
  let done: Answer;
  if (rollback) {
    const to = option('to');
    done = await call(api, token, 'POST', `/_deploy/remotes/${name}/rollback`, {
      base,
      by,
      ...(to ? { to } : {}),
      ...(reason ? { reason } : {}),
    });
  } else {
    const folder = path.join(workspace, 'dist', version);
    if (!existsSync(path.join(folder, 'server', 'pages.js'))) {
      console.log(`building ${name} ${version}…`);
      const built = spawnSync('npm', ['run', 'build'], { cwd: workspace, stdio: 'inherit' });
      if (built.status !== 0) fail('the build failed');
    }
    const upload = process.env.DEPLOY_UPLOAD;
    if (upload) {
      const uploaded = spawnSync(`${upload} ${JSON.stringify(folder)}`, {
        shell: true,
        stdio: 'inherit',
      });
      if (uploaded.status !== 0) fail(`the upload (${upload}) failed`);
    }
    const entry = `${origin}/${version}/remoteEntry.js`;
    const served = await fetch(entry).then(
      (r) => r.ok,
      () => false,
    );
    if (!served) {
      fail(
        `${entry} is not served: start the site with npm start (it serves each group's dist/), or set DEPLOY_UPLOAD to upload the folder to ${origin}`,
      );
    }
    done = await call(api, token, 'PUT', `/_deploy/remotes/${name}`, {
      base,
      entry,
      version,
      by,
      ...(reason ? { reason } : {}),
    });
  }
  const from = done.from ? `${done.from.version} (${done.from.entry})` : 'not deployed';
  console.log(
    `${rollback ? 'rolled back' : 'deployed'} ${name}: ${from} -> ${done.to?.version} (${done.to?.entry}); live manifest ${done.manifestVersion}`,
  );
}

void main();
