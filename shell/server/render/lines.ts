/**
 * Reads newline-separated messages from a stream with a bound on each line: a line that grows past
 * `maxBytes` is never held whole, and `onOverflow` is told instead. The render processes write one
 * JSON document per line (JSON.stringify escapes every newline inside a string).
 */
import type { Readable } from 'node:stream';

export function readLines(
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
