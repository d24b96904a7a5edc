/**
 * A real SMTP server on a port of its own, standing in for the company's relay, with what it
 * received and how it answered; and a port where nothing listens, for a relay that is down.
 */
import net from 'node:net';
import { SMTPServer, type SMTPServerEnvelope } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

export interface Received {
  mail: ParsedMail;
  envelope: SMTPServerEnvelope;
}

/** One DATA of one message as the relay saw it: who sent it (its EHLO name) and when. */
export interface DataSession {
  messageId: string | undefined;
  client: string;
  start: number;
  end: number;
  accepted: boolean;
}

type Reply = { code: number; message: string } | undefined;

/** A real SMTP server on a port of its own, standing in for the company's relay. */
export class TestSmtp {
  readonly received: Received[] = [];
  /** Every DATA, accepted or refused, from its first byte to the relay's answer. */
  readonly sessions: DataSession[] = [];
  /** The EHLO names of the clients whose DATA the relay is taking right now, one per DATA. */
  readonly sending: string[] = [];
  /** Decides the reply to each DATA: undefined accepts, a code refuses. */
  reply: (attempt: number) => Reply = () => undefined;
  /** How long the server takes to answer each DATA, to hold a send in progress. */
  delayMs = 0;
  /** Decides the reply to MAIL FROM: undefined accepts. */
  mailFromReply: () => Reply = () => undefined;
  /** Decides the reply to each RCPT TO: undefined accepts. */
  rcptReply: (address: string) => Reply = () => undefined;
  private attempts = 0;
  private closed: Promise<void> | undefined;

  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
  ) {}

  static async start(port = 0, { smtpUtf8 = true } = {}): Promise<TestSmtp> {
    const holder: { self?: TestSmtp } = {};
    const refuse = (reply: Reply, callback: (err?: Error | null) => void) =>
      callback(
        reply ? Object.assign(new Error(reply.message), { responseCode: reply.code }) : undefined,
      );
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      hideSMTPUTF8: !smtpUtf8,
      logger: false,
      onMailFrom(_address, _session, callback) {
        refuse((holder.self as TestSmtp).mailFromReply(), callback);
      },
      onRcptTo(address, _session, callback) {
        refuse((holder.self as TestSmtp).rcptReply(address.address), callback);
      },
      onData(stream, session, callback) {
        const t = holder.self as TestSmtp;
        t.attempts += 1;
        const attempt = t.attempts;
        const start = Date.now();
        const client = session.hostNameAppearsAs;
        t.sending.push(client);
        let open = true;
        const done = () => {
          if (open) t.sending.splice(t.sending.indexOf(client), 1);
          open = false;
        };
        simpleParser(stream)
          .then(async (mail) => {
            if (t.delayMs > 0) await new Promise((r) => setTimeout(r, t.delayMs));
            const reply = t.reply(attempt);
            const messageId = mail.messageId;
            t.sessions.push({ messageId, client, start, end: Date.now(), accepted: !reply });
            done();
            if (reply) {
              callback(Object.assign(new Error(reply.message), { responseCode: reply.code }));
              return;
            }
            t.received.push({ mail, envelope: session.envelope });
            callback();
          })
          .catch((error: Error) => {
            done();
            callback(error);
          });
      },
    });
    // A client that dies mid-session (the service SIGKILLed by a test) resets its connection; a
    // relay carries on, and without a listener the reset would be thrown as an uncaught error.
    server.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') throw error;
    });
    await new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    const address = server.server.address() as net.AddressInfo;
    holder.self = new TestSmtp(server, address.port);
    return holder.self;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  get dataAttempts(): number {
    return this.attempts;
  }

  /** Stops the server (once, however often called). */
  close(): Promise<void> {
    this.closed ??= new Promise((resolve) => this.server.close(() => resolve()));
    return this.closed;
  }
}

/** A port nobody listens on (taken from the OS, then released). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
