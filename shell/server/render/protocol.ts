/**
 * What the site server and its render processes say to each other: one JSON document per line on
 * the process's fd 3, framed by channel.ts. The processes run a team's code, so every line from them is parsed here as
 * untrusted input; a line that does not parse is dropped, and a line longer than the pool allows
 * ends the process (render/pool.ts).
 */
import type { DeploymentManifest } from '@site/contracts';
import type { PageMeta } from '../../src/content/shell-routes';
import type { ContactFormState } from '../../src/pages/contact/form-state';
import type { RetentionFigures } from '@site/contracts/contact/retention';

/** What the shell's Node build (`render.js`, from src/server/render.tsx) exports. */
export type ShellServerBuild = typeof import('../../src/server/render');

/**
 * What a render process is started with (its only command-line argument, as JSON): the shell's
 * Node build and, for a group's process, which group it renders. A group's process gets that
 * group's Node build as its first message and renders nothing else.
 */
export interface WorkerData {
  renderBundle: string;
  group?: { name: string; version: string };
}

/**
 * One render: the frame (the layout with `PAGE_SLOT` where the page goes) or the page alone. A
 * group's process is sent a manifest holding that group alone.
 */
export interface RenderJob {
  id: number;
  part: 'frame' | 'page';
  manifest: DeploymentManifest;
  path: string;
  /** The contact form as a no-script post left it (the contact page only). */
  contactForm?: ContactFormState;
  /** The mail-service's retention figures (the privacy notice only). */
  retention?: RetentionFigures;
  /** Render the page's group as unavailable, for this reason (the shell's processes only). */
  unavailable?: string;
  /** With `unavailable`: the page threw, rather than its code could not be had. */
  crashed?: boolean;
}

export interface PartReply {
  id: number;
  status: number;
  html: string;
  meta: PageMeta;
  failure: string | null;
  /** With a failure: whether the page threw while rendering (else its code could not be had). */
  crashed: boolean;
}

/** What the site server sends a render process. */
export type ToWorker =
  { type: 'code'; url: string; text: string } | { type: 'render'; job: RenderJob };

/** What a render process sends the site server. */
export type FromWorker =
  | { type: 'ready' }
  | { type: 'started'; id: number }
  | { type: 'done'; reply: PartReply }
  | { type: 'failed'; id: number; error: string };

type Data = Record<string, unknown>;

const isObject = (v: unknown): v is Data =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;
const isString = (v: unknown): v is string => typeof v === 'string';

function parseReply(v: unknown): PartReply | null {
  if (!isObject(v)) return null;
  const { id, status, html, meta, failure, crashed } = v;
  if (!isId(id) || !Number.isInteger(status) || (status as number) < 100) return null;
  if ((status as number) > 599 || !isString(html)) return null;
  if (!isObject(meta) || !isString(meta.path) || !isString(meta.title)) return null;
  if (!isString(meta.description)) return null;
  if (meta.noindex !== undefined && typeof meta.noindex !== 'boolean') return null;
  if (failure !== null && !isString(failure)) return null;
  if (typeof crashed !== 'boolean') return null;
  return {
    id,
    status: status as number,
    html,
    meta: {
      path: meta.path,
      title: meta.title,
      description: meta.description,
      ...(meta.noindex === undefined ? {} : { noindex: meta.noindex }),
    },
    failure,
    crashed,
  };
}

/** A line from a render process, or null when it is not one of the messages above. */
export function parseWorkerLine(line: string): FromWorker | null {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isObject(v)) return null;
  switch (v.type) {
    case 'ready':
      return { type: 'ready' };
    case 'started':
      return isId(v.id) ? { type: 'started', id: v.id } : null;
    case 'failed':
      return isId(v.id) && isString(v.error) ? { type: 'failed', id: v.id, error: v.error } : null;
    case 'done': {
      const reply = parseReply(v.reply);
      return reply ? { type: 'done', reply } : null;
    }
    default:
      return null;
  }
}
