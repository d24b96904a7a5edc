/**
 * The deploy API's requests, as JSON schemas (Fastify checks every body and parameter against
 * them before a handler runs) and as the types the handlers read.
 */
import { GROUP_NAME_PATTERN } from '@site/contracts';
import { MAX_CANARY_PERCENT } from '../canary-entries';
import { MAX_PREVIEW_SECONDS } from '../preview';
import { TOKEN_ID } from '../control-plane/tokens';

export const MAX_BODY = 16 * 1024;

/** A line of text: no control characters. */
export const line = (maxLength: number) =>
  ({ type: 'string', minLength: 1, maxLength, pattern: '^[^\\u0000-\\u001f\\u007f]*$' }) as const;

export const NAME = { type: 'string', pattern: GROUP_NAME_PATTERN } as const;

export const deployBody = {
  type: 'object',
  required: ['base', 'entry', 'version'],
  additionalProperties: false,
  properties: {
    base: line(100),
    entry: line(2000),
    version: line(100),
    serverIntegrity: line(100),
    reason: { ...line(500), minLength: 0 },
    by: line(100),
    preview: { type: 'boolean' },
    previewSeconds: { type: 'integer', minimum: 1, maximum: MAX_PREVIEW_SECONDS },
    canary: { type: 'integer', minimum: 1, maximum: MAX_CANARY_PERCENT },
  },
} as const;

export const rollbackBody = {
  type: 'object',
  required: ['base'],
  additionalProperties: false,
  properties: {
    base: line(100),
    to: line(100),
    reason: { ...line(500), minLength: 0 },
    by: line(100),
  },
} as const;

/** The most groups one release may change: every group of the site, with room to grow. */
export const MAX_RELEASE = 16;

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
    reason: { ...line(500), minLength: 0 },
    by: line(100),
  },
} as const;

export const releaseRollbackBody = {
  type: 'object',
  required: ['base'],
  additionalProperties: false,
  properties: { base: line(100), reason: { ...line(500), minLength: 0 }, by: line(100) },
} as const;

export const RELEASE_ID = { type: 'string', pattern: '^r-[0-9a-f]{12}$' } as const;

export const tokenBody = {
  type: 'object',
  required: ['groups'],
  additionalProperties: false,
  properties: {
    groups: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_RELEASE,
      uniqueItems: true,
      items: NAME,
    },
  },
} as const;

export const TOKEN_PARAMS = {
  type: 'object',
  properties: { id: { type: 'string', pattern: TOKEN_ID.source } },
} as const;

export interface ReleaseBody {
  base: string;
  entries: { name: string; entry: string; version: string; serverIntegrity?: string }[];
  reason?: string;
  by?: string;
}

export interface DeployBody {
  base: string;
  entry: string;
  version: string;
  serverIntegrity?: string;
  reason?: string;
  by?: string;
  preview?: boolean;
  previewSeconds?: number;
  canary?: number;
}
export interface RollbackBody {
  base: string;
  to?: string;
  reason?: string;
  by?: string;
}
