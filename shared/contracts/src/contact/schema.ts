import { z } from 'zod';
import {
  CONTACT_FIELDS,
  toPayload,
  wirePath,
  type ContactFieldSpec,
  type FieldName,
  type FormValuesOf,
  type PayloadOf,
} from './fields';
import { CONTACT_MESSAGES } from './limits';

/**
 * The contact message's rules, built from its field table (`./fields`). The contact form validates
 * with `contactFormSchema` (its field names), the mail-service with `contactMessageSchema` (the wire
 * shape); both come from the same rows, so they cannot drift apart.
 */

// Name, e-mail and subject end up in mail headers (Reply-To, Subject): no line breaks or other
// control characters, which is what header injection needs. U+2028/U+2029 are line breaks too.
// eslint-disable-next-line no-control-regex
const SINGLE_LINE = /^[^\u0000-\u001f\u007f\u2028\u2029]*$/;
// The body may hold line breaks and tabs, but no other control characters (NUL among them).
// eslint-disable-next-line no-control-regex
const BODY_CHARS = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;
// Bidirectional overrides, embeddings and isolates make text read differently from what it is
// (a "moc.elpmaxe" that shows as "example.com"); ordinary right-to-left text needs none of them.
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/;
// Characters that show as nothing: spaces, format characters, the Braille blank and the Hangul
// fillers. A value made only of them looks empty to the reader, so it counts as empty.
const INVISIBLE = /[\s\p{Cf}\p{Zs}\u180e\u2800\u3164\uffa0]|\u034f|\u115f|\u1160|\u17b4|\u17b5/gu;
// An RFC 2047 encoded word: a mail program decodes it in a header, so "=?UTF-8?Q?a=0D=0ABcc:...?="
// would show a line break and a header that the visitor typed as harmless-looking text.
const ENCODED_WORD = /=\?[^?\s]*\?[bq]\?[^?\s]*\?=/i;

const M = CONTACT_MESSAGES;

const visible = (value: string) => value.replace(INVISIBLE, '') !== '';
const noBidi = (value: string) => !BIDI_CONTROLS.test(value);
const noEncodedWord = (value: string) => !ENCODED_WORD.test(value);

/** Length in UTF-8 bytes: the unit of the SMTP limits (RFC 5321 and RFC 6531). */
function utf8Length(value: string): number {
  let n = 0;
  for (const ch of value) {
    const cp = ch.codePointAt(0) ?? 0;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}

// atext of RFC 5322, plus the letters, marks and digits of every script (RFC 6531).
const LOCAL_ATOM = /^[\p{L}\p{M}\p{N}!#$%&'*+/=?^_`{|}~-]+$/u;
const LDH_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const TOP_LABEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * The ASCII (A-label) form of a mail domain, or null when it is not one: `münchen.de` gives
 * `xn--mnchen-3ya.de`. The WHATWG URL parser does the IDNA mapping, in browsers and in Node alike.
 */
export function asciiDomain(domain: string): string | null {
  if (!/^[\p{L}\p{M}\p{N}.-]+$/u.test(domain)) return null;
  let host: string;
  try {
    host = new URL(`http://${domain}/`).hostname;
  } catch {
    return null;
  }
  if (host.length > 253) return null;
  const labels = host.split('.');
  const top = labels[labels.length - 1] ?? '';
  if (labels.length < 2 || !labels.every((l) => LDH_LABEL.test(l)) || !TOP_LABEL.test(top)) {
    return null;
  }
  return host;
}

/**
 * An address a person can be answered at: a dot-atom local part of at most 64 bytes, in any
 * script, and a domain name (internationalised or not). Quoted local parts and address literals
 * are valid in RFC 5321 but not something a visitor types, and they are where parsers disagree.
 */
export function isEmailAddress(value: string): boolean {
  const at = value.lastIndexOf('@');
  if (at <= 0 || at === value.length - 1) return false;
  const local = value.slice(0, at);
  if (utf8Length(local) > 64) return false;
  if (!local.split('.').every((atom) => LOCAL_ATOM.test(atom))) return false;
  return asciiDomain(value.slice(at + 1)) !== null;
}

/** Whether the part before the @ has non-ASCII characters: such an address needs SMTPUTF8. */
export const hasUtf8LocalPart = (email: string): boolean =>
  // eslint-disable-next-line no-control-regex
  /[^\u0000-\u007f]/.test(email.slice(0, email.lastIndexOf('@')));

/** A field that must be filled in: its "required" text when missing, or empty once trimmed. */
const filled = (field: ContactFieldSpec) =>
  z.string({ error: field.messages.required }).trim().min(1, { error: field.messages.required });

/** Written text: filled in with something visible, within the field's limit. */
const written = (field: ContactFieldSpec) =>
  filled(field)
    .refine(visible, { error: field.messages.required })
    .max(field.limit, { error: field.messages.tooLong });

/**
 * A field's rule, from its kind; for an optional field, empty (once trimmed) passes and anything
 * written is held to the same rule, with the same texts.
 */
export function fieldRule(field: ContactFieldSpec): z.ZodType<string, string> {
  const rule = requiredRule(field);
  if (!field.optional) return rule;
  return z.string().transform((value, ctx) => {
    if (value.trim() === '') return '';
    const checked = rule.safeParse(value);
    if (checked.success) return checked.data;
    for (const issue of checked.error.issues)
      ctx.addIssue({ code: 'custom', message: issue.message });
    return z.NEVER;
  }) as unknown as z.ZodType<string, string>;
}

function requiredRule(field: ContactFieldSpec): z.ZodType<string, string> {
  switch (field.kind) {
    case 'line':
      // Text that goes into a mail header: one line, read as it shows, never an encoded word.
      return written(field)
        .regex(SINGLE_LINE, { error: M.singleLine })
        .refine(noBidi, { error: M.singleLine })
        .refine(noEncodedWord, { error: M.encodedWord });
    case 'email':
      return filled(field)
        .max(field.limit, { error: field.messages.tooLong })
        .refine(isEmailAddress, { error: M.emailInvalid });
    case 'text':
      return written(field)
        .regex(BODY_CHARS, { error: M.bodyControl })
        .refine(noBidi, { error: M.bodyControl });
  }
}

/** A field that people never see; a value in it marks the sender as a bot. */
export const honeypotRule = z.string().max(200).optional();

/**
 * The signed time at which the form was first used (GET /api/form-token): a message sent sooner
 * after it than a person could write one is judged spam. Absent when the form was sent without
 * its script.
 */
export const formStartedTokenRule = z.string().max(200).optional();

// A missing or non-object group is "all fields are required"; an unknown key inside a group keeps
// zod's own message, which names the key (a custom text for every issue would hide it).
const groupError = (issue: { code: string }) =>
  issue.code === 'invalid_type' ? M.allRequired : undefined;

/** What a payload may carry besides its fields. */
export interface PayloadExtras {
  website?: string;
  formStartedToken?: string;
}

/**
 * The schemas of a field table: the form's (its field names) and the payload's (`POST
 * /api/sendmail`, the wire shape; unknown keys refused), with the payload path of each field.
 */
export function contactSchemas<T extends readonly ContactFieldSpec[]>(table: T) {
  const form: Record<string, z.ZodType<string, string>> = {};
  const groups: Record<string, Record<string, z.ZodType<string, string>>> = {};
  for (const field of table) {
    const rule = fieldRule(field);
    form[field.name] = rule;
    const [group, key] = field.wire;
    (groups[group] ??= {})[key] = rule;
  }
  const payload = z.strictObject({
    ...Object.fromEntries(
      Object.entries(groups).map(([group, keys]) => [
        group,
        z.strictObject(keys, { error: groupError }),
      ]),
    ),
    website: honeypotRule,
    formStartedToken: formStartedTokenRule,
  });
  return {
    form: z.object(form) as unknown as z.ZodType<FormValuesOf<T>, FormValuesOf<T>>,
    payload: payload as unknown as z.ZodType<
      PayloadOf<T> & PayloadExtras,
      PayloadOf<T> & PayloadExtras
    >,
    paths: Object.fromEntries(table.map((f) => [f.name, wirePath(f)])) as Record<
      FieldName<T>,
      string
    >,
  };
}

const site = contactSchemas(CONTACT_FIELDS);

/** The site's form, with the spec's field names. */
export const contactFormSchema = site.form;

/** The JSON body of `POST /api/sendmail`. Unknown keys are refused. */
export const contactMessageSchema = site.payload;

export type ContactForm = FormValuesOf<typeof CONTACT_FIELDS>;
export type ContactMessage = PayloadOf<typeof CONTACT_FIELDS> & PayloadExtras;
export type ContactFormField = FieldName<typeof CONTACT_FIELDS>;

/** The wire name of each form field, as the mail-service reports errors by it. */
export const FIELD_PATHS: Record<ContactFormField, string> = site.paths;

/** Maps the form onto the payload: fullName -> user.name, emailAddress -> user.email, ... */
export function toContactMessage(
  form: ContactForm,
  website = '',
  formStartedToken?: string,
): ContactMessage {
  return {
    ...toPayload(CONTACT_FIELDS, form),
    ...(website ? { website } : {}),
    ...(formStartedToken ? { formStartedToken } : {}),
  };
}

/** A field error as the mail-service returns it: `{ path: 'user.email', message: '...' }`. */
export interface FieldError {
  path: string;
  message: string;
}

/** The first error of each field, from a failed parse. */
export function fieldErrors(error: z.ZodError): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const issue of error.issues) {
    const path = issue.path.join('.') || '(body)';
    if (seen.has(path)) continue;
    seen.add(path);
    out.push({ path, message: issue.message });
  }
  return out;
}
