/**
 * The server secret: FORM_TOKEN_SECRET when set, else a random one made once and kept in the
 * outbox's store (the SQLite file, or the PostgreSQL every instance shares), so that a form token
 * issued by one instance is good at another and survives restarts. Each use gets a key of its own.
 */
import { purposeKey } from '@site/serving/signatures';
import type { Config } from './config';
import type { OutboxStore } from './outbox/store';

export type SecretUse = 'form-token' | 'erasure-audit' | 'held-release';

export interface ServerSecret {
  /** The key for one use; rejects while the store cannot be read (tried again next time). */
  key(use: SecretUse): Promise<Buffer>;
}

export function serverSecret(
  config: Pick<Config, 'FORM_TOKEN_SECRET'>,
  outbox: Pick<OutboxStore, 'storedSecret'>,
): ServerSecret {
  let root: Promise<string> | undefined;
  const load = () => {
    if (config.FORM_TOKEN_SECRET !== undefined) return Promise.resolve(config.FORM_TOKEN_SECRET);
    root ??= Promise.resolve(outbox.storedSecret()).catch((error: unknown) => {
      root = undefined;
      throw error;
    });
    return root;
  };
  return {
    async key(use) {
      return purposeKey(await load(), use);
    },
  };
}
