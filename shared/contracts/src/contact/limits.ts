/**
 * The contact message's limits and the texts shown about it, without the validation library, so
 * pages can state the limits without loading the schema.
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
  encodedWord: 'Please write this as plain text, without =?...?= codes.',
  emailNeedsAscii:
    'Please use an email address without accented or non-Latin letters before the @: our mail server cannot accept such addresses yet.',
} as const;
