/**
 * The time trap's token: asked for once when the visitor first uses the form (focus or input),
 * sent with the message as `formStartedToken`, so the mail-service can tell a form filled in by a
 * person from one posted the instant it loaded. It lives apart from the form's code, so the page
 * asks at the first use even when the visitor starts typing before that code has arrived.
 */

let pending: Promise<string | null> | null = null;

/** A token from the mail-service; null when it has none to give (no endpoint, 404) or fails. */
async function fetchToken(): Promise<string | null> {
  try {
    const res = await fetch('/api/form-token', {
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { Accept: 'application/json' },
    });
    if (!res.ok) return null;
    const body = (await res.json().catch(() => null)) as { token?: unknown } | null;
    const token = body?.token;
    return typeof token === 'string' && token.length > 0 && token.length <= 200 ? token : null;
  } catch {
    return null;
  }
}

/** The form is being used: asks for its token, once per message. */
export function formStarted(): void {
  pending ??= fetchToken();
}

/** The token of the message being sent, waiting at most `waitMs` for it; null without one. */
export async function formStartedToken(waitMs: number): Promise<string | null> {
  formStarted();
  const token = pending ?? Promise.resolve(null);
  return Promise.race([
    token,
    new Promise<null>((resolve) => setTimeout(() => resolve(null), waitMs)),
  ]);
}

/** The message was sent: the next one is timed from its own first use. */
export function formTokenUsed(): void {
  pending = null;
}
