/**
 * The render process runs the remotes' code, and that code can send on the process's IPC channel
 * as well as the worker can: every message is parsed here, and one that does not parse is dropped.
 */
import type { FromWorker, RenderReply } from '../render-types';

type Data = Record<string, unknown>;

const isObject = (v: unknown): v is Data =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;
const isString = (v: unknown): v is string => typeof v === 'string';

function parseReply(v: unknown): RenderReply | null {
  if (!isObject(v)) return null;
  const { id, status, html, head, meta, remote, scripts, failure } = v;
  if (!isId(id) || !Number.isInteger(status) || (status as number) < 100) return null;
  if ((status as number) > 599 || !isString(html) || !isString(head)) return null;
  if (!isObject(meta) || !isString(meta.path) || !isString(meta.title)) return null;
  if (!isString(meta.description)) return null;
  if (meta.noindex !== undefined && typeof meta.noindex !== 'boolean') return null;
  if (remote !== null && !(isObject(remote) && isString(remote.name) && isString(remote.version)))
    return null;
  if (!Array.isArray(scripts) || !scripts.every(isString)) return null;
  if (failure !== null && !isString(failure)) return null;
  return {
    id,
    status: status as number,
    html,
    head,
    meta: {
      path: meta.path,
      title: meta.title,
      description: meta.description,
      ...(meta.noindex === undefined ? {} : { noindex: meta.noindex }),
    },
    remote:
      remote === null ? null : { name: remote.name as string, version: remote.version as string },
    scripts,
    failure,
  };
}

export function parseWorkerMessage(v: unknown): FromWorker | null {
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
    case 'file': {
      const { requestId, url, remote, integrity } = v;
      if (!isId(requestId) || !isString(url) || !isObject(remote)) return null;
      const { name, version, entry } = remote;
      if (!isString(name) || !isString(version) || !isString(entry)) return null;
      return {
        type: 'file',
        requestId,
        url,
        remote: { name, version, entry },
        ...(isString(integrity) ? { integrity } : {}),
      };
    }
    default:
      return null;
  }
}
