/**
 * The deploy API's contract, once for both sides: each request as a JSON schema (the site server
 * checks every body and parameter against it before a handler runs) with its type derived from
 * that schema, and each answer's type, which the team's command (`npm run deploy`) reads.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { GROUP_NAME_PATTERN } from './manifest';

/** The largest request body taken. */
export const MAX_BODY = 16 * 1024;
/** A canary's share of visits, at most. */
export const MAX_CANARY_PERCENT = 50;
/** How long a preview link works, at most: a week. */
export const MAX_PREVIEW_SECONDS = 7 * 24 * 60 * 60;
/** The most groups one release (or one group token) may name: every group, with room to grow. */
export const MAX_RELEASE = 16;
/** A group token's id: twelve hex digits. */
export const TOKEN_ID = /^[0-9a-f]{12}$/;

/** A line of text: no control characters. */
const line = <N extends number>(maxLength: N) =>
  ({ type: 'string', minLength: 1, maxLength, pattern: '^[^\\u0000-\\u001f\\u007f]*$' }) as const;
const optionalLine = <N extends number>(maxLength: N) =>
  ({ type: 'string', minLength: 0, maxLength, pattern: '^[^\\u0000-\\u001f\\u007f]*$' }) as const;

/**
 * A change's deadline, an ISO 8601 time with its zone (`2026-11-28T07:00:00.000Z`): the change
 * never goes live after it. The deploy command sends the moment it stops waiting.
 */
const DEADLINE = line(40);

export const NAME = { type: 'string', pattern: GROUP_NAME_PATTERN } as const;
export const RELEASE_ID = { type: 'string', pattern: '^r-[0-9a-f]{12}$' } as const;

export const deployBody = {
  type: 'object',
  required: ['base', 'entry', 'version'],
  additionalProperties: false,
  properties: {
    base: line(100),
    entry: line(2000),
    version: line(100),
    serverIntegrity: line(100),
    reason: optionalLine(500),
    by: line(100),
    preview: { type: 'boolean' },
    previewSeconds: { type: 'integer', minimum: 1, maximum: MAX_PREVIEW_SECONDS },
    canary: { type: 'integer', minimum: 1, maximum: MAX_CANARY_PERCENT },
    deadline: DEADLINE,
    /** How the canary is judged and stepped: checked by `canaryPlan` (canary-plan.ts). */
    plan: { type: 'object' },
  },
} as const;
export type DeployBody = FromSchema<typeof deployBody>;

export const rollbackBody = {
  type: 'object',
  required: ['base'],
  additionalProperties: false,
  properties: {
    base: line(100),
    to: line(100),
    reason: optionalLine(500),
    by: line(100),
    deadline: DEADLINE,
  },
} as const;
export type RollbackBody = FromSchema<typeof rollbackBody>;

export const releaseBody = {
  type: 'object',
  required: ['base', 'entries'],
  additionalProperties: false,
  properties: {
    base: line(100),
    entries: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_RELEASE,
      items: {
        type: 'object',
        required: ['name', 'entry', 'version'],
        additionalProperties: false,
        properties: {
          name: NAME,
          entry: line(2000),
          version: line(100),
          serverIntegrity: line(100),
        },
      },
    },
    reason: optionalLine(500),
    by: line(100),
    deadline: DEADLINE,
    /** Canaries of every group, for this share of visits, judged and rolled back together. */
    canary: { type: 'integer', minimum: 1, maximum: MAX_CANARY_PERCENT },
    plan: { type: 'object' },
  },
} as const;
export type ReleaseBody = FromSchema<typeof releaseBody>;

export const releaseRollbackBody = {
  type: 'object',
  required: ['base'],
  additionalProperties: false,
  properties: { base: line(100), reason: optionalLine(500), by: line(100), deadline: DEADLINE },
} as const;
export type ReleaseRollbackBody = FromSchema<typeof releaseRollbackBody>;

export const tokenBody = {
  type: 'object',
  required: ['groups'],
  additionalProperties: false,
  properties: {
    groups: { type: 'array', minItems: 1, maxItems: MAX_RELEASE, uniqueItems: true, items: NAME },
  },
} as const;
export type TokenBody = FromSchema<typeof tokenBody>;

export const TOKEN_PARAMS = {
  type: 'object',
  properties: { id: { type: 'string', pattern: TOKEN_ID.source } },
} as const;

// ---- Answers -------------------------------------------------------------------------------

/** Every refusal: a code to branch on and a sentence to show. */
export interface Refusal {
  error: string;
  message: string;
}

/** A version of a group as it was live: where its files are and the pin of its Node build. */
export interface LiveVersion {
  version: string;
  entry: string;
  /** Absent in entries written before versions were pinned. */
  serverIntegrity?: string;
  /** The pins of the files its pages load in the browser; absent before they were pinned. */
  files?: Record<string, string>;
}

/** One change of the live manifest: who, when, which remote, from which version to which, and why. */
export interface HistoryEntry {
  at: string;
  by: string;
  /**
   * `seed`: the manifest a shared control plane started from, one entry per remote in it;
   * `canary`: a version made live for a share of visits (a `rollback` ends it, a deploy promotes).
   */
  action: 'deploy' | 'rollback' | 'seed' | 'canary';
  remote: string;
  from: LiveVersion | null;
  to: LiveVersion;
  reason: string;
  /** The manifest version this change produced. */
  manifestVersion: string;
  /** The release this change was part of, when several groups went live together. */
  release?: string;
  /**
   * The credential that made the change: `operator` (DEPLOY_TOKEN), `group:<group>#<token id>`
   * (a group's deploy token), or `site` (the site itself: a seed, a canary's automatic rollback).
   * Never the token. Absent in entries recorded before credentials were told apart.
   */
  credential?: string;
}

/** `GET /_deploy/manifest`. */
export interface ManifestAnswer {
  version: string;
  manifest: { remotes?: { name: string; version: string; entry: string }[] } & Record<
    string,
    unknown
  >;
  /**
   * Present while the control-plane database is out of reach: why. The manifest is then the one
   * this server serves, which a change made meanwhile may have replaced: not an answer to whether
   * a change went live.
   */
  unconfirmed?: string;
}

/** `GET /_deploy/history`. */
export interface HistoryAnswer {
  history: HistoryEntry[];
}

/** What a version was seen doing within a canary's window. */
export interface CanaryFigures {
  views: number;
  errors: number;
  /** errors / views; null without views. */
  rate: number | null;
}

/** How a canary was last judged: healthy, failing (it was rolled back) or inconclusive (it holds). */
export interface CanaryDecision {
  at: string;
  outcome: 'healthy' | 'failing' | 'inconclusive';
  reason: string;
}

/** `GET /_deploy/canaries`: every running canary with its figures, and the last ones ended. */
export interface CanaryStatusAnswer {
  canaries: {
    group: string;
    version: string;
    stableVersion: string;
    percent: number;
    since: string;
    /** The shares still to come (100: promoted), and when the next is due. */
    steps: number[];
    nextStepAt: string | null;
    /** Groups judged and rolled back with this one. */
    with: string[];
    judgment: { maxErrorRate: number; minViews: number; windowSeconds: number };
    canary: CanaryFigures;
    stable: CanaryFigures;
    decision: CanaryDecision | null;
  }[];
  /** The last decision of each group whose canary ended, with the version it was about. */
  ended: (CanaryDecision & { group: string; version: string })[];
}

/** A deploy with `preview: true`: every check passed, live for no one. */
export interface PreviewAnswer {
  preview: {
    remote: string;
    version: string;
    /** The signed link; it opens `page`. */
    url: string;
    /** The page the link opens: the first the version adds, describes anew or renders otherwise. */
    page: string;
    /** Why that page: added, described (title, description or menu label), rendered, or first. */
    pageWhy: 'added' | 'described' | 'rendered' | 'first';
    expiresAt: string;
  };
}

/** A release of several groups (or its rollback): its id, the manifest it made live, its changes. */
export interface Release {
  release: string;
  manifestVersion: string;
  changes: HistoryEntry[];
}

/** A group's deploy token as the operator lists it (never its secret). */
export interface TokenRecord {
  id: string;
  groups: string[];
  createdAt: string;
  rotatedAt?: string;
  revokedAt?: string;
  /** How the history names changes made with it. */
  credential: string;
}

/** A token made or rotated: its secret, shown this once. */
export interface IssuedTokenAnswer extends TokenRecord {
  token: string;
}
