/**
 * The cluster run's watch over its parts: a process that hangs (SIGSTOP, a stuck event loop) does
 * not exit, so the supervisor never hears of it. Every `intervalMs` each part is asked its health
 * with a short time limit, and the operator is told, in one line each, when a part stops answering,
 * when it answers again, and when a site server says the control plane's database is out of reach
 * and when it is back.
 */

export interface WatchedPart {
  /** As the supervisor names it: `site-1`, `mail-2`. */
  name: string;
  /** Its health address: `/_ready` of a site server, `/api/health` of a mail-service. */
  url: string;
}

export interface WatchOptions {
  intervalMs?: number;
  /** How long a part may take to answer before it counts as not answering. */
  timeoutMs?: number;
  log?: (line: string) => void;
}

type State = { answering: boolean; since: number; databaseAway: boolean };

const seconds = (ms: number) => `${Math.max(1, Math.round(ms / 1000))} s`;

export function watchParts(
  parts: readonly WatchedPart[],
  { intervalMs = 2000, timeoutMs = 1500, log = (line) => console.error(line) }: WatchOptions = {},
): { stop(): void } {
  const states = new Map<string, State>(
    parts.map((p) => [p.name, { answering: true, since: Date.now(), databaseAway: false }]),
  );
  let stopped = false;

  async function check(part: WatchedPart): Promise<void> {
    const state = states.get(part.name)!;
    let body = '';
    let answered = false;
    try {
      const response = await fetch(part.url, { signal: AbortSignal.timeout(timeoutMs) });
      body = await response.text();
      answered = true;
    } catch {
      // Refused, reset or past the time limit: not answering.
    }
    if (stopped) return;
    const now = Date.now();
    if (answered !== state.answering) {
      log(
        answered
          ? `[watch] ${part.name} answers again, after ${seconds(now - state.since)} without an answer`
          : `[watch] ${part.name} has not answered within ${seconds(timeoutMs)}: hung or stopped (the balancer sends its requests to the others)`,
      );
      state.answering = answered;
      state.since = now;
    }
    if (!answered) return;
    const away = body.includes('control-plane database is unreachable');
    if (away !== state.databaseAway) {
      log(
        away
          ? `[watch] ${part.name} cannot reach the control plane's database: it serves its last manifest, deploys are refused until the database is back`
          : `[watch] ${part.name} reaches the control plane's database again`,
      );
      state.databaseAway = away;
    }
  }

  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void Promise.all(parts.map(check)).finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
