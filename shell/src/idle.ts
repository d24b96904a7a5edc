/**
 * Runs `work` in a quiet moment of the main thread, at the latest after `timeoutMs`. Safari has no
 * `requestIdleCallback`: a short timeout (`fallbackMs`) stands in for it there.
 */
export function whenIdle(work: () => void, timeoutMs: number, fallbackMs: number): void {
  if ('requestIdleCallback' in window) requestIdleCallback(() => work(), { timeout: timeoutMs });
  else setTimeout(work, fallbackMs);
}
