/**
 * The contact form without JavaScript: `POST /contact`, the form's fields urlencoded, answered by
 * the site server with the contact page as the form would show it (what was typed, each field's
 * message, the notice) or, once the mail-service has taken the message, a redirect to the sent
 * state. With JavaScript the form never posts here: it sends JSON to `/api/sendmail` itself.
 *
 * CSRF without script, on a page whose HTML is cached for everyone (docs/decisions.md, "The
 * contact form without JavaScript"): the post must come from the site's own origin (Origin, else
 * Sec-Fetch-Site: same-origin) and carry the form's cookie, SameSite=Strict and HttpOnly, which
 * every `GET /contact` answer sets beside the cached page. A post without the cookie (the page came
 * from a cache that kept the cookie back) gets the form again, as typed, with the cookie and a
 * notice to press Send once more.
 *
 * The contact page's own document: only a browser loading it into a tab (http/navigation.ts) gets
 * the form's cookie and the page's token (which `/api/sendmail` requires, contact/api-proxy.ts), in a
 * copy of the page made for that answer; a script's fetch or a frame gets the page without them,
 * and a post that is not the form's own submission is refused. So code on another page can send
 * no message as the visitor (docs/decisions.md, "The contact message comes from the contact page").
 *
 * Every page answered here holds what one visitor typed or did: it is composed for this answer,
 * `no-store`, and never enters the shared page cache.
 */
import { createHash, randomBytes } from 'node:crypto';
import formBody from '@fastify/formbody';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  CONTACT_FIELDS,
  FIELD_PATHS,
  contactFormSchema,
  fromFormPost,
  toContactMessage,
  type ContactForm,
  type ContactFormField,
  type ContactMessage,
} from '@site/contracts/contact';
import { CONTACT_TOKEN_ELEMENT } from '../../src/pages/contact/contact-token';
import type { ContactFormState } from '../../src/pages/contact/form-state';
import { ComposedPage } from '../pages/cache';
import { scriptJson } from '../control-plane';
import { forwardedHeaders } from './api-proxy';
import { isDocumentNavigation } from '../http/navigation';
import { targetPath } from '../pages/answer';
import { REVALIDATE } from '@site/serving';
import { sendComposed } from '../pages/send-body';

export const CONTACT_PATH = '/contact';
/** The form's cookie: set on every contact page, required on every post of the form. */
export const FORM_COOKIE = 'contact-form';
/** Where a sent form leads: the contact page in its sent state, at the confirmation. */
export const SENT_LOCATION = `${CONTACT_PATH}?sent=1#message-sent`;

/** `html` with `tags` put just before its `</body>` (at its end without one). */
const beforeBodyEnd = (html: string, tags: string): string => {
  const end = html.lastIndexOf('</body>');
  return end === -1 ? html + tags : html.slice(0, end) + tags + html.slice(end);
};

/**
 * The largest form body taken. The fields' limits (5,554 characters in all) percent-encoded at up
 * to nine bytes a character (a three-byte UTF-8 character is %XX%XX%XX) stay below it; a bigger
 * body is a 413 before it is read.
 */
export const FORM_BODY_LIMIT = 64 * 1024;

/** 32 random bytes, base64url. */
const COOKIE_TOKEN = /^[A-Za-z0-9_-]{43}$/;
const newToken = (): string => randomBytes(32).toString('base64url');
const COOKIE_MAX_AGE = 7 * 24 * 60 * 60;

const FIELDS = CONTACT_FIELDS.map((f) => f.name) as ContactFormField[];
const HTML = 'text/html; charset=utf-8';
const NO_STORE = 'no-store';

/**
 * A field as a form posts it: one string, absent when left out. A name sent twice counts by its
 * first value, as the form has each name once.
 */
const posted = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((value) => (Array.isArray(value) ? (value[0] ?? '') : (value ?? '')));

/** The posted form's honeypot; the fields are read as the contact table names them. */
const postedTrap = z.object({ website: posted });

/** How long the form's call to the mail-service may take before the visitor is told it failed. */
const TIMEOUT_MS = 15000;

type Verdict = 'ok' | 'refused';

/**
 * Whether the post comes from the site itself: its Origin is the site's public origin or the
 * origin this request was made to; without an Origin, Fetch Metadata must say same-origin.
 * Neither header: refused, as every browser that posts a form sends one of them.
 */
function checkOrigin(request: FastifyRequest, siteOrigin: string): Verdict {
  const origin = request.headers.origin;
  if (origin !== undefined) {
    const own = `${request.protocol}://${request.host}`;
    return origin === siteOrigin || origin === own ? 'ok' : 'refused';
  }
  return request.headers['sec-fetch-site'] === 'same-origin' ? 'ok' : 'refused';
}

/** The first message of each field that does not pass the shared schema. */
function fieldErrors(values: ContactForm): Partial<Record<ContactFormField, string>> | null {
  const parsed = contactFormSchema.safeParse(values);
  if (parsed.success) return null;
  const errors: Partial<Record<ContactFormField, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && FIELDS.includes(field as ContactFormField)) {
      errors[field as ContactFormField] ??= issue.message;
    }
  }
  return errors;
}

const fieldByPath = new Map(
  Object.entries(FIELD_PATHS).map(([field, wire]) => [wire, field as ContactFormField]),
);

/** What the mail-service answered, as the form shows it. */
type SendOutcome =
  | { kind: 'sent' }
  | { kind: 'invalid'; errors: Partial<Record<ContactFormField, string>> }
  | { kind: 'rate-limited'; retryAfterSeconds: number | null }
  | { kind: 'failed'; server: boolean; why: string };

export async function contactFormRoutes(app: FastifyInstance): Promise<void> {
  // The site's public origin (SITE_URL): what the browser sends as Origin, and so the mail-service.
  const siteOrigin = new URL(app.shellBuild.siteUrl).origin;
  const { FORM_STATE_ELEMENT } = app.shellBuild.shell;
  const sendmail = new URL('/api/sendmail', app.config.MAIL_SERVICE_URL).href;
  const timeoutMs = TIMEOUT_MS;
  // Here a body is a form, and nothing else: JSON and the rest are a 415.
  app.removeAllContentTypeParsers();
  await app.register(formBody, { bodyLimit: FORM_BODY_LIMIT });

  /**
   * The contact page with the form in a visitor's state (what they typed, its messages, or sent),
   * for one answer: rendered by the shell's processes (no remote code runs on this page), never
   * cached, with the state in the page for the form's code to start from.
   */
  async function composeWith(
    request: FastifyRequest,
    state: ContactFormState,
    status: number,
  ): Promise<ComposedPage> {
    const page = await app.pages.composeOnce(await app.live(), CONTACT_PATH, true, state);
    if (page.failure) throw new Error(`the contact page could not be rendered: ${page.failure}`);
    const stateScript = `<script type="application/json" id="${FORM_STATE_ELEMENT}">${scriptJson(state)}</script>`;
    return new ComposedPage(status, withToken(request, beforeBodyEnd(page.html, stateScript)));
  }

  /** The contact page as a document loaded into a tab gets it: with its own token. */
  function withToken(request: FastifyRequest, html: string): string {
    if (!isDocumentNavigation(request)) return html;
    const token = app.canary.signer.contactToken();
    return beforeBodyEnd(
      html,
      `<script type="application/json" id="${CONTACT_TOKEN_ELEMENT}">${scriptJson(token)}</script>`,
    );
  }

  /**
   * The visitor's form cookie, or a new one; set again on every answer to a document's navigation
   * (its life starts anew), and to nothing else.
   */
  function formCookie(request: FastifyRequest, reply: FastifyReply): string | null {
    const existing = parseCookies(request.headers.cookie ?? '')[FORM_COOKIE];
    const valid = existing !== undefined && COOKIE_TOKEN.test(existing) ? existing : null;
    if (!isDocumentNavigation(request)) return valid;
    reply.header(
      'set-cookie',
      serializeCookie(FORM_COOKIE, valid ?? newToken(), {
        path: CONTACT_PATH,
        httpOnly: true,
        sameSite: 'strict',
        secure: request.protocol === 'https',
        maxAge: COOKIE_MAX_AGE,
      }),
    );
    return valid;
  }

  async function answer(
    request: FastifyRequest,
    reply: FastifyReply,
    state: ContactFormState,
    status: number,
    headers: Record<string, string> = {},
  ) {
    const page = await composeWith(request, state, status);
    return sendComposed(request, reply, page, { type: HTML, cacheControl: NO_STORE, headers });
  }

  /** Hands the message to the mail-service as the site's own form: once per idempotency key. */
  async function send(
    request: FastifyRequest,
    message: ContactMessage,
    idempotencyKey: string,
  ): Promise<SendOutcome> {
    // The site has made its own origin and token checks; the mail-service's double-submit pair
    // is made here, fresh for this call.
    const csrf = newToken();
    const forwarded = forwardedHeaders(request, {});
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
      origin: siteOrigin,
      cookie: `XSRF-TOKEN=${csrf}`,
      'x-xsrf-token': csrf,
      'idempotency-key': idempotencyKey,
    };
    for (const [name, value] of Object.entries(forwarded)) {
      if (typeof value === 'string') headers[name] = value;
    }
    let response: Response | undefined;
    let why = '';
    // One more try after a connection that failed: the idempotency key makes it safe.
    for (let attempt = 0; attempt < 2 && !response; attempt++) {
      try {
        response = await fetch(sendmail, {
          method: 'POST',
          headers,
          body: JSON.stringify(message),
          signal: AbortSignal.timeout(timeoutMs),
          redirect: 'error',
        });
      } catch (error) {
        why =
          error instanceof Error
            ? error.cause instanceof Error
              ? error.cause.message
              : error.message
            : String(error);
      }
    }
    if (!response) return { kind: 'failed', server: true, why: `not reachable (${why})` };
    const body = (await response.json().catch(() => null)) as {
      fields?: { path?: unknown; message?: unknown }[];
      error?: unknown;
    } | null;
    if (response.status === 202) return { kind: 'sent' };
    if (response.status === 400 && Array.isArray(body?.fields)) {
      const errors: Partial<Record<ContactFormField, string>> = {};
      for (const f of body.fields) {
        const field = typeof f.path === 'string' ? fieldByPath.get(f.path) : undefined;
        if (field && typeof f.message === 'string') errors[field] ??= f.message;
      }
      if (Object.keys(errors).length > 0) return { kind: 'invalid', errors };
    }
    if (response.status === 429) {
      const seconds = Number(response.headers.get('retry-after'));
      return {
        kind: 'rate-limited',
        retryAfterSeconds: Number.isFinite(seconds) && seconds > 0 ? seconds : null,
      };
    }
    const code = typeof body?.error === 'string' ? ` ${body.error}` : '';
    return {
      kind: 'failed',
      server: response.status >= 500 || response.status === 403,
      why: `answered ${response.status}${code}`,
    };
  }

  app.get(CONTACT_PATH, async (request, reply) => {
    formCookie(request, reply);
    const { query } = targetPath(request.url);
    if (new URLSearchParams(query).get('sent') === '1') {
      // The sent state holds nothing of the message: it says it was sent, and what happens next.
      return answer(request, reply, { sent: true }, 200);
    }
    const page = await app.pages.page(await app.live(), CONTACT_PATH);
    if (!isDocumentNavigation(request)) {
      return sendComposed(request, reply, page, { type: HTML, cacheControl: REVALIDATE });
    }
    // The cached page with this document's token: for this answer alone.
    const own = new ComposedPage(
      page.status,
      withToken(request, page.body.toString('utf8')),
      page.headers,
    );
    return sendComposed(request, reply, own, { type: HTML, cacheControl: NO_STORE });
  });

  app.post(CONTACT_PATH, { bodyLimit: FORM_BODY_LIMIT }, async (request, reply) => {
    const token = formCookie(request, reply);
    // Only the form's own submission, in the tab it was filled in: never a script's post or a frame's.
    if (checkOrigin(request, siteOrigin) !== 'ok' || !isDocumentNavigation(request)) {
      // Nothing of a foreign post is shown back: it may not be what the visitor typed.
      return answer(request, reply, { notice: { kind: 'refused' } }, 403);
    }
    const body = (request.body ?? {}) as Record<string, unknown>;
    const parsed = postedTrap.safeParse(body);
    if (!parsed.success || typeof body !== 'object') {
      return reply
        .code(400)
        .header('cache-control', NO_STORE)
        .type('text/plain; charset=utf-8')
        .send('The form could not be read. Please go back and send it again.\n');
    }
    const form = parsed.data;
    const values: ContactForm = fromFormPost(CONTACT_FIELDS, body);
    const errors = fieldErrors(values);
    if (errors) return answer(request, reply, { values, errors, notice: { kind: 'invalid' } }, 422);
    if (!token) return answer(request, reply, { values, notice: { kind: 'send-again' } }, 422);

    const message = toContactMessage(values, form.website);
    // The same form sent twice (a double click, a reload of the answer) is one message: the key
    // is the visitor's form cookie and the message itself.
    const key = `form-${createHash('sha256')
      .update(token)
      .update('\0')
      .update(JSON.stringify(message))
      .digest('base64url')}`;
    const outcome = await send(request, message, key);
    switch (outcome.kind) {
      case 'sent':
        return reply
          .code(303)
          .header('cache-control', NO_STORE)
          .header('location', SENT_LOCATION)
          .send();
      case 'invalid':
        return answer(
          request,
          reply,
          { values, errors: outcome.errors, notice: { kind: 'invalid' } },
          422,
        );
      case 'rate-limited':
        return answer(
          request,
          reply,
          {
            values,
            notice: { kind: 'rate-limited', retryAfterSeconds: outcome.retryAfterSeconds },
          },
          429,
          outcome.retryAfterSeconds ? { 'retry-after': String(outcome.retryAfterSeconds) } : {},
        );
      case 'failed':
        request.log.warn(
          `site: a contact form posted without JavaScript was not sent: the mail-service ${outcome.why}`,
        );
        return answer(
          request,
          reply,
          { values, notice: { kind: 'failed', server: outcome.server } },
          503,
          { 'retry-after': '30' },
        );
    }
  });
}
