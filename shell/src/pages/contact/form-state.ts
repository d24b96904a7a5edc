import { createContext, useContext } from 'react';
import { CONTACT_FIELDS, type ContactForm, type ContactFormField } from '@site/contracts/contact';

/** Why the form came back from the server without the message being sent. */
export type FormNotice =
  /** Fields need fixing: the general notice, and each field's message beside it. */
  | { kind: 'invalid' }
  /** The form's cookie was missing (a page cached before it was set): press Send again. */
  | { kind: 'send-again' }
  /** The post did not come from the site itself. */
  | { kind: 'refused' }
  | { kind: 'rate-limited'; retryAfterSeconds: number | null }
  /** The message service did not take the message: `server` when it answered with an error. */
  | { kind: 'failed'; server: boolean };

/**
 * The contact form as the site server answers a form posted without JavaScript: what the visitor
 * typed, the fields' messages and the notice, or the sent state. The server renders the page with
 * it and puts it in the page (`FORM_STATE_ELEMENT`), so the browser's first render, when the form's
 * code arrives, is the same markup and adopts it.
 */
export interface ContactFormState {
  sent?: boolean;
  values?: ContactForm;
  errors?: Partial<Record<ContactFormField, string>>;
  notice?: FormNotice;
}

/** The id of the `<script type="application/json">` element that carries the state in the page. */
export const FORM_STATE_ELEMENT = 'contact-form-state';

/** The id of the sent confirmation's heading: the target of the address after a sent form. */
export const SENT_ANCHOR = 'message-sent';

/** The state the server renders the form with (only on the server). */
export const ServerFormState = createContext<ContactFormState | null>(null);

/** The form's fields, as the field table lists them. */
const FIELDS = CONTACT_FIELDS.map((field) => field.name) as ContactFormField[];
const isText = (value: unknown): value is string => typeof value === 'string';

/** The state in the page, checked field by field: anything else in it is left out. */
function parseState(text: string): ContactFormState {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return {};
  }
  if (!raw || typeof raw !== 'object') return {};
  const { sent, values, errors, notice } = raw as Record<string, unknown>;
  const state: ContactFormState = {};
  if (sent === true) state.sent = true;
  if (values && typeof values === 'object') {
    const v = values as Record<string, unknown>;
    state.values = Object.fromEntries(
      FIELDS.map((field) => [field, isText(v[field]) ? v[field] : '']),
    ) as ContactForm;
  }
  if (errors && typeof errors === 'object') {
    const e = errors as Record<string, unknown>;
    state.errors = {};
    for (const field of FIELDS) {
      const message = e[field];
      if (isText(message)) state.errors[field] = message;
    }
  }
  if (notice && typeof notice === 'object') {
    const n = notice as Record<string, unknown>;
    if (n.kind === 'invalid' || n.kind === 'send-again' || n.kind === 'refused') {
      state.notice = { kind: n.kind };
    } else if (n.kind === 'rate-limited') {
      const seconds = n.retryAfterSeconds;
      state.notice = {
        kind: 'rate-limited',
        retryAfterSeconds: typeof seconds === 'number' && seconds > 0 ? seconds : null,
      };
    } else if (n.kind === 'failed') {
      state.notice = { kind: 'failed', server: n.server === true };
    }
  }
  return state;
}

const read = new WeakMap<Element, ContactFormState>();

/**
 * The state the page was served with. It belongs to the page the visitor entered by: once the form
 * it was for has gone, it is taken out of the page, and a later visit within the site starts empty.
 */
function stateInPage(): ContactFormState {
  if (typeof document === 'undefined') return {};
  const element = document.getElementById(FORM_STATE_ELEMENT);
  if (!element) return {};
  let state = read.get(element);
  if (!state) {
    state = parseState(element.textContent ?? '');
    read.set(element, state);
  }
  return state;
}

/** Takes the state out of the page once the form it was for has gone. */
export function formStateUsed(): void {
  if (typeof document !== 'undefined') document.getElementById(FORM_STATE_ELEMENT)?.remove();
}

/** The state the form starts with: the server's, on the server; in the browser, the page's. */
export function useInitialFormState(): ContactFormState {
  const fromServer = useContext(ServerFormState);
  return fromServer ?? stateInPage();
}
