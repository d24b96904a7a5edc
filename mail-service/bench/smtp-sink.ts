/**
 * The relay for the benchmark: a real SMTP server in its own process that takes every message
 * (and counts them), so delivery runs over real SMTP without the load generator's event loop.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

let received = 0;
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, _session, callback) {
    stream.on('data', () => {});
    stream.on('end', () => {
      received += 1;
      callback();
    });
  },
});
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.server.address() as AddressInfo).port });
});
process.on('message', (m) => {
  if (m === 'count') process.send?.({ received });
  if (m === 'stop') server.close(() => process.exit(0));
});
