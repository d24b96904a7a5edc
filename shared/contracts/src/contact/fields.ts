/**
 * The contact message's fields, defined once. Everything else about a field is derived from its
 * row here: the form's inputs (name, label, hint, type, autocomplete), the form's schema and the
 * mail-service's (its rule, limit and texts), where it travels in the payload
 * (`{user:{name,email}, message:{subject,body}}`), how a plain HTML form post is read, and how it is
 * shown in the e-mail. Plain data, without the validation library: pages can state the limits and
 * labels without loading the schema (`./schema` builds the rules from these rows).
 */
import { CONTACT_LIMITS as L, CONTACT_MESSAGES as M } from './limits';

/**
 * What a field's value is, which decides its rule: `line` is one line of text that goes into a
 * mail header (no line breaks, no control characters, no encoded words); `email` an address a
 * person can be answered at; `text` free text with line breaks.
 */
export type ContactFieldKind = 'line' | 'email' | 'text';

export interface ContactFieldSpec {
  /** The form field's name: the input's `name`, and its key in the form's values. */
  readonly name: string;
  readonly label: string;
  /** Shown under the label; states the limit where there is one to state. */
  readonly hint: string;
  /** Where the value travels in the JSON payload: `[group, key]`. */
  readonly wire: readonly [string, string];
  readonly kind: ContactFieldKind;
  /** The HTML control: a one-line input or a text area. */
  readonly control: 'input' | 'textarea';
  readonly autoComplete: string;
  /** The most characters the field takes. */
  readonly limit: number;
  /**
   * A field the sender may leave empty (its rule then holds only for what is written). Absent:
   * required, as every field of the site's form is.
   */
  readonly optional?: boolean;
  /** Its texts: when it is missing or empty, and when it is longer than `limit`. */
  readonly messages: { readonly required: string; readonly tooLong: string };
  /**
   * How the e-mail shows it: a labelled row (`row`), or the e-mail's text itself (`body`). A
   * field whose row also names the sender (`replyTo`) gives the Reply-To header its name or address.
   */
  readonly email: { readonly show: 'row' | 'body'; readonly label: string };
}

/** The fields of the site's contact form, in the order the form shows them. */
export const CONTACT_FIELDS = [
  {
    name: 'fullName',
    label: 'Full name',
    hint: `Up to ${L.name} characters.`,
    wire: ['user', 'name'],
    kind: 'line',
    control: 'input',
    autoComplete: 'name',
    limit: L.name,
    messages: { required: M.nameRequired, tooLong: M.nameTooLong },
    email: { show: 'row', label: 'Name' },
  },
  {
    name: 'emailAddress',
    label: 'Email address',
    hint: 'We use it only to reply to you.',
    wire: ['user', 'email'],
    kind: 'email',
    control: 'input',
    autoComplete: 'email',
    limit: L.email,
    messages: { required: M.emailRequired, tooLong: M.emailTooLong },
    email: { show: 'row', label: 'E-mail' },
  },
  {
    name: 'subject',
    label: 'Subject',
    hint: `Up to ${L.subject} characters.`,
    wire: ['message', 'subject'],
    kind: 'line',
    control: 'input',
    autoComplete: 'off',
    limit: L.subject,
    messages: { required: M.subjectRequired, tooLong: M.subjectTooLong },
    email: { show: 'row', label: 'Subject' },
  },
  {
    name: 'message',
    label: 'Message',
    hint: `Up to ${L.body} characters.`,
    wire: ['message', 'body'],
    kind: 'text',
    control: 'textarea',
    autoComplete: 'off',
    limit: L.body,
    messages: { required: M.bodyRequired, tooLong: M.bodyTooLong },
    email: { show: 'body', label: 'Message' },
  },
] as const satisfies readonly ContactFieldSpec[];

/** The fields of a table, by form name. */
export type FieldName<T extends readonly ContactFieldSpec[]> = T[number]['name'];

/** The form's values for a table: one string per field. */
export type FormValuesOf<T extends readonly ContactFieldSpec[]> = {
  [F in T[number] as F['name']]: string;
};

/** The payload for a table: `{ group: { key: value } }`. */
export type PayloadOf<T extends readonly ContactFieldSpec[]> = {
  [G in T[number]['wire'][0]]: {
    [F in Extract<T[number], { wire: readonly [G, string] }> as F['wire'][1]]: string;
  };
};

/** The payload path of a field, as the mail-service names it in its errors: `user.email`. */
export const wirePath = (field: ContactFieldSpec): string => field.wire.join('.');

/** Reads a field's value from a payload (`undefined` when it is not there). */
export function wireValue(payload: unknown, field: ContactFieldSpec): string | undefined {
  const [group, key] = field.wire;
  const value = (payload as Record<string, Record<string, unknown> | undefined> | null)?.[group]?.[
    key
  ];
  return typeof value === 'string' ? value : undefined;
}

/** The form's values mapped onto the payload (trimmed), as the table says. */
export function toPayload<T extends readonly ContactFieldSpec[]>(
  table: T,
  values: FormValuesOf<T>,
): PayloadOf<T> {
  const payload: Record<string, Record<string, string>> = {};
  for (const field of table) {
    const [group, key] = field.wire;
    const value = (values as Record<string, string>)[field.name] ?? '';
    (payload[group] ??= {})[key] = value.trim();
  }
  return payload as PayloadOf<T>;
}

/**
 * The form's values from a plain HTML form post (`application/x-www-form-urlencoded`, already
 * parsed): each field's first value as text, a missing one empty. Nothing else is read.
 */
export function fromFormPost<T extends readonly ContactFieldSpec[]>(
  table: T,
  body: Readonly<Record<string, unknown>>,
): FormValuesOf<T> {
  const first = (value: unknown): string => {
    const one = Array.isArray(value) ? (value as unknown[])[0] : value;
    return typeof one === 'string' ? one : '';
  };
  const values: Record<string, string> = {};
  for (const field of table) values[field.name] = first(body[field.name]);
  return values as FormValuesOf<T>;
}

/** A labelled line of the e-mail. */
export interface EmailRow {
  label: string;
  value: string;
}

/**
 * What the e-mail shows of a payload: its labelled rows, in the table's order, and its text (the
 * fields shown as the body, one after another).
 */
export function emailContent(
  table: readonly ContactFieldSpec[],
  payload: unknown,
): { rows: EmailRow[]; body: string } {
  const rows: EmailRow[] = [];
  const body: string[] = [];
  for (const field of table) {
    const value = wireValue(payload, field) ?? '';
    if (field.email.show === 'row') rows.push({ label: field.email.label, value });
    else body.push(value);
  }
  return { rows, body: body.join('\n\n') };
}

/** Every field's value in the table's order: what identifies a message's contents. */
export const payloadValues = (table: readonly ContactFieldSpec[], payload: unknown): string[] =>
  table.map((field) => wireValue(payload, field) ?? '');
