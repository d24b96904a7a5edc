/**
 * The framing of the channel between the site server and its render processes, used by both ends:
 * one JSON document per line, split at `\n` and nowhere else.
 *
 * JSON.stringify escapes `\n`, `\r`, NUL and lone surrogates inside strings, but writes U+2028 and
 * U+2029 raw; a reader that takes those for line breaks (node:readline does) cuts a message in two
 * at a character a visitor typed. So every writer escapes them too, and every reader splits at the
 * newline byte alone: whatever a request or a route table holds crosses intact.
 */
import type { Readable } from 'node:stream';

/**
 * The longest message the site server sends a render process: a group's Node build (at most
 * 20 MB, render/pools.ts) with room for its JSON escapes, or a job with its manifest.
 */
export const MAX_TO_WORKER_BYTES = 128 * 1024 * 1024;

const SEPARATORS = /[\u2028\u2029]/g;

/** A message as one line of the channel: JSON that holds no character any reader splits at. */
export function frame(message: unknown): string {
  const json = JSON.stringify(message);
  return `${json.replace(SEPARATORS, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'))}\n`;
}

/**
 * Reads the channel's lines from a stream with a bound on each: a line that grows past `maxBytes`
 * is never held whole, and `onOverflow` is told instead (and nothing more is read).
 */
export function readFrames(
  stream: Readable,
  maxBytes: number,
  onLine: (line: string) => void,
  onOverflow: (bytes: number) => void,
): void {
  let parts: Buffer[] = [];
  let held = 0;
  let overflowed = false;
  stream.on('data', (chunk: Buffer) => {
    if (overflowed) return;
    let start = 0;
    for (;;) {
      // The newline byte never occurs inside a UTF-8 sequence, so a line is whole characters.
      const end = chunk.indexOf(10, start);
      if (end === -1) break;
      const piece = chunk.subarray(start, end);
      if (held + piece.length > maxBytes) {
        overflowed = true;
        onOverflow(held + piece.length);
        return;
      }
      parts.push(piece);
      const line = Buffer.concat(parts).toString('utf8');
      parts = [];
      held = 0;
      start = end + 1;
      onLine(line);
    }
    const rest = chunk.subarray(start);
    if (held + rest.length > maxBytes) {
      overflowed = true;
      onOverflow(held + rest.length);
      return;
    }
    if (rest.length > 0) {
      // A copy: the stream may reuse its buffer.
      parts.push(Buffer.from(rest));
      held += rest.length;
    }
  });
}
