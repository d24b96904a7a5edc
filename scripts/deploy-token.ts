/**
 * `npm run deploy-token`: the site's operator makes, lists, rotates and revokes the page groups'
 * deploy tokens, through the site's deploy API (so it works against any replica, files or
 * PostgreSQL alike). Each group's team deploys with a token of its own, which can change only its
 * own group; the site keeps nothing but each token's digest, so a new or rotated token is printed
 * once, here.
 */
import type { IssuedTokenAnswer, TokenRecord } from '@site/contracts/deploy-api';
import { isGroupName } from '@site/contracts';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SITE_REMOTES } from '@site/contracts/site';
import { LOCAL_TOKENS, SettingsError, httpUrl, localToken } from './lib/deploy-settings';

const root = path.join(__dirname, '..');

export const USAGE = `usage: npm run deploy-token -- --group <name> [--group <name> ...]
       npm run deploy-token -- --list
       npm run deploy-token -- --rotate <id>
       npm run deploy-token -- --revoke <id>

Only the site's operator token (DEPLOY_TOKEN) can do these. A new or rotated token is printed once,
alone on its line on standard output; give it to the group's team as their DEPLOY_TOKEN.

  --group <name>   a new token that can change only this group: its federation name (data,
                   public_health) or its workspace (mfe-data); repeat it for a token that can
                   release several groups together
  --list           every token: its id, its groups, when it was made, rotated or revoked
  --rotate <id>    a new secret for the token (same id and groups): the old one stops at once
  --revoke <id>    the token stops working for good
  --help           this text

  DEPLOY_API       the site, an http(s) URL (default http://localhost:3000)
  DEPLOY_TOKEN     the site's operator token (default: the one npm start wrote to
                   ${LOCAL_TOKENS.operator})`;

type Command =
  | { kind: 'help' }
  | { kind: 'create'; groups: string[] }
  | { kind: 'list' }
  | { kind: 'rotate' | 'revoke'; id: string };

const ID = /^[0-9a-f]{12}$/;

/** A group as the site knows it: a workspace folder is read as its group's federation name. */
function groupName(value: string): string {
  const name = SITE_REMOTES.find((r) => r.folder === value)?.name ?? value;
  if (!isGroupName(name)) {
    throw new SettingsError(
      `--group takes a group's federation name such as data or public_health, not "${value}"`,
    );
  }
  return name;
}

export function parseCommand(argv: string[]): Command {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        help: { type: 'boolean', short: 'h' },
        group: { type: 'string', multiple: true },
        list: { type: 'boolean' },
        rotate: { type: 'string' },
        revoke: { type: 'string' },
      },
    }));
  } catch (error) {
    const message = (error as Error).message;
    const option = /'(-{1,2}[^' ]+)/.exec(message)?.[1];
    switch ((error as { code?: string }).code) {
      case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
        throw new SettingsError(`unknown option ${option}`);
      case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
        throw new SettingsError(`${option} needs a value`);
      case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
        throw new SettingsError(`unexpected argument ${/'([^']*)'/.exec(message)?.[1] ?? ''}`);
      default:
        throw new SettingsError(message.split('\n')[0]!);
    }
  }
  if (values.help) return { kind: 'help' };
  const chosen = [values.group, values.list, values.rotate, values.revoke].filter(
    (v) => v !== undefined,
  );
  if (chosen.length !== 1) {
    throw new SettingsError('say one of --group <name>, --list, --rotate <id> or --revoke <id>');
  }
  if (values.group) return { kind: 'create', groups: [...new Set(values.group.map(groupName))] };
  if (values.list) return { kind: 'list' };
  const [kind, id] =
    values.rotate !== undefined ? ['rotate', values.rotate] : ['revoke', values.revoke!];
  if (!ID.test(id)) {
    throw new SettingsError(
      `--${kind} takes a token's id (12 hex digits, see --list), not "${id}"`,
    );
  }
  return { kind: kind as 'rotate' | 'revoke', id };
}

/** A token as the API lists it, or as it was just made or rotated (with its secret, this once). */
type TokenAnswer = TokenRecord & Partial<Pick<IssuedTokenAnswer, 'token'>>;

async function call(
  api: string,
  token: string,
  method: string,
  route: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(`${api}/_deploy${route}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (error) {
    throw new Error(`the site's deploy API at ${api} could not be reached (${String(error)})`, {
      cause: error,
    });
  }
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    throw new Error(
      `refused (HTTP ${response.status}${answer.error ? `, ${String(answer.error)}` : ''}): ${String(answer.message ?? 'no reason given')}`,
    );
  }
  return answer;
}

const day = (iso: string | undefined) => (iso ? iso.slice(0, 16).replace('T', ' ') : '');

async function main(): Promise<void> {
  let command: Command;
  let api: string;
  let token: string;
  try {
    command = parseCommand(process.argv.slice(2));
    if (command.kind === 'help') {
      console.log(USAGE);
      return;
    }
    api = httpUrl('DEPLOY_API', process.env.DEPLOY_API ?? 'http://localhost:3000');
    const found = process.env.DEPLOY_TOKEN ?? localToken(root, LOCAL_TOKENS.operator);
    if (!found) {
      throw new SettingsError(
        `no DEPLOY_TOKEN (the site's operator token), and no ${LOCAL_TOKENS.operator} (npm start writes one)`,
      );
    }
    token = found;
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    console.error(`deploy-token: ${error.message} (see --help)`);
    process.exit(2);
  }

  try {
    if (command.kind === 'list') {
      const { tokens } = (await call(api, token, 'GET', '/tokens')) as { tokens: TokenAnswer[] };
      if (tokens.length === 0) {
        console.log('no group deploy tokens yet: npm run deploy-token -- --group <name>');
        return;
      }
      const rows = [
        ['id', 'groups', 'made', 'rotated', 'state'],
        ...tokens.map((t) => [
          t.id,
          t.groups.join(', '),
          day(t.createdAt),
          day(t.rotatedAt),
          t.revokedAt ? `revoked ${day(t.revokedAt)}` : 'live',
        ]),
      ];
      const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
      for (const row of rows)
        console.log(
          row
            .map((cell, i) => cell.padEnd(widths[i]!))
            .join('  ')
            .trimEnd(),
        );
      return;
    }
    if (command.kind === 'revoke') {
      const revoked = (await call(
        api,
        token,
        'POST',
        `/tokens/${command.id}/revoke`,
        {},
      )) as unknown as TokenAnswer;
      console.log(`revoked ${revoked.credential}: it is refused from now on, on every site server`);
      return;
    }
    const made = (command.kind === 'create'
      ? await call(api, token, 'POST', '/tokens', { groups: command.groups })
      : await call(
          api,
          token,
          'POST',
          `/tokens/${command.id}/rotate`,
          {},
        )) as unknown as TokenAnswer;
    console.error(
      command.kind === 'create'
        ? `deploy token ${made.credential}: it can change only ${made.groups.join(', ')}. Give it to the team as DEPLOY_TOKEN (a CI secret); it is not shown again.`
        : `new secret for ${made.credential}: the old one is refused from now on. Give it to the team as DEPLOY_TOKEN; it is not shown again.`,
    );
    console.log(made.token);
  } catch (error) {
    console.error(`deploy-token: ${(error as Error).message}`);
    process.exit(1);
  }
}

if (require.main === module) void main();
