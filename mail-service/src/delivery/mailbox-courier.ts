/**
 * Delivery when no relay is configured (SMTP_URL unset): each message becomes an RFC 5322 .eml
 * file in MAILBOX_DIR, for any mail program to open.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { Courier, MailRef } from './courier';
import { privateDir } from '@site/serving/private-dir';

/** File name of a delivered message: sortable by time, and the same on every attempt. */
const emlName = (message: MailRef) =>
  `${new Date(message.createdAt).toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '')}-${message.id}.eml`;

/**
 * Writes each message as an RFC 5322 .eml file into a folder. The file appears atomically (written
 * and synced under a temporary name, then renamed), and a repeat writes the same name again.
 */
export function createMailboxCourier(mailboxDir: string): Courier {
  // Made now, so the folder the start-up log names exists before the first message.
  privateDir(mailboxDir);
  const transport: Transporter = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'windows',
  });
  let renamed = false;
  return {
    mode: 'mailbox',
    async send(mail, message, recipients) {
      const info = await transport.sendMail(mail);
      const raw: unknown = info.message;
      if (!Buffer.isBuffer(raw)) throw new Error('the stream transport returned no buffer');
      await fs.mkdir(mailboxDir, { recursive: true, mode: 0o700 });
      const target = path.join(mailboxDir, emlName(message));
      const temp = path.join(mailboxDir, `.${message.id}.${process.pid}.tmp`);
      const handle = await fs.open(temp, 'w', 0o640);
      try {
        await handle.writeFile(raw);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.rename(temp, target);
      renamed = true;
      return { accepted: [...recipients], rejected: [] };
    },
    // One folder sync makes all the renames of a round durable, instead of one sync per file.
    async settle() {
      if (!renamed) return;
      renamed = false;
      await syncDir(mailboxDir);
    },
    async verify() {
      await fs.mkdir(mailboxDir, { recursive: true, mode: 0o700 });
      await fs.access(mailboxDir, fs.constants.W_OK);
    },
    // A file takes any header; mail programs read UTF-8 headers (RFC 6532).
    smtpUtf8: () => true,
    close() {
      transport.close();
    },
  };
}

// The rename is durable only once the folder itself is synced (not possible on every platform).
async function syncDir(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // best effort
  } finally {
    await handle?.close();
  }
}

/** Removes temporary files a crash left behind; the message itself is still queued. */
export async function cleanMailboxTemp(mailboxDir: string): Promise<void> {
  let names: string[];
  try {
    names = await fs.readdir(mailboxDir);
  } catch {
    return;
  }
  await Promise.all(
    names
      .filter((n) => n.startsWith('.') && n.endsWith('.tmp'))
      .map((n) => fs.rm(path.join(mailboxDir, n), { force: true })),
  );
}
