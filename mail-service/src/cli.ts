/**
 * `npm run outbox -w mail-service -- <command>`: the operator's view of the outbox. It reads the
 * settings like the running service and opens the same outbox: the PostgreSQL of DATABASE_URL
 * (shared by every instance), or the SQLite file in DATA_DIR (WAL lets both work at once).
 */
import { parseArgs } from 'node:util';
import { ConfigError, describeStore, loadConfig } from './config';
import type { MessageSummary } from './outbox/queries';
import { MESSAGE_STATUSES, type MessageStatus } from './outbox/schema';
import { openOutbox } from './outbox/open';

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
      domain: r.emailDomain,
      ...('payload' in r ? { content: r.payload } : {}),
    };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  }
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
          deliveredMs: config.retentionDays * 86_400_000,
          spamMs: config.spamRetentionDays * 86_400_000,
        });
        process.stdout.write(
          `${r.redacted} message(s) redacted, ${r.deleted} spam message(s) deleted\n`,
        );
        return 0;
      }
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } finally {
    await outbox.close();
    await postgres?.close();
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
