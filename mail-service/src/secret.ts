/**
 * The server secret: FORM_TOKEN_SECRET when set, else a random one made once and kept in the
 * PostgreSQL every instance shares (`mail_secrets`), so that a form token issued by one instance
 * is good at another and survives restarts. Each use gets a key of its own.
 */
import { purposeKey } from '@site/serving/signatures';
import type { Config } from './config';
import type { Outbox } from './outbox/outbox';

export type SecretUse = 'form-token' | 'erasure-audit' | 'held-release';

export interface ServerSecret {
  /** The key for one use; rejects while the database cannot be read (tried again next time). */
  key(use: SecretUse): Promise<Buffer>;
}

export function serverSecret(
  config: Pick<Config, 'FORM_TOKEN_SECRET'>,
  outbox: Pick<Outbox, 'storedSecret'>,
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
