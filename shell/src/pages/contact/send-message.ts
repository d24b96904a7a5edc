import { FIELD_PATHS, type ContactFormField, type ContactMessage } from '@site/contracts/contact';
import { CONTACT_TOKEN_HEADER, contactToken } from './contact-token';

export type SendResult =
  | { ok: true; messageId: string }
  | {
      ok: false;
      kind: 'invalid';
      fields: Partial<Record<ContactFormField, string>>;
      message?: string;
    }
  | { ok: false; kind: 'rate-limited'; retryAfterSeconds: number | null }
  | { ok: false; kind: 'failed'; status: number | null };

/** The message as sent: the shared payload and, when the form got one, its start token. */
export type OutgoingMessage = ContactMessage & { formStartedToken?: string };

const CSRF_COOKIE = 'XSRF-TOKEN';

const readCookie = (name: string): string | null => {
  const match = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return match ? decodeURIComponent(match.slice(name.length + 1)) : null;
};

/** Makes sure the CSRF cookie is set (GET /api/csrf) and returns its value. */
async function csrfToken(refresh = false): Promise<string | null> {
  const existing = refresh ? null : readCookie(CSRF_COOKIE);
  if (existing) return existing;
  const res = await fetch('/api/csrf', { credentials: 'same-origin', cache: 'no-store' });
  if (!res.ok) return null;
  return readCookie(CSRF_COOKIE);
}

const fieldByPath = Object.fromEntries(
  Object.entries(FIELD_PATHS).map(([field, path]) => [path, field]),
) as Record<string, ContactFormField>;

/**
 * Sends a contact message to the mail-service on the site's own origin, with the CSRF header it
 * expects and an idempotency key, so that sending the same message again (a retry after a lost
 * answer) is never delivered twice. A refused CSRF token is fetched afresh once. The contact
 * page's own token goes with it (contact-token.ts).
 */
export async function sendMessage(
  payload: OutgoingMessage,
  idempotencyKey: string,
): Promise<SendResult> {
  let response: Response | null = null;
  const own = contactToken();
  for (let attempt = 0; attempt < 2; attempt++) {
    let token: string | null;
    try {
      token = await csrfToken(attempt > 0);
      response = await fetch('/api/sendmail', {
        method: 'POST',
        credentials: 'same-origin',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json',
          'Idempotency-Key': idempotencyKey,
          ...(token ? { 'X-XSRF-TOKEN': token } : {}),
          ...(own ? { [CONTACT_TOKEN_HEADER]: own } : {}),
        },
        body: JSON.stringify(payload),
      });
    } catch {
      return { ok: false, kind: 'failed', status: null };
    }
    if (response.status !== 403) break;
  }
  if (!response) return { ok: false, kind: 'failed', status: null };

  const body = (await response.json().catch(() => null)) as {
    messageId?: unknown;
    message?: unknown;
    fields?: { path?: unknown; message?: unknown }[];
  } | null;

  if (response.status === 202 && typeof body?.messageId === 'string') {
    return { ok: true, messageId: body.messageId };
  }
  if (response.status === 400 && Array.isArray(body?.fields)) {
    const fields: Partial<Record<ContactFormField, string>> = {};
    for (const f of body.fields) {
      const field = typeof f.path === 'string' ? fieldByPath[f.path] : undefined;
      if (field && typeof f.message === 'string' && !fields[field]) fields[field] = f.message;
    }
    return {
      ok: false,
      kind: 'invalid',
      fields,
      message: typeof body.message === 'string' ? body.message : undefined,
    };
  }
  if (response.status === 429) {
    const seconds = Number(response.headers.get('Retry-After'));
    return {
      ok: false,
      kind: 'rate-limited',
      retryAfterSeconds: Number.isFinite(seconds) && seconds > 0 ? seconds : null,
    };
  }
  return { ok: false, kind: 'failed', status: response.status };
}
