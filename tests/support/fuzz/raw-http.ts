/**
 * HTTP/1.1 on a raw socket: the request goes out byte for byte as written (fetch and http.request
 * would normalise the target, the method and the headers, which is what the fuzz must not do), and
 * the first answer is read back: status line, headers and body, framed by Content-Length, chunked
 * encoding or the server closing the connection.
 */
import net from 'node:net';

export interface Answer {
  status: number;
  /** The status line as sent. */
  statusLine: string;
  /** Header fields in the order sent, names lower-cased. */
  headers: [string, string][];
  /** The head as sent, status line to the empty line. */
  head: Buffer;
  /** The body with any chunked framing removed, still in its content coding. */
  body: Buffer;
}

export type Outcome =
  | { kind: 'answer'; answer: Answer }
  /** The connection was refused, reset or closed before a whole answer came. */
  | { kind: 'closed'; error: string; received: Buffer }
  | { kind: 'timeout'; received: Buffer }
  /** Bytes came back that are not an HTTP/1.x answer. */
  | { kind: 'garbled'; error: string; received: Buffer };

export function header(answer: Answer, name: string): string | undefined {
  return answer.headers.find(([n]) => n === name)?.[1];
}

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');

type Parsed =
  | { done: false }
  | { done: true; answer: Answer }
  | { done: true; error: string }
  /** A 1xx interim answer: the final one follows from `rest`. */
  | { done: 'interim'; rest: Buffer };

/** Reads a chunked body from `data`; null while incomplete. */
function dechunk(data: Buffer): Buffer | null | Error {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf(CRLF, at);
    if (lineEnd === -1) return null;
    const sizeText = data.subarray(at, lineEnd).toString('latin1').split(';')[0]?.trim() ?? '';
    if (!/^[0-9a-fA-F]+$/.test(sizeText)) return new Error(`bad chunk size "${sizeText}"`);
    const size = parseInt(sizeText, 16);
    at = lineEnd + 2;
    if (size === 0) {
      // Trailer fields, then the empty line.
      for (;;) {
        const end = data.indexOf(CRLF, at);
        if (end === -1) return null;
        if (end === at) return Buffer.concat(parts);
        at = end + 2;
      }
    }
    if (data.length < at + size + 2) return null;
    parts.push(data.subarray(at, at + size));
    at += size + 2;
  }
}

function parse(data: Buffer, isHead: boolean, closed: boolean): Parsed {
  const headEnd = data.indexOf(HEAD_END);
  if (headEnd === -1) {
    const start = data.subarray(0, 5).toString('latin1');
    if (start !== 'HTTP/'.slice(0, start.length))
      return { done: true, error: 'not an HTTP answer' };
    return { done: false };
  }
  const head = data.subarray(0, headEnd + 4);
  const lines = data.subarray(0, headEnd).toString('latin1').split('\r\n');
  const statusLine = lines[0] ?? '';
  const match = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(statusLine);
  if (!match) return { done: true, error: `bad status line "${statusLine}"` };
  const status = Number(match[1]);
  const headers: [string, string][] = [];
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) return { done: true, error: `bad header line "${line}"` };
    headers.push([line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()]);
  }
  const rest = data.subarray(headEnd + 4);
  if (status >= 100 && status < 200) return { done: 'interim', rest };
  const answer = (body: Buffer): Parsed => ({
    done: true,
    answer: { status, statusLine, headers, head, body },
  });
  if (isHead || status === 204 || status === 304) return answer(Buffer.alloc(0));
  const get = (name: string) => headers.find(([n]) => n === name)?.[1];
  if (/chunked/i.test(get('transfer-encoding') ?? '')) {
    const body = dechunk(rest);
    if (body instanceof Error) return { done: true, error: body.message };
    return body ? answer(body) : { done: false };
  }
  const length = get('content-length');
  if (length !== undefined) {
    if (!/^\d+$/.test(length)) return { done: true, error: `bad Content-Length "${length}"` };
    const n = Number(length);
    return rest.length >= n ? answer(rest.subarray(0, n)) : { done: false };
  }
  // Neither length nor chunks: the body runs until the server closes.
  return closed ? answer(rest) : { done: false };
}

/**
 * Sends `request` to 127.0.0.1:`port` on a new connection and reads the first (final) answer.
 * `isHead` says the answer has no body whatever its headers say.
 */
export function exchange(
  port: number,
  request: Buffer,
  { isHead, timeoutMs }: { isHead: boolean; timeoutMs: number },
): Promise<Outcome> {
  return new Promise((resolve) => {
    let data: Buffer = Buffer.alloc(0);
    let settled = false;
    const socket = net.connect({ port, host: '127.0.0.1' });
    const finish = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ kind: 'timeout', received: data }), timeoutMs);
    const step = (closed: boolean) => {
      for (;;) {
        const parsed = parse(data, isHead, closed);
        if (parsed.done === 'interim') {
          data = parsed.rest;
          continue;
        }
        if (parsed.done === false) {
          if (closed)
            finish({ kind: 'closed', error: 'closed before a whole answer', received: data });
          return;
        }
        if ('error' in parsed) finish({ kind: 'garbled', error: parsed.error, received: data });
        else finish({ kind: 'answer', answer: parsed.answer });
        return;
      }
    };
    socket.on('connect', () => {
      // A server that answers 400 and closes while the rest is still being written: the write
      // fails, the answer is still read.
      socket.write(request, () => {});
    });
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      step(false);
    });
    socket.on('end', () => step(true));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (settled) return;
      // A reset after a whole answer arrived still counts as that answer.
      const parsed = parse(data, isHead, true);
      if (parsed.done === true && 'answer' in parsed)
        finish({ kind: 'answer', answer: parsed.answer });
      else finish({ kind: 'closed', error: error.code ?? error.message, received: data });
    });
    socket.on('close', () => step(true));
  });
}

/** Bytes as a readable, exact string: printable ASCII as is, everything else escaped. */
export function escapeBytes(bytes: Buffer, max = 400): string {
  let out = '';
  for (const byte of bytes.subarray(0, max)) {
    if (byte === 0x0d) out += '\\r';
    else if (byte === 0x0a) out += '\\n';
    else if (byte === 0x5c) out += '\\\\';
    else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte);
    else out += `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return bytes.length > max ? `${out}… (${bytes.length} bytes in all)` : out;
}
