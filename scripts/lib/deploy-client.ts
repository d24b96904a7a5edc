/**
 * The deploy command's calls of the site's deploy API (scripts/deploy.ts): each change carries its
 * deadline, and a change whose answer was lost is settled from the live manifest.
 */
import type { ManifestAnswer, Refusal } from '@site/contracts/deploy-api';
import { fail } from './deploy-fail';

/** The answer of a change whose outcome the site did not say: the connection or the server was lost. */
export class LostAnswer extends Error {}

/** No answer to a change before its deadline: it did not go live by then, and never will after. */
class NoAnswerInTime extends LostAnswer {}

/** DEPLOY_TIMEOUT, read once `settings()` has checked it. */
let timeLimitMs = 60_000;

/** Set by the command's settings (scripts/deploy.ts) before the first call. */
export function setTimeLimitMs(ms: number): void {
  timeLimitMs = ms;
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

/**
 * A call of the deploy API: its answer (a type of @site/contracts/deploy-api), or the command ends
 * with the refusal. A change carries the moment this command stops waiting for it as its deadline
 * (DEPLOY_TIMEOUT from now): no site server makes it live after that, so once the command has
 * waited that long, the live manifest says for good whether it went live.
 */
export async function call<T>(
  api: string,
  token: string,
  method: string,
  route: string,
  body?: Record<string, unknown>,
): Promise<T> {
  const deadline = new Date(Date.now() + timeLimitMs);
  const sent = method === 'GET' || !body ? body : { ...body, deadline: deadline.toISOString() };
  let response: Response;
  let answer: T & Partial<Refusal>;
  try {
    response = await fetch(`${api}${route}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      ...(sent === undefined ? {} : { body: JSON.stringify(sent) }),
      // The answer to a change made just before its deadline still has a moment to arrive.
      signal: AbortSignal.timeout(timeLimitMs + 1000),
    });
    answer = (await response.json().catch((error: unknown) => {
      if (error instanceof Error && error.name === 'TimeoutError') throw error;
      return {};
    })) as T & Partial<Refusal>;
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    if (method !== 'GET') {
      if (timedOut) {
        throw new NoAnswerInTime(
          `the site gave no answer within ${seconds(timeLimitMs)} (DEPLOY_TIMEOUT), and the change's deadline ${deadline.toISOString()} has passed`,
        );
      }
      throw new LostAnswer(String((error as Error).cause ?? error));
    }
    fail(
      timedOut
        ? `the site's deploy API at ${api} gave no answer within ${seconds(timeLimitMs)} (DEPLOY_TIMEOUT)`
        : `the site's deploy API at ${api} could not be reached (${String(error)})`,
    );
  }
  // A gateway's own error (the site server behind it stopped mid-call) says nothing of the change.
  if (method !== 'GET' && !answer.error && [502, 503, 504].includes(response.status)) {
    throw new LostAnswer(`HTTP ${response.status} from ${api}`);
  }
  if (!response.ok) {
    fail(
      `refused (HTTP ${response.status}${answer.error ? `, ${answer.error}` : ''}): ${answer.message ?? 'no reason given'}`,
    );
  }
  return answer;
}

/** What happened to a change whose answer was lost, in the words the command prints. */
export const lostHow = (lost: LostAnswer) =>
  lost instanceof NoAnswerInTime
    ? lost.message
    : `the site server stopped before it answered (${lost.message})`;

/**
 * A change whose answer was lost: the live manifest says whether it went live (a change is one
 * compare-and-swap, so it is all there or not at all). Asked again for a while, as the load
 * balancer moves on to a live site server.
 */
export async function settle(
  api: string,
  token: string,
  name: string,
  base: string,
  target: { version: string; entry?: string },
  lost: LostAnswer,
): Promise<never> {
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      const response = await fetch(`${api}/_deploy/manifest`, {
        headers: { Authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(10_000),
      });
      const live = response.ok ? ((await response.json()) as ManifestAnswer) : undefined;
      // A manifest the server could not confirm with the database says nothing either way.
      if (live && live.unconfirmed === undefined) {
        const entry = live.manifest.remotes?.find((r) => r.name === name);
        const applied =
          live.version !== base &&
          entry?.version === target.version &&
          (target.entry === undefined || entry.entry === target.entry);
        if (applied) {
          console.log(
            `${lostHow(lost)}, but the change is live: ${name} ${target.version}; live manifest ${live.version}`,
          );
          process.exit(0);
        }
        fail(
          `${lostHow(lost)} and the change did not go live${lost instanceof NoAnswerInTime ? ' (and never will: no site server makes it live after its deadline)' : ''}: ${name} is ${entry?.version ?? 'not deployed'} in live manifest ${live.version}; run the command again`,
        );
      }
    } catch {
      // No site server answers yet.
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  fail(
    `${lostHow(lost)} and none answers now: whether the change went live is unknown; read it with GET ${api}/_deploy/manifest`,
  );
}
