/**
 * What a fuzz run knows of a server before it starts, and one request of the run with what the
 * oracle may expect of its answer.
 */
/** What the fuzz knows of one server before it starts. */
export interface Surface {
  name: 'site' | 'remote';
  port: number;
  /** Paths the server answers with 200: pages and files. */
  known: string[];
  /** Where things lie that must never be served, as paths relative to the served folder. */
  secrets: string[];
  /** The server's own routes: generated files, APIs. */
  routes: string[];
  /** The deploy API's token (the site only). */
  token?: string;
  /** Team names to put in deploy API paths (the site only). */
  remoteNames?: string[];
  /** An origin the deploy API is configured to allow (the site only). */
  allowedOrigin?: string;
  /** host:port of a service no request may be forwarded to (the site only). */
  internal?: string;
  /** Current validators: a conditional request naming one of these must get 304. */
  etags: { path: string; acceptEncoding: string | null; etag: string }[];
}

export interface FuzzCase {
  index: number;
  surface: Surface['name'];
  bytes: Buffer;
  method: string;
  target: string;
  isHead: boolean;
  /** The Accept-Encoding field as the server reads it (repeated fields joined), if sent. */
  acceptEncoding: string | null;
  /** The request lists the current ETag of what it asks for. */
  expect304: boolean;
  /**
   * The server must answer. Not so for requests HTTP lets a server drop: forbidden bytes, an
   * unknown version, CONNECT, a body over the limits, or a declared body that never comes.
   */
  mustAnswer: boolean;
  /** The declared body never comes: the server may wait for it. */
  incomplete: boolean;
}
