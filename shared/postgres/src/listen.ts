/**
 * LISTEN on a connection of its own, made again when it is lost: notifications wake a process at
 * once, and whatever was announced while no one listened is the caller's to catch up on when the
 * connection is back (`onListening`). The connection is not a pool's: a LISTEN holds it for good.
 */
import pg from 'pg';

export interface ListenOptions {
  /** `postgres://…` */
  url: string;
  channel: string;
  onNotify(payload: string): void;
  /** Each time the LISTEN is in place, the first time and after every reconnection. */
  onListening?(): void | Promise<void>;
  /** The connection was lost, or could not be made; it is tried again. */
  onLost?(error: unknown): void;
  /** The wait before the next attempt: from the first, doubling up to the longest. */
  firstRetryMs?: number;
  maxRetryMs?: number;
}

export interface Listener {
  /** Settles once the first attempt has listened (or failed and been scheduled again). */
  readonly started: Promise<void>;
  close(): Promise<void>;
}

const CHANNEL = /^[a-z_][a-z0-9_]*$/;

export function listen(options: ListenOptions): Listener {
  if (!CHANNEL.test(options.channel)) throw new Error(`"${options.channel}" is not a plain name`);
  const first = options.firstRetryMs ?? 250;
  const longest = options.maxRetryMs ?? 2000;
  let wait = first;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;

  const schedule = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, wait);
    retry.unref();
    wait = Math.min(wait * 2, longest);
  };

  const connect = async (): Promise<void> => {
    if (closed) return;
    const c = new pg.Client({
      connectionString: options.url,
      connectionTimeoutMillis: 3000,
      keepAlive: true,
    });
    let lost = false;
    const onLost = (error: unknown) => {
      if (lost) return;
      lost = true;
      if (client === c) client = undefined;
      void c.end().catch(() => undefined);
      if (!closed) options.onLost?.(error);
      schedule();
    };
    c.on('error', onLost);
    c.on('end', () => onLost(new Error('the notification connection ended')));
    c.on('notification', (message) => {
      if (message.channel === options.channel) options.onNotify(message.payload ?? '');
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${options.channel}`);
    } catch (error) {
      onLost(error);
      return;
    }
    if (closed) {
      await c.end().catch(() => undefined);
      return;
    }
    client = c;
    wait = first;
    await options.onListening?.();
  };

  const started = connect();
  return {
    started,
    async close() {
      closed = true;
      clearTimeout(retry);
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}
