import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

/** The company's mailbox during the browser tests: a real SMTP server writing what it receives. */
export const SMTP_PORT = 3025;
export const MAILBOX_DIR = path.join(__dirname, '..', '.mailbox');

export async function startSmtpServer(): Promise<{ close: () => Promise<void> }> {
  mkdirSync(MAILBOX_DIR, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        count += 1;
        writeFileSync(path.join(MAILBOX_DIR, `${Date.now()}-${count}.eml`), Buffer.concat(chunks));
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(SMTP_PORT, '127.0.0.1', () => resolve());
  });
  return { close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The raw messages received so far. */
export function receivedMessages(): Buffer[] {
  try {
    return readdirSync(MAILBOX_DIR)
      .filter((f) => f.endsWith('.eml'))
      .sort()
      .map((f) => readFileSync(path.join(MAILBOX_DIR, f)));
  } catch {
    return [];
  }
}
