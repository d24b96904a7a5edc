/**
 * POST /api/sendmail: a contact form message, validated with the shared schema, stored durably in
 * the outbox and answered 202 only once it is on disk. Spam (src/spam.ts), Idempotency-Key
 * replays and the relay's SMTPUTF8 support are decided here; body reading, CSRF and the rate
 * limit are middleware in front of it.
 */
import type { Request, RequestHandler } from 'express';
import type { Logger } from 'pino';
import {
  CONTACT_MESSAGES,
  contactMessageSchema,
  fieldErrors,
  hasUtf8LocalPart,
  type ContactMessage,
  type FieldError,
} from '@site/contracts/contact';
import type { DeliveryStatus } from '../delivery/worker';
import { sendError, storageUnavailable } from '../errors';
import { FORM_STARTED_TOKEN_FIELD, FORM_TOKEN_MAX_LENGTH, type FormTokens } from '../form-token';
import type { Metrics } from '../metrics';
import { parseJson } from '../middleware/json-body';
import type { EnqueueResult } from '../outbox/intake';
import { OUTBOX_UNAVAILABLE, type Outbox } from '../outbox/outbox';
import { judgeSpam, type SpamJudgement, type SpamRules } from '../spam';

/** 1 to 200 printable ASCII characters. */
const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,200}$/;

const emailDomain = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/** A valid message on its way from `validateMessage` to `storeMessage` (in res.locals). */
interface Accepted {
  payload: ContactMessage;
  /** The time trap's token, when the form sent one. */
  formStartedToken: string | undefined;
  key: string | undefined;
  client: string;
  replay?: Promise<EnqueueResult>;
}

export interface ValidateDeps {
  outbox: Outbox;
  delivery: { status(): DeliveryStatus };
  clientOf: (req: Request) => string;
}

/**
 * Checks the Idempotency-Key and the message, and notes a replay of a stored message (which the
 * rate limit then does not count). Comes before the rate limiter, so that invalid messages do
 * not use up the allowance.
 */
export function validateMessage({ outbox, delivery, clientOf }: ValidateDeps): RequestHandler {
  return async (req, res, next) => {
    const rawKey = req.get('idempotency-key');
    if (rawKey !== undefined && !IDEMPOTENCY_KEY.test(rawKey)) {
      return sendError(
        res,
        400,
        'invalid_idempotency_key',
        'The Idempotency-Key header must be 1 to 200 printable characters.',
      );
    }
    const json = parseJson(req.body);
    if (!json.ok) return sendError(res, 400, json.error, json.message);
    const { message, formStartedToken, tokenError } = takeFormToken(json.value);
    const parsed = contactMessageSchema.safeParse(message);
    if (!parsed.success || tokenError) {
      return sendError(res, 400, 'invalid_message', CONTACT_MESSAGES.fillMissing, {
        fields: [...(parsed.success ? [] : fieldErrors(parsed.error)), ...(tokenError ?? [])],
      });
    }
    const payload = parsed.data;
    // An address with a UTF-8 local part can only be put in the Reply-To when the relay takes
    // SMTPUTF8; when it is known not to, the visitor is told now rather than never answered.
    if (hasUtf8LocalPart(payload.user.email) && delivery.status().smtpUtf8 === false) {
      return sendError(res, 400, 'invalid_message', CONTACT_MESSAGES.fillMissing, {
        fields: [{ path: 'user.email', message: CONTACT_MESSAGES.emailNeedsAscii }],
      });
    }
    const client = clientOf(req);
    const accepted: Accepted = { payload, formStartedToken, key: rawKey, client };
    if (rawKey !== undefined) {
      // A store that cannot be read now answers 503 in storeMessage, like one that cannot be
      // written; the request is not counted either way.
      try {
        const found = await outbox.replayOf(client, rawKey, payload);
        if (found) {
          accepted.replay = Promise.resolve(found);
          res.locals.replay = true;
        }
      } catch (error) {
        const failed = Promise.reject(error as Error);
        failed.catch(() => undefined);
        accepted.replay = failed;
        res.locals.replay = true;
      }
    }
    res.locals.accepted = accepted;
    next();
  };
}

/**
 * The time trap's token is a top-level field of the payload that the shared schema does not know
 * (it refuses unknown keys): taken out here and checked on its own, a string of at most 200
 * characters when present.
 */
function takeFormToken(value: unknown): {
  message: unknown;
  formStartedToken: string | undefined;
  tokenError?: FieldError[];
} {
  if (
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value) ||
    !Object.hasOwn(value, FORM_STARTED_TOKEN_FIELD)
  ) {
    return { message: value, formStartedToken: undefined };
  }
  const { [FORM_STARTED_TOKEN_FIELD]: token, ...message } = value as Record<string, unknown>;
  if (typeof token === 'string' && token.length <= FORM_TOKEN_MAX_LENGTH) {
    return { message, formStartedToken: token };
  }
  return {
    message,
    formStartedToken: undefined,
    tokenError: [
      {
        path: FORM_STARTED_TOKEN_FIELD,
        message: `Expected the token of GET /api/form-token: a string of at most ${FORM_TOKEN_MAX_LENGTH} characters.`,
      },
    ],
  };
}

export interface StoreDeps {
  outbox: Outbox;
  delivery: { kick(): void; admit?(): Promise<void> | undefined };
  logger: Logger;
  metrics?: Metrics | undefined;
  formTokens: FormTokens;
  spamRules: SpamRules;
}

/** Judges the validated message, stores it (or answers the replay) and wakes delivery. */
export function storeMessage({
  outbox,
  delivery,
  logger,
  metrics,
  formTokens,
  spamRules,
}: StoreDeps): RequestHandler {
  return async (_req, res) => {
    const { payload, formStartedToken, key, client, replay } = res.locals.accepted as Accepted;
    let result: EnqueueResult;
    let spam: SpamJudgement = { reasons: [], score: 0, held: false };
    try {
      if (replay) result = await replay;
      else {
        // The token's key may come from the database: one that cannot be read is a 503 too.
        spam = judgeSpam(payload, await formTokens.check(formStartedToken), spamRules);
        if (!spam.held) await delivery.admit?.();
        result = await outbox.enqueue({
          payload,
          spamReasons: spam.reasons,
          held: spam.held,
          client,
          idempotencyKey: key,
        });
      }
    } catch (error) {
      logger.error(
        { err: error instanceof Error ? error.message : 'unknown' },
        `could not store a message: ${OUTBOX_UNAVAILABLE}; messages are answered 503 until then`,
      );
      return storageUnavailable(res, 'Your message could not be saved just now.');
    }
    if (result.outcome === 'conflict') {
      return sendError(
        res,
        422,
        'idempotency_key_reused',
        'This Idempotency-Key was already used for a different message. Send a new message with a new key.',
      );
    }
    if (result.outcome === 'replay') {
      logger.info({ messageId: result.messageId, replay: true }, 'message already stored');
      return res.status(202).json({ messageId: result.messageId });
    }
    metrics?.stored(spam.held);
    logger.info(
      {
        messageId: result.messageId,
        emailDomain: emailDomain(payload.user.email),
        bodyChars: payload.message.body.length,
        spam: spam.held,
        ...(spam.reasons.length > 0 ? { spamReasons: spam.reasons, spamScore: spam.score } : {}),
      },
      spam.held
        ? 'message held as spam: it is in the next digest to sales, who can release it'
        : 'message stored',
    );
    if (!spam.held) delivery.kick();
    res.status(202).json({ messageId: result.messageId });
  };
}
