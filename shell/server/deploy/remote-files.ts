/**
 * The one way the site server fetches a file from a remote's origin: the deploy API's checks, the
 * pin of a version's Node build, and the files the render processes ask for. Only from origins it
 * is given, never following a redirect (a redirect is how an allowed origin would hand the fetch to
 * one that is not: another host, or an address inside the network), with a time limit and a size
 * limit.
 */
import { sha256Integrity } from '@site/contracts/integrity';

export class RemoteFileError extends Error {
  override name = 'RemoteFileError';
  constructor(
    /** `not_allowed`, `redirected`, `unreachable`, `too_large`, `not_json`, `integrity`. */
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface RemoteFetchOptions {
  timeoutMs: number;
  /** The most bytes one file may have. */
  maxBytes: number;
}

export interface FetchedFile {
  bytes: Buffer;
  text(): string;
  /** `sha256-<base64>` of the bytes. */
  integrity: string;
}

const MB = 1024 * 1024;
export const REMOTE_FETCH_DEFAULTS: RemoteFetchOptions = { timeoutMs: 2500, maxBytes: 20 * MB };

/** The origin of an http(s) URL, or null for anything else. */
export function httpOrigin(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

/**
 * Fetches `url` if its origin is one of `origins`. `what` names the file in every error ("the route
 * table"), so a refusal reads as a sentence.
 */
export async function fetchRemoteFile(
  url: string,
  origins: ReadonlySet<string>,
  what: string,
  { timeoutMs, maxBytes }: RemoteFetchOptions = REMOTE_FETCH_DEFAULTS,
): Promise<FetchedFile> {
  const origin = httpOrigin(url);
  if (!origin || !origins.has(origin)) {
    throw new RemoteFileError(
      'not_allowed',
      `${what} at ${url} is not on an allowed origin (${[...origins].join(', ') || 'none is configured'})`,
    );
  }
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const reason =
      error instanceof Error && error.name === 'TimeoutError'
        ? `no answer within ${timeoutMs} ms`
        : String((error as { cause?: unknown }).cause ?? error);
    throw new RemoteFileError(
      'unreachable',
      `${what} could not be fetched from ${url} (${reason})`,
    );
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    const location = response.headers.get('location');
    throw new RemoteFileError(
      'redirected',
      `${what} at ${url} answered HTTP ${response.status} with a redirect${location ? ` to ${location}` : ''}: redirects are not followed, so point the entry at where the files are`,
    );
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new RemoteFileError('unreachable', `${what} at ${url} answered HTTP ${response.status}`);
  }
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new RemoteFileError('too_large', `${what} at ${url} is over ${maxBytes} bytes`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  try {
    for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
      size += read.value.byteLength;
      if (size > maxBytes) {
        await reader?.cancel();
        throw new RemoteFileError('too_large', `${what} at ${url} is over ${maxBytes} bytes`);
      }
      chunks.push(read.value);
    }
  } catch (error) {
    if (error instanceof RemoteFileError) throw error;
    throw new RemoteFileError('unreachable', `${what} at ${url} was cut short (${String(error)})`);
  }
  const bytes = Buffer.concat(chunks);
  return { bytes, text: () => bytes.toString('utf8'), integrity: sha256Integrity(bytes) };
}

/** A fetched JSON document, or a RemoteFileError that says it is not one. */
export async function fetchRemoteJson(
  url: string,
  origins: ReadonlySet<string>,
  what: string,
  options?: RemoteFetchOptions,
): Promise<unknown> {
  const file = await fetchRemoteFile(url, origins, what, options);
  try {
    return JSON.parse(file.text()) as unknown;
  } catch {
    throw new RemoteFileError('not_json', `${what} at ${url} is not valid JSON`);
  }
}
