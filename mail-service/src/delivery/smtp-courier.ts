/**
 * Delivery through the company's SMTP relay: a nodemailer pool for the sends, and a connection of
 * its own for the start-up check (which also learns whether the relay offers SMTPUTF8).
 */
import nodemailer from 'nodemailer';
import type { SendMailOptions } from 'nodemailer';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { isStringArray, type Courier } from './courier';

export interface SmtpTimeouts {
  connectionTimeout: number;
  greetingTimeout: number;
  socketTimeout: number;
}

/** Fail fast enough that a dead relay turns into a retry, not a send that hangs for minutes. */
export const SMTP_TIMEOUTS: SmtpTimeouts = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000,
};

export interface SmtpOptions {
  timeouts?: SmtpTimeouts;
  /** Connections to the relay, and so sends in progress at once. */
  connections?: number;
}

/** Reads what the relay offers after EHLO (nodemailer keeps it on the connection). */
function extensionsOf(connection: SMTPConnection): string[] {
  const seen: unknown = (connection as unknown as { _supportedExtensions?: unknown })
    ._supportedExtensions;
  return isStringArray(seen) ? seen : [];
}

export function createSmtpCourier(smtpUrl: string, options: SmtpOptions = {}): Courier {
  const timeouts = options.timeouts ?? SMTP_TIMEOUTS;
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: options.connections ?? 4,
    maxMessages: 100,
    ...timeouts,
    dnsTimeout: timeouts.connectionTimeout,
    logger: false,
    debug: false,
  });
  let utf8: boolean | null = null;
  const url = new URL(smtpUrl);
  return {
    mode: 'smtp',
    async send(mail, message, recipients) {
      const info = (await transport.sendMail({
        ...mail,
        envelope: envelopeOf(mail, recipients),
      })) as {
        accepted?: unknown;
        rejected?: unknown;
        rejectedErrors?: unknown;
      };
      const accepted = (isStringArray(info.accepted) ? info.accepted : []).map(String);
      const rejectedErrors = Array.isArray(info.rejectedErrors)
        ? (info.rejectedErrors as unknown[])
        : [];
      const rejected = (isStringArray(info.rejected) ? info.rejected : []).map((recipient, i) => ({
        recipient,
        error: rejectedErrors[i],
      }));
      return { accepted, rejected };
    },
    // The relay's 250 reply is the hand-over: nothing left to make durable here.
    async settle() {},
    // A connection of its own, so that what the relay offers (SMTPUTF8) is known before the
    // first message: the API tells a visitor at once when their address cannot be delivered.
    async verify() {
      const connection = new SMTPConnection({
        host: url.hostname,
        port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
        secure: url.protocol === 'smtps:',
        ...timeouts,
        logger: false,
      });
      try {
        await new Promise<void>((resolve, reject) => {
          connection.once('error', reject);
          connection.connect(() => resolve());
        });
        if (url.username) {
          await new Promise<void>((resolve, reject) =>
            connection.login(
              { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) },
              (err) => (err ? reject(err) : resolve()),
            ),
          );
        }
        utf8 = extensionsOf(connection).includes('SMTPUTF8');
      } finally {
        connection.quit();
        connection.close();
      }
    },
    smtpUtf8: () => utf8,
    close() {
      transport.close();
    },
  };
}

function envelopeOf(mail: SendMailOptions, recipients: string[]) {
  const from = mail.from;
  const address =
    typeof from === 'object' && from !== null && 'address' in from ? from.address : '';
  return { from: address, to: recipients };
}
