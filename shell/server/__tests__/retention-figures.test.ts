/**
 * @jest-environment node
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { RETENTION_DEFAULTS } from '@site/contracts/contact/retention';
import { RetentionFiguresSource } from '../contact/retention-figures';

/** A mail-service stand-in on a free port, answering GET /api/privacy as `answer` says. */
async function service(answer: (res: http.ServerResponse) => void) {
  const server = http.createServer((req, res) => {
    if (req.url === '/api/privacy') answer(res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => server.closeAllConnections() ?? server.close() };
}

const log = { warn: () => undefined };
const changed = { ...RETENTION_DEFAULTS, retentionDays: 45, spamRetentionDays: 3 };

describe('the privacy notice’s figures', () => {
  it('are the mail-service’s once it has answered', async () => {
    const mail = await service((res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(changed)),
    );
    try {
      const source = new RetentionFiguresSource({ mailService: mail.url, log });
      expect(source.current()).toEqual(RETENTION_DEFAULTS);
      await source.asked();
      expect(source.current()).toEqual(changed);
    } finally {
      mail.close();
    }
  });

  it('stay the defaults when the service hangs, and the question ends at its time limit', async () => {
    const mail = await service(() => undefined);
    try {
      const source = new RetentionFiguresSource({ mailService: mail.url, log, timeoutMs: 300 });
      const started = performance.now();
      await source.asked();
      expect(performance.now() - started).toBeLessThan(5000);
      expect(source.current()).toEqual(RETENTION_DEFAULTS);
    } finally {
      mail.close();
    }
  });

  it('keep the last figures told when an answer is not figures', async () => {
    let body = JSON.stringify(changed);
    const mail = await service((res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(body),
    );
    try {
      const source = new RetentionFiguresSource({ mailService: mail.url, log, maxAgeMs: 0 });
      await source.asked();
      for (const broken of [
        JSON.stringify({ retentionDays: -1, spamRetentionDays: '\u2028' }),
        JSON.stringify({ ...changed, retentionDays: '45\u0000' }),
        JSON.stringify({ ...changed, retentionDays: '\ud800' }),
        `{"retentionDays": ${'9'.repeat(1_000_000)}}`,
        'x'.repeat(1_000_000),
      ]) {
        body = broken;
        source.current();
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(source.current()).toEqual(changed);
      }
    } finally {
      mail.close();
    }
  });
});
