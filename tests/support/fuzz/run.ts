/**
 * Sends requests a few at a time, judges every answer, and describes what went wrong in a way
 * that can be replayed: the exact bytes sent and the seed.
 */
import { judge, type Expectations } from './oracle';
import { escapeBytes, exchange, type Outcome } from './raw-http';
import type { FuzzCase } from './surface';

export interface Finding {
  case: FuzzCase;
  outcome: Outcome;
  problems: string[];
}

export interface RunSummary {
  findings: Finding[];
  /** How many answers of each status (and of each kind of non-answer) came back. */
  counts: Record<string, number>;
  /** Requests not sent because the server had stopped taking connections. */
  notSent: number;
  ms: number;
}

/**
 * How long to wait for an answer: a request left incomplete on purpose gets little. A hang never
 * answers, so a long wait for the rest tells a hang from a machine busy with other tests.
 */
function timeoutFor(c: FuzzCase): number {
  if (c.incomplete) return 1000;
  return c.mustAnswer ? 30_000 : 3000;
}

const refused = (outcome: Outcome) => outcome.kind === 'closed' && outcome.error === 'ECONNREFUSED';

export async function send(port: number, c: FuzzCase, expect: Expectations): Promise<Finding> {
  const outcome = await exchange(port, c.bytes, { isHead: c.isHead, timeoutMs: timeoutFor(c) });
  return { case: c, outcome, problems: judge(c, outcome, expect) };
}

export async function runCases(
  port: number,
  cases: readonly FuzzCase[],
  expect: Expectations,
  concurrency = 24,
): Promise<RunSummary> {
  const started = Date.now();
  const findings: Finding[] = [];
  const counts: Record<string, number> = {};
  let next = 0;
  // Once the server refuses connections it has stopped: the rest would only say so again.
  let down = false;
  const worker = async () => {
    while (!down) {
      const c = cases[next++];
      if (!c) return;
      const finding = await send(port, c, expect);
      const key =
        finding.outcome.kind === 'answer'
          ? String(finding.outcome.answer.status)
          : finding.outcome.kind;
      counts[key] = (counts[key] ?? 0) + 1;
      if (refused(finding.outcome)) {
        // The first refusal is the finding; the others in flight say the same.
        if (down) continue;
        down = true;
      }
      if (finding.problems.length) findings.push(finding);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  findings.sort((a, b) => a.case.index - b.case.index);
  return {
    findings,
    counts,
    notSent: Math.max(0, cases.length - next),
    ms: Date.now() - started,
  };
}

function describeOutcome(outcome: Outcome): string {
  if (outcome.kind === 'answer') return outcome.answer.statusLine;
  if (outcome.kind === 'timeout') return 'no answer (timed out)';
  return `${outcome.kind}: ${outcome.error}`;
}

/** A problem without its particulars, to count problems of a kind. */
const kindOf = (problem: string) =>
  problem
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\(.*\)/g, '(…)')
    .slice(0, 90);

/**
 * How many of each problem there were, and the first `perKind` requests of each kind with their
 * exact bytes (the request that stopped a server is among the first left without an answer).
 */
export function describeFindings(
  findings: readonly Finding[],
  { seed, perKind = 2 }: { seed?: number; perKind?: number } = {},
): string {
  const kinds = new Map<string, Finding[]>();
  for (const f of findings) {
    for (const kind of new Set(f.problems.map(kindOf))) {
      kinds.set(kind, [...(kinds.get(kind) ?? []), f]);
    }
  }
  const shown = new Set<Finding>();
  for (const list of kinds.values()) for (const f of list.slice(0, perKind)) shown.add(f);
  const replay = seed === undefined ? '' : ` (seed ${seed}: FUZZ_SEED=${seed} replays this run)`;
  return [
    `${findings.length} request(s) answered wrongly${replay}`,
    ...[...kinds.entries()]
      .sort((a, b) => b[1].length - a[1].length)
      .map(([kind, list]) => `  ${list.length} × ${kind}`),
    '',
    ...[...shown]
      .sort((a, b) => a.case.index - b.case.index)
      .flatMap((f) => [
        `#${f.case.index} to the ${f.case.surface} server: ${describeOutcome(f.outcome)}`,
        `  sent: ${escapeBytes(f.case.bytes)}`,
        ...f.problems.map((p) => `  - ${p}`),
      ]),
  ].join('\n');
}
