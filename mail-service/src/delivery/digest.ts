/**
 * The daily digest of held messages: an e-mail to MAIL_TO, through the same courier as every
 * message, listing what was held as spam since the last digest (who, what, why) with a signed link
 * to release each one. So a message the visitor was told is sent reaches a person either way:
 * delivered, or shown to sales here. One instance of a fleet sends it (a claim in the database); a digest
 * that cannot be sent is tried again at the next check, and lists the same messages.
 */
import { randomUUID } from 'node:crypto';
import { isSignature, sign } from '@site/serving/signatures';
import type { SendMailOptions } from 'nodemailer';
import type { Logger } from 'pino';
import { fromDomain, type Config } from '../config';
import type { MessageSummary } from '../outbox/queries';
import type { Outbox } from '../outbox/outbox';
import type { ServerSecret } from '../secret';
import type { Courier } from './courier';
import { describeError } from './failures';

/** A digest at most this often; checked every DIGEST_CHECK_MS. */
export const DIGEST_EVERY_MS = 24 * 3_600_000;
export const DIGEST_CHECK_MS = 3_600_000;
/** A claim on the digest lapses after this, should its sender die mid-send. */
const DIGEST_LEASE_MS = 10 * 60_000;
/** Messages listed in one digest; the rest wait for the next one, and the digest says so. */
export const DIGEST_LIMIT = 100;
/** How much of a held message's text the digest shows. */
const EXCERPT_CHARS = 600;

/** The path of a held message's release page, under /api (the site forwards it). */
export const RELEASE_PATH = '/api/held';

/** The signature in a held message's release link: only links from a digest release. */
export async function releaseSignature(secret: ServerSecret, id: string): Promise<string> {
  return sign(await secret.key('held-release'), id);
}

export async function validReleaseSignature(
  secret: ServerSecret,
  id: string,
  signature: string,
): Promise<boolean> {
  return isSignature(await secret.key('held-release'), id, signature);
}

export interface DigestDeps {
  outbox: Outbox;
  courier: Courier;
  config: Pick<Config, 'MAIL_FROM' | 'MAIL_TO' | 'ALLOWED_ORIGINS' | 'SPAM_RETENTION_DAYS'>;
  secret: ServerSecret;
  logger: Logger;
  now: () => number;
  everyMs?: number;
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');

/**
 * Sends the digest if one is due and this instance holds the claim; resolves with how many held
 * messages it listed (0 when none was due).
 */
export async function sendDigestIfDue(deps: DigestDeps): Promise<number> {
  const { outbox, courier, config, logger } = deps;
  if (!(await outbox.claimDigest(deps.everyMs ?? DIGEST_EVERY_MS, DIGEST_LEASE_MS))) return 0;
  let listed: string[] | undefined;
  try {
    const { messages, total } = await outbox.heldForDigest(DIGEST_LIMIT);
    if (messages.length === 0) return 0;
    const mail = await digestMail(deps, messages, total);
    const id = `digest-${randomUUID()}`;
    const recipients = config.MAIL_TO.map((a) => a.address);
    const { rejected } = await courier.send(mail, { id, createdAt: deps.now() }, recipients);
    await courier.settle();
    if (rejected.length === recipients.length) throw new Error('every recipient refused it');
    listed = messages.map((m) => m.id);
    logger.info(
      { digest: id, held: listed.length, waiting: total - listed.length },
      `digest of ${listed.length} held message(s) sent to sales`,
    );
    return listed.length;
  } catch (error) {
    logger.error(
      { err: describeError(error) },
      'the digest of held messages could not be sent; it is tried again within the hour, and the messages stay held (`npm run outbox -w mail-service -- spam`)',
    );
    return 0;
  } finally {
    await Promise.resolve(outbox.digestDone(listed)).catch((error: unknown) => {
      logger.error({ err: describeError(error) }, 'the digest could not be recorded');
    });
  }
}

async function digestMail(
  deps: DigestDeps,
  messages: MessageSummary[],
  total: number,
): Promise<SendMailOptions> {
  const { config, secret } = deps;
  // The site forwards /api/* to this service: the link goes through the form's own origin.
  const base = config.ALLOWED_ORIGINS[0] ?? '';
  const entries = await Promise.all(
    messages.map(async (m, i) => {
      const link = `${base}${RELEASE_PATH}/${m.id}/${await releaseSignature(secret, m.id)}`;
      const p = m.payload;
      const text = p?.message.body ?? '';
      const excerpt = text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
      return {
        link,
        lines: [
          `${i + 1}. Received ${iso(m.createdAt)}`,
          `   From:     ${p ? `${p.user.name} <${p.user.email}>` : '(unreadable)'}`,
          `   Subject:  ${p?.message.subject ?? ''}`,
          `   Why held: ${m.spamReasons.join('; ')}`,
          ...excerpt.split('\n').map((line) => `   | ${line}`),
          `   Release and deliver it: ${link}`,
          `   Reference: ${m.id}`,
        ],
      };
    }),
  );
  const waiting = total - messages.length;
  const text = [
    `${messages.length} message(s) sent through the website's contact form were held as possible spam.`,
    'The visitors were told their message was sent. A held message is not delivered unless you',
    `release it with its link below; it is deleted ${config.SPAM_RETENTION_DAYS} days after it arrived.`,
    ...(waiting > 0 ? [`${waiting} more wait for the next digest.`] : []),
    '',
    ...entries.flatMap((e) => [...e.lines, '']),
    '--',
    'Sent once a day by the website while messages are held.',
  ].join('\n');
  return {
    from: { name: config.MAIL_FROM.name, address: config.MAIL_FROM.address },
    to: config.MAIL_TO.map((a) => ({ name: a.name, address: a.address })),
    subject: `Website: ${messages.length} message(s) held as possible spam`,
    messageId: `<digest-${randomUUID()}@${fromDomain(config)}>`,
    // The ids, where `erase` finds them (a header is never re-encoded the way a body may be).
    headers: { 'X-Held-Messages': messages.map((m) => m.id).join(' ') },
    text,
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}
