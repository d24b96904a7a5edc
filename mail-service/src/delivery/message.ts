/**
 * The e-mail a stored message becomes: headers, plain-text and HTML parts. The same on every
 * attempt, so that a repeat after a crash is recognisably the same message.
 */
import type { SendMailOptions } from 'nodemailer';
import { CONTACT_FIELDS, emailContent, hasUtf8LocalPart } from '@site/contracts/contact';
import { fromDomain, type Config } from '../config';
import type { StoredMessage } from '../outbox/queue';

export type MailConfig = Pick<Config, 'MAIL_FROM' | 'MAIL_TO'>;

const escapeHtml = (s: string): string =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** The Message-ID of a stored message: the same on every attempt, so a repeat is recognisable. */
export const messageIdHeader = (id: string, config: Pick<Config, 'MAIL_FROM'>): string =>
  `<${id}@${fromDomain(config)}>`;

/**
 * The e-mail for a stored message. From is the company's own address (so SPF/DKIM/DMARC align and
 * it is not filed as spam); the visitor is only the Reply-To. Visitor text reaches exactly two
 * headers, Subject and Reply-To, and only through nodemailer's address objects and encoders.
 */
export function buildMail(
  message: StoredMessage,
  config: MailConfig,
  { smtpUtf8 = true }: { smtpUtf8?: boolean } = {},
): SendMailOptions {
  const { user, message: m } = message.payload;
  // The schema refuses RFC 2047 encoded words, but a message stored under older rules may hold
  // one: a space after "=" keeps a mail program from decoding it into header-looking lines.
  const plain = (s: string) => s.replace(/=\?/g, '= ?');
  // An address with a UTF-8 local part may only appear in a header when the relay offers
  // SMTPUTF8; without it the visitor's address stays in the text only, never lost.
  const replyTo = smtpUtf8 || !hasUtf8LocalPart(user.email);
  const sent = new Date(message.createdAt);
  // The fields as the contact table shows them in an e-mail: labelled rows, then the text.
  const content = emailContent(CONTACT_FIELDS, message.payload);
  const rows = [...content.rows, { label: 'Sent', value: sent.toISOString() }];
  const text = [
    'A message from the contact form of the website.',
    '',
    ...rows.map((r) => `${`${r.label}:`.padEnd(9)}${r.value}`),
    '',
    content.body,
    '',
    '--',
    `Reply to this e-mail to answer ${user.name} directly.`,
    `Reference: ${message.id}`,
  ].join('\n');
  const row = (label: string, value: string) =>
    `<tr><th align="left" style="padding:2px 12px 2px 0">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`;
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif">',
    '<p>A message from the contact form of the website.</p>',
    `<table>${rows.map((r) => row(r.label, r.value)).join('')}</table>`,
    `<div style="white-space:pre-wrap;margin:16px 0;padding:12px;border-left:3px solid #ccc">${escapeHtml(content.body)}</div>`,
    `<p style="color:#666">Reply to this e-mail to answer ${escapeHtml(user.name)} directly. Reference: ${escapeHtml(message.id)}</p>`,
    '</body></html>',
  ].join('\n');
  return {
    from: { name: config.MAIL_FROM.name, address: config.MAIL_FROM.address },
    to: config.MAIL_TO.map((a) => ({ name: a.name, address: a.address })),
    ...(replyTo ? { replyTo: { name: plain(user.name), address: user.email } } : {}),
    subject: `Website enquiry: ${plain(m.subject)}`,
    messageId: messageIdHeader(message.id, { MAIL_FROM: config.MAIL_FROM }),
    date: sent,
    text,
    html,
    // Nothing here should ever make nodemailer read a file or fetch a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}
