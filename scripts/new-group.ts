/**
 * `npm run new-group -- --name <name> --prefix /<path>`: a new page group (a remote, one team's
 * independently deployed micro-frontend) in one command. It writes the workspace `mfe-<name>` from
 * the templates in `scripts/new-group/` (the group's overview page at `<prefix>` with a picture drawn
 * for it from its name, its tests, its dev frame, the scripts every group has) and adds the group to the site table, `shared/contracts/site.json`,
 * with the next free port. Everything else (the root workspaces, `npm start`, `npm test`, the lint
 * boundaries, the deploy command) reads that table or the `mfe-*` folders, so nothing else needs
 * a hand edit.
 *
 * Input is checked before anything is written; what does not pass ends with exit code 2 and a
 * sentence naming the problem. `--root <dir>` works on another checkout (the tests use a copy).
 */
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { parseArgs as parseCommandLine } from 'node:util';
import { SHELL_PORT } from '@site/contracts/site';
import { GROUP_PORTS, groupPorts } from './lib/local-ports';

export const SITE_FILE = path.join('shared', 'contracts', 'site.json');
const TEMPLATES = path.join(__dirname, 'new-group');

interface SiteTable {
  shell: { port: number; pages: Record<string, string> };
  remotes: { name: string; folder: string; port: number; prefixes: string[] }[];
}

export class InputError extends Error {}

/** Lower-case words joined by hyphens, a letter first: the folder is `mfe-<name>`. */
const NAME = /^[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)*$/;
/** An absolute path of lower-case segments, no trailing slash, no dots, no empty segment. */
const PREFIX = /^(?:\/[a-z0-9]+(?:-[a-z0-9]+)*)+$/;
/**
 * Paths the site server answers itself besides the shell's pages: the mail-service's API, the
 * shell's static files and share cards. (`/_deploy`, `/_metrics` and the like cannot be asked for:
 * a segment starts with a letter or digit.)
 */
const SERVER_PATHS = ['/api', '/assets', '/share'];
export interface NewGroup {
  /** e.g. `cyber-security` */
  name: string;
  /** Federation name, e.g. `cyber_security`. */
  federationName: string;
  folder: string;
  prefix: string;
  port: number;
  /** The group's name for people, e.g. `Cyber Security`: its menu group and breadcrumb. */
  label: string;
}

const overlaps = (a: string, b: string) =>
  a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);

export function readSite(root: string): SiteTable {
  const file = path.join(root, SITE_FILE);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as SiteTable;
  } catch (error) {
    throw new InputError(`cannot read the site table ${file}: ${(error as Error).message}`);
  }
}

/** The group described by the arguments, checked against the site table and the checkout. */
export function planGroup(
  root: string,
  args: { name?: string | undefined; prefix?: string | undefined },
): NewGroup {
  const { name, prefix } = args;
  if (!name) throw new InputError('--name is required, e.g. --name cyber-security');
  if (!NAME.test(name) || name.length > 40) {
    throw new InputError(
      `--name "${name}" is not lower-case words joined by hyphens (a letter first, at most 40 characters), e.g. cyber-security`,
    );
  }
  if (!prefix) throw new InputError('--prefix is required, e.g. --prefix /services/cyber-security');
  if (!PREFIX.test(prefix)) {
    throw new InputError(
      `--prefix "${prefix}" is not a clean absolute path of lower-case segments (no trailing slash, no dots, no spaces), e.g. /services/cyber-security`,
    );
  }
  const site = readSite(root);
  const federationName = name.replaceAll('-', '_');
  const folder = `mfe-${name}`;
  const same = site.remotes.find((r) => r.name === federationName || r.folder === folder);
  if (same) throw new InputError(`${name} is already a page group (${same.folder})`);
  if (existsSync(path.join(root, folder))) {
    throw new InputError(`the folder ${folder} already exists: choose another name`);
  }
  for (const remote of site.remotes) {
    const clash = remote.prefixes.find((p) => overlaps(p, prefix));
    if (clash) {
      throw new InputError(
        `--prefix ${prefix} overlaps ${clash}, which the page group ${remote.name} serves`,
      );
    }
  }
  const shellPaths = [...Object.values(site.shell.pages), ...SERVER_PATHS].filter((p) => p !== '/');
  // The services page is the hub of the groups: a group's prefix may lie under it, not be it.
  const hub = site.shell.pages.services;
  const shellClash = shellPaths.find(
    (p) => overlaps(p, prefix) && !(p === hub && prefix.startsWith(`${p}/`)),
  );
  if (shellClash) {
    throw new InputError(`--prefix ${prefix} overlaps ${shellClash}, which the shell serves`);
  }
  // The next free port after the highest a group has (a port freed by a removed group is not
  // handed to a new one at once), else the first free one in the range.
  const taken = new Set([site.shell.port, ...site.remotes.map((r) => r.port)]);
  const highest = Math.max(0, ...site.remotes.map((r) => r.port));
  const free = groupPorts().filter((p) => !taken.has(p));
  const port = free.find((p) => p > highest) ?? free[0];
  if (port === undefined) {
    throw new InputError(
      `every local port for a group (${GROUP_PORTS.first}-${GROUP_PORTS.last}) is taken: remove a group first`,
    );
  }
  const label = name
    .split('-')
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(' ');
  return { name, federationName, folder, prefix, port, label };
}

/**
 * What the templates fill in besides the group itself: the overview page's content module (the
 * prefix's last segment, as `contentModule` in shared/ui names it), the picture's component name,
 * and the figures of a neutral picture drawn from the name, so that no two new groups look alike
 * until their teams draw pictures of their own.
 */
function templateValues(group: NewGroup): Record<string, string | number> {
  const seed = [...group.name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
  const pick = (i: number, min: number, span: number) => min + ((seed >>> (i * 3)) % span);
  const bars = [0, 1, 2, 3, 4].map((i) => pick(i, 30, 60));
  const share = pick(5, 20, 70) / 100;
  const [cx, cy, r] = [372, 180, 40];
  const angle = 2 * Math.PI * share - Math.PI / 2;
  const end = `${(cx + r * Math.cos(angle)).toFixed(1)} ${(cy + r * Math.sin(angle)).toFixed(1)}`;
  return {
    ...group,
    module: group.prefix.slice(group.prefix.lastIndexOf('/') + 1),
    component: group.label.replace(/ /g, ''),
    bars: bars.join(', '),
    accent: seed % bars.length,
    lines: [0, 1, 2].map((i) => pick(i + 6, 60, 110)).join(', '),
    arc: `M${cx} ${cy - r}A${r} ${r} 0 ${share > 0.5 ? 1 : 0} 1 ${end}`,
  };
}

function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`template placeholder ${whole} is unknown`);
    return String(value);
  });
}

function templateFiles(dir: string, base = ''): string[] {
  return readdirSync(path.join(dir, base), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(base, entry.name);
    if (entry.isDirectory()) return templateFiles(dir, relative);
    return entry.name.endsWith('.tmpl') ? [relative] : [];
  });
}

/**
 * Writes the workspace and adds the group to the site table. The folder is written under a
 * temporary name and renamed at the end, and the table is replaced whole, so a stop half-way
 * leaves no half group behind.
 */
export async function writeGroup(root: string, group: NewGroup): Promise<string[]> {
  const staging = path.join(root, `.${group.folder}.new`);
  const values = templateValues(group);
  const written: string[] = [];
  for (const template of templateFiles(TEMPLATES)) {
    const target = fill(template.replace(/\.tmpl$/, ''), values);
    const file = path.join(staging, target);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, fill(readFileSync(path.join(TEMPLATES, template), 'utf8'), values));
    written.push(path.join(group.folder, target));
  }
  renameSync(staging, path.join(root, group.folder));

  const siteFile = path.join(root, SITE_FILE);
  const site = readSite(root);
  site.remotes.push({
    name: group.federationName,
    folder: group.folder,
    port: group.port,
    prefixes: [group.prefix],
  });
  // Written as the repository's formatter writes it, so the format check passes on it.
  const { format, resolveConfig } = await import('prettier');
  const options = await resolveConfig(siteFile);
  const text = await format(JSON.stringify(site, null, 2), { ...options, filepath: siteFile });
  writeFileSync(`${siteFile}.new`, text);
  renameSync(`${siteFile}.new`, siteFile);
  return [...written.sort(), SITE_FILE];
}

export function parseArgs(argv: string[]): { name?: string; prefix?: string; root?: string } {
  try {
    return parseCommandLine({
      args: argv,
      options: {
        name: { type: 'string' },
        prefix: { type: 'string' },
        root: { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new InputError(
      `${(error as Error).message.split('\n')[0]} (use --name <name> --prefix /<path>)`,
    );
  }
}

async function main(): Promise<void> {
  let group: NewGroup;
  let root: string;
  try {
    const args = parseArgs(process.argv.slice(2));
    root = path.resolve(args.root ?? path.join(__dirname, '..'));
    group = planGroup(root, args);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    console.error(`new-group: ${error.message}; nothing was written`);
    process.exit(2);
  }
  const written = await writeGroup(root, group);
  console.log(nextSteps(group, written));
}

/**
 * What the command prints: what it wrote, how the team goes live locally, how it releases a change
 * later, and how it gets its deploy token for production.
 */
export function nextSteps(
  group: NewGroup,
  written: readonly string[],
  /** Where the local site runs: PORT, as `npm start` reads it. */
  sitePort: string = process.env.PORT?.trim() || String(SHELL_PORT),
): string {
  const w = `-w ${group.folder}`;
  // One column for every command, as wide as the longest, so each explanation starts in line.
  const width = `npm run deploy ${w} -- --canary 10`.length + 1;
  const row = (command: string, what: string) => `  ${command.padEnd(width)} ${what}`;
  const token = `deploy/.group-tokens/${group.federationName}`;
  return [
    `new page group ${group.federationName}: ${group.folder}, ${group.prefix}/**, port ${group.port}`,
    ...written.map((file) => `  wrote ${file}`),
    '',
    'Next steps:',
    row('npm install', 'link the new workspace'),
    row(`npm test ${w}`, 'its contract and page tests'),
    row('npm start', `serves it on port ${group.port} and makes its deploy token`),
    row('', `(${token}); a running npm start does both by itself`),
    row(`npm run deploy ${w}`, 'builds it and makes it live on the local site'),
    `  open http://localhost:${sitePort}${group.prefix}`,
    `  then edit ${group.folder}/src/routes.json and src/content/: your pages and words`,
    '',
    'Releasing a change (a deployed version is fixed: change, bump, deploy):',
    row(`npm version minor ${w}`, 'bump its version (patch, minor or major)'),
    row(`npm run deploy ${w} -- --preview`, 'live for no one: prints a link to see it'),
    row(`npm run deploy ${w} -- --canary 10`, 'live for 10 % of visits; rolled back on errors'),
    row(`npm run deploy ${w} -- --promote`, 'the preview or canary live for everyone'),
    row(`npm run deploy ${w}`, 'or live for everyone at once'),
    row(`npm run rollback ${w}`, 'back to the version before (-- --to <v>)'),
    '',
    "Production: the team deploys with a token that can change only this group. The site's",
    'operator makes it and hands it over as the CI secret DEPLOY_TOKEN:',
    `  DEPLOY_API=https://<site> DEPLOY_TOKEN=<operator token> npm run deploy-token -- --group ${group.federationName}`,
    '(docs/deployment.md: "The deploy API, and who holds the tokens"; how the group reaches',
    'production and how releases are watched)',
  ].join('\n');
}

if (require.main === module) void main();
