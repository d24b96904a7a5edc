/**
 * A held message's release link, from the digest: GET shows what will happen and a button, POST
 * releases the message (it is queued and delivered like any other). A GET never releases: mail
 * programs and link scanners open links on their own. The signature in the path is the only
 * authority (a link is for one message); the form needs no CSRF token, since a forged post would
 * need the signature.
 */
import type { RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { validReleaseSignature } from '../delivery/digest';
import { STORAGE_RETRY_AFTER_SECONDS } from '../errors';
import type { Outbox } from '../outbox/outbox';
import type { ServerSecret } from '../secret';

export interface HeldDeps {
  outbox: Outbox;
  secret: ServerSecret;
  delivery: { kick(): void };
  logger: Logger;
}

const ID = /^[0-9a-f-]{36}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(res: Response, status: number, title: string, body: string): void {
  res
    .status(status)
    .set('Content-Type', 'text/html; charset=utf-8')
    .set('X-Robots-Tag', 'noindex')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`,
    );
}

/** The checks both methods make; answers and returns undefined when the link is not good. */
async function heldMessage(
  { secret }: HeldDeps,
  params: Record<string, string | undefined>,
  res: Response,
): Promise<string | undefined> {
  const { id = '', signature = '' } = params;
  const valid =
    ID.test(id) &&
    SIGNATURE.test(signature) &&
    (await validReleaseSignature(secret, id, signature));
  if (!valid) {
    page(
      res,
      404,
      'This link is not valid',
      '<p>Open the link from the digest e-mail as it is.</p>',
    );
    return undefined;
  }
  return id;
}

type Params = { id: string; signature: string };

/** The secret and the messages are in the database: while it cannot be reached, a 503 page. */
const orUnavailable =
  (handler: RequestHandler<Params>): RequestHandler<Params> =>
  async (req, res, next) => {
    try {
      await handler(req, res, next);
    } catch {
      if (res.headersSent) return;
      res.set('Retry-After', String(STORAGE_RETRY_AFTER_SECONDS));
      page(
        res,
        503,
        'Please try again in a minute',
        '<p>The message store cannot be reached just now.</p>',
      );
    }
  };

export function heldPage(deps: HeldDeps): RequestHandler<Params> {
  return orUnavailable(async (req, res) => {
    const id = await heldMessage(deps, req.params, res);
    if (id === undefined) return;
    const [row] = await deps.outbox.list({ ids: [id], limit: 1 });
    if (!row)
      return page(
        res,
        404,
        'This message is gone',
        '<p>It was deleted after its retention period, or at its sender’s request.</p>',
      );
    if (row.status !== 'spam') {
      return page(
        res,
        200,
        'This message was released',
        '<p>It is no longer held: it has been or is being delivered.</p>',
      );
    }
    page(
      res,
      200,
      'Release this message?',
      `<p>Held as possible spam (${escapeHtml(row.spamReasons.join('; '))}). Released, it is delivered to the company’s mailbox like any message.</p><form method="post"><button type="submit">Release and deliver</button></form>`,
    );
  });
}

export function releaseHeld(deps: HeldDeps): RequestHandler<Params> {
  return orUnavailable(async (req, res) => {
    const id = await heldMessage(deps, req.params, res);
    if (id === undefined) return;
    const released = await deps.outbox.release([id]);
    if (released === 0) {
      const [row] = await deps.outbox.list({ ids: [id], limit: 1 });
      if (!row)
        return page(
          res,
          404,
          'This message is gone',
          '<p>It was deleted after its retention period, or at its sender’s request.</p>',
        );
      return page(
        res,
        200,
        'This message was released',
        '<p>It was released already: it has been or is being delivered.</p>',
      );
    }
    deps.logger.info(
      { messageId: id },
      'held message released from its digest link; it is delivered now',
    );
    deps.delivery.kick();
    page(res, 200, 'Released', '<p>The message is on its way to the company’s mailbox.</p>');
  });
}
