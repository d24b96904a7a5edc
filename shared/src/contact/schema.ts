import { z } from 'zod';

/**
 * The contact message: its rules, limits and texts, in one place. The contact form validates with
 * `contactFormSchema` (its field names), the mail-service with `contactMessageSchema` (the wire
 * shape); both are built from the same field rules, so they cannot drift apart.
 */

export const CONTACT_LIMITS = {
  name: 100,
  email: 254,
  subject: 200,
  body: 5000,
} as const;

/** Texts shown to the visitor. The first eight are the spec's, word for word. */
export const CONTACT_MESSAGES = {
  nameRequired: 'Please enter your name..',
  emailRequired: 'Please enter an email address..',
  emailInvalid: 'Please enter a valid email address..',
  subjectRequired: 'Please enter a subject..',
  bodyRequired: 'Please enter your message..',
  allRequired: 'All fields are required..',
  fillMissing: 'Please fill in the missing fields..',
  sent: 'Your message has been sent..',
  nameTooLong: `Please keep your name to ${CONTACT_LIMITS.name} characters or fewer.`,
  emailTooLong: `Please keep the email address to ${CONTACT_LIMITS.email} characters or fewer.`,
  subjectTooLong: `Please keep the subject to ${CONTACT_LIMITS.subject} characters or fewer.`,
  bodyTooLong: `Please keep your message to ${CONTACT_LIMITS.body} characters or fewer.`,
  singleLine: 'Please keep this to a single line, without special control characters.',
  bodyControl: 'Please remove special control characters from your message.',
} as const;

// Name, e-mail and subject end up in mail headers (Reply-To, Subject): no line breaks or other
// control characters, which is what header injection needs.
// eslint-disable-next-line no-control-regex
const SINGLE_LINE = /^[^\u0000-\u001f\u007f]*$/;
// The body may hold line breaks and tabs, but no other control characters (NUL among them).
// eslint-disable-next-line no-control-regex
const BODY_CHARS = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;

const M = CONTACT_MESSAGES;
const L = CONTACT_LIMITS;

export const nameRule = z
  .string({ error: M.nameRequired })
  .trim()
  .min(1, { error: M.nameRequired })
  .max(L.name, { error: M.nameTooLong })
  .regex(SINGLE_LINE, { error: M.singleLine });

export const emailRule = z
  .string({ error: M.emailRequired })
  .trim()
  .min(1, { error: M.emailRequired })
  .max(L.email, { error: M.emailTooLong })
  .pipe(z.email({ error: M.emailInvalid }));

export const subjectRule = z
  .string({ error: M.subjectRequired })
  .trim()
  .min(1, { error: M.subjectRequired })
  .max(L.subject, { error: M.subjectTooLong })
  .regex(SINGLE_LINE, { error: M.singleLine });

export const bodyRule = z
  .string({ error: M.bodyRequired })
  .trim()
  .min(1, { error: M.bodyRequired })
  .max(L.body, { error: M.bodyTooLong })
  .regex(BODY_CHARS, { error: M.bodyControl });

/** A field that people never see; a value in it marks the sender as a bot. */
export const honeypotRule = z.string().max(200).optional();

/** The form, with the spec's field names. */
export const contactFormSchema = z.object({
  fullName: nameRule,
  emailAddress: emailRule,
  subject: subjectRule,
  message: bodyRule,
});

// A missing or non-object group is "all fields are required"; an unknown key inside a group keeps
// zod's own message, which names the key (a custom text for every issue would hide it).
const groupError = (issue: { code: string }) =>
  issue.code === 'invalid_type' ? M.allRequired : undefined;

/** The JSON body of `POST /api/sendmail`. Unknown keys are refused. */
export const contactMessageSchema = z.strictObject({
  user: z.strictObject({ name: nameRule, email: emailRule }, { error: groupError }),
  message: z.strictObject({ subject: subjectRule, body: bodyRule }, { error: groupError }),
  website: honeypotRule,
});

export type ContactForm = z.input<typeof contactFormSchema>;
export type ContactMessage = z.output<typeof contactMessageSchema>;
export type ContactFormField = keyof ContactForm;

/** The wire name of each form field, as the mail-service reports errors by it. */
export const FIELD_PATHS: Record<ContactFormField, string> = {
  fullName: 'user.name',
  emailAddress: 'user.email',
  subject: 'message.subject',
  message: 'message.body',
};

/** Maps the form onto the payload: fullName -> user.name, emailAddress -> user.email, ... */
export function toContactMessage(form: ContactForm, website = ''): ContactMessage {
  return {
    user: { name: form.fullName.trim(), email: form.emailAddress.trim() },
    message: { subject: form.subject.trim(), body: form.message.trim() },
    ...(website ? { website } : {}),
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
