/**
 * `npm run outbox -w mail-service -- <command>`: the operator's view of the outbox. It reads the
 * settings like the running service and opens the same outbox: the PostgreSQL of DATABASE_URL,
 * shared by every instance.
 */
import { createHmac } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { isEmailAddress } from '@site/contracts/contact';
import { ConfigError, describeStore, loadConfig } from './config';
import { normalizeAddress } from './outbox/address';
import type { MessageSummary } from './outbox/queries';
import { MESSAGE_STATUSES, type MessageStatus } from './outbox/stored';
import { openOutbox } from './outbox/open';
import { serverSecret, type ServerSecret } from './secret';

const USAGE = `usage: npm run outbox -w mail-service -- <command>

  counts                          messages by state
  list [state] [--limit n] [--content]
                                  messages, newest first (state: ${MESSAGE_STATUSES.join(', ')});
                                  no names, addresses or texts unless --content is given
  show <id>...                    the named messages, with their content
  requeue <id>... | --all         queue failed messages again (due now, a fresh retry period)
  ack <id>... | --all             mark failed messages as seen: readiness no longer waits on them
  purge <id>...                   delete messages for good
  purge --state <state> [--older-than days]
  retention                       apply the retention policy now (RETENTION_DAYS, SPAM_RETENTION_DAYS)
  spam [--limit n] [--content]    messages held as spam, newest first, with the reasons
  release <id>...                 a false positive: held -> queued, delivered by the running service
  export --email <address>        every stored message from the address (any case), as JSON
  erase --email <address>         delete every stored copy of the address's messages (the outbox,
                                  the .eml files in MAILBOX_DIR) and record the erasure
  erasures                        the erasures served: time, HMAC of the address, counts
`;

const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString());

function print(rows: MessageSummary[]): void {
  for (const r of rows) {
    const line: Record<string, unknown> = {
      id: r.id,
      status: r.status,
      created: iso(r.createdAt),
      ...(r.queuedAt !== r.createdAt ? { requeued: iso(r.queuedAt) } : {}),
      ...(r.deliveredAt !== null ? { delivered: iso(r.deliveredAt) } : {}),
      attempts: r.attempts,
      ...(r.nextAttemptAt !== null ? { next: iso(r.nextAttemptAt) } : {}),
      ...(r.lastError ? { error: r.lastError } : {}),
      ...(r.status === 'failed' ? { acknowledged: r.acknowledged } : {}),
      ...(r.redacted ? { redacted: true } : {}),
      ...(r.spamReasons.length > 0 ? { spamReasons: r.spamReasons } : {}),
      ...(r.releasedAt !== null ? { released: iso(r.releasedAt) } : {}),
      domain: r.emailDomain,
      ...('payload' in r ? { content: r.payload } : {}),
    };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  }
}

/** A message as `export` gives it to the person it came from. */
const exported = (r: MessageSummary) => ({
  id: r.id,
  status: r.status,
  received: iso(r.createdAt),
  ...(r.deliveredAt !== null ? { delivered: iso(r.deliveredAt) } : {}),
  ...(r.spamReasons.length > 0 ? { spamReasons: r.spamReasons } : {}),
  ...(r.releasedAt !== null ? { released: iso(r.releasedAt) } : {}),
  name: r.payload?.user.name,
  email: r.payload?.user.email,
  subject: r.payload?.message.subject,
  body: r.payload?.message.body,
});

/** The audit's stand-in for an address: an HMAC of it, lower-cased, with the server secret. */
async function addressHmac(secret: ServerSecret, address: string): Promise<string> {
  return createHmac('sha256', await secret.key('erasure-audit'))
    .update(normalizeAddress(address))
    .digest('hex');
}

/** Removes the .eml files (and leftover temporary files) of these messages; returns how many. */
async function removeMailboxFiles(dir: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return 0;
  }
  const wanted = new Set(ids);
  const idOf = (name: string) =>
    /-([0-9a-f-]{36})\.eml$/.exec(name)?.[1] ?? /^\.([0-9a-f-]{36})\.\d+\.tmp$/.exec(name)?.[1];
  // A digest of held messages lists several people's: it goes when it lists one of these.
  const listsOne = async (name: string) => {
    if (!/-digest-[0-9a-f-]{36}\.eml$/.test(name)) return false;
    const text = await fs.readFile(path.join(dir, name), 'latin1');
    const listed = /^X-Held-Messages:((?:.*\r?\n[ \t])*.*)$/im.exec(text)?.[1] ?? '';
    return listed.split(/\s+/).some((id) => wanted.has(id));
  };
  let removed = 0;
  for (const name of names) {
    const id = idOf(name);
    if ((id === undefined || !wanted.has(id)) && !(await listsOne(name))) continue;
    await fs.rm(path.join(dir, name), { force: true });
    removed += 1;
  }
  return removed;
}

function emailOption(value: string | undefined, command: string): string {
  if (value === undefined) throw new UsageError(`${command} needs --email <address>`);
  const address = value.trim();
  if (!isEmailAddress(address)) throw new UsageError(`"${address}" is not an e-mail address`);
  return address;
}

const isStatus = (s: string | undefined): s is MessageStatus =>
  s !== undefined && (MESSAGE_STATUSES as readonly string[]).includes(s);

/** Runs one command; returns the exit code. Exported for the tests. */
export async function runOutboxCommand(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  now: () => number = Date.now,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      limit: { type: 'string' },
      content: { type: 'boolean' },
      all: { type: 'boolean' },
      state: { type: 'string' },
      'older-than': { type: 'string' },
      email: { type: 'string' },
    },
  });
  const [command, ...rest] = positionals;
  if (!command || command === 'help') {
    process.stdout.write(USAGE);
    return command ? 0 : 2;
  }
  const config = loadConfig(env);
  const { outbox, postgres } = openOutbox(config, { now });
  try {
    await outbox.ready().catch((error: unknown) => {
      throw new StoreError(
        `cannot open the outbox in ${describeStore(config)}: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
    switch (command) {
      case 'counts':
        process.stdout.write(`${JSON.stringify(await outbox.counts())}\n`);
        return 0;
      case 'list': {
        const state = rest[0];
        if (state !== undefined && !isStatus(state))
          throw new UsageError(`unknown state "${state}"`);
        print(
          await outbox.list({
            status: state,
            limit: values.limit ? Number(values.limit) : 50,
            withContent: values.content === true,
          }),
        );
        return 0;
      }
      case 'show':
        if (rest.length === 0) throw new UsageError('show needs at least one id');
        print(await outbox.list({ ids: rest, withContent: true, limit: rest.length }));
        return 0;
      case 'requeue':
      case 'ack': {
        if (rest.length === 0 && values.all !== true) {
          throw new UsageError(`${command} needs ids or --all`);
        }
        const ids = values.all ? undefined : rest;
        const n = await (command === 'requeue' ? outbox.requeue(ids) : outbox.acknowledge(ids));
        process.stdout.write(
          command === 'requeue'
            ? `${n} message(s) queued again; the running service sends them within a minute\n`
            : `${n} failed message(s) acknowledged\n`,
        );
        return 0;
      }
      case 'purge': {
        const state = values.state;
        if (rest.length === 0 && state === undefined) {
          throw new UsageError('purge needs ids or --state');
        }
        if (state !== undefined && !isStatus(state))
          throw new UsageError(`unknown state "${state}"`);
        const days = values['older-than'] === undefined ? undefined : Number(values['older-than']);
        if (days !== undefined && !(days >= 0)) throw new UsageError('--older-than takes days');
        const n = await outbox.purge({
          ...(rest.length > 0 ? { ids: rest } : {}),
          ...(state !== undefined ? { status: state } : {}),
          ...(days !== undefined ? { before: now() - days * 86_400_000 } : {}),
        });
        process.stdout.write(`${n} message(s) deleted\n`);
        return 0;
      }
      case 'retention': {
        const r = await outbox.applyRetention({
          deliveredMs: config.RETENTION_DAYS * 86_400_000,
          spamMs: config.SPAM_RETENTION_DAYS * 86_400_000,
        });
        process.stdout.write(
          `${r.redacted} message(s) redacted, ${r.deleted} spam message(s) deleted\n`,
        );
        return 0;
      }
      case 'spam': {
        const rows = await outbox.list({
          status: 'spam',
          limit: values.limit ? Number(values.limit) : 50,
          withContent: values.content === true,
        });
        for (const r of rows) {
          const line = {
            id: r.id,
            received: iso(r.createdAt),
            reasons: r.spamReasons,
            domain: r.emailDomain,
            ...('payload' in r ? { content: r.payload } : {}),
          };
          process.stdout.write(`${JSON.stringify(line)}\n`);
        }
        return 0;
      }
      case 'release': {
        if (rest.length === 0) throw new UsageError('release needs the ids of spam messages');
        const n = await outbox.release(rest);
        process.stdout.write(
          `${n} message(s) released from spam and queued; the running service sends them now\n`,
        );
        return n === rest.length ? 0 : 1;
      }
      case 'export': {
        const address = emailOption(values.email, 'export');
        const rows = await outbox.messagesFrom(address);
        process.stdout.write(`${JSON.stringify(rows.map(exported), null, 2)}\n`);
        return 0;
      }
      case 'erase': {
        const address = emailOption(values.email, 'erase');
        const hmac = await addressHmac(serverSecret(config, outbox), address);
        const found = await outbox.messagesFrom(address);
        const files = await removeMailboxFiles(
          config.MAILBOX_DIR,
          found.map((r) => r.id),
        );
        const ids = await outbox.erase({ address, addressHmac: hmac, files });
        process.stdout.write(
          `${ids.length} message(s) and ${files} mailbox file(s) erased; recorded as ${hmac.slice(0, 16)}…\n`,
        );
        return 0;
      }
      case 'erasures':
        for (const e of await outbox.erasures()) {
          process.stdout.write(
            `${JSON.stringify({ at: iso(e.at), addressHmac: e.addressHmac, messages: e.messages, files: e.files })}\n`,
          );
        }
        return 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } finally {
    await outbox.close();
    await postgres.close();
  }
}

class UsageError extends Error {}
/** The outbox cannot be opened: said in one line, without a stack. */
class StoreError extends Error {}

if (require.main === module) {
  runOutboxCommand(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      if (error instanceof UsageError || error instanceof ConfigError) {
        process.stderr.write(
          `outbox: ${error.message}\n\n${error instanceof UsageError ? USAGE : ''}`,
        );
        process.exitCode = 2;
      } else if (error instanceof StoreError) {
        process.stderr.write(`outbox: ${error.message}\n`);
        process.exitCode = 1;
      } else {
        process.stderr.write(
          `outbox: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
        );
        process.exitCode = 1;
      }
    },
  );
}
