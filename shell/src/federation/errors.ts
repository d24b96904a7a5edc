/** A page group (remote) that could not be loaded: its files unreachable, broken, or too slow. */
export class RemoteUnavailableError extends Error {
  override name = 'RemoteUnavailableError';
  constructor(
    readonly remote: string,
    cause: unknown,
  ) {
    super(`The page group "${remote}" could not be loaded: ${String(cause)}`);
  }
}
