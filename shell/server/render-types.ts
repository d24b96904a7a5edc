import type { DeploymentManifest, RemoteDeployment } from '@site/contracts';
import type { PageMeta } from '../src/content/shell-routes';

/** What the shell's Node build (`<shellServerDir>/render.js`, built from src/server/render.tsx) exports. */
export type ShellServerBuild = typeof import('../src/server/render');

/** What a render process is started with (its only command-line argument, as JSON). */
export interface WorkerData {
  /** The shell's Node build: `render.js` inside the shell's server build folder. */
  renderBundle: string;
}

export interface RenderJob {
  id: number;
  manifest: DeploymentManifest;
  path: string;
  siteUrl: string;
  /** Absolute URL of the page's share card. */
  shareImage?: string | null;
  /** Render the page's group as unavailable, for this reason (its render timed out). */
  unavailable?: string;
}

export interface RenderReply {
  id: number;
  status: number;
  /** The markup inside `#root`. */
  html: string;
  /** The page's head tags. */
  head: string;
  meta: PageMeta;
  remote: { name: string; version: string } | null;
  /** Absolute URLs of the remote's scripts the page will load, to preload. */
  scripts: string[];
  failure: string | null;
}

/** A remote as a render process names it when it asks for one of its files. */
export type RemoteRef = Pick<RemoteDeployment, 'name' | 'version' | 'entry'>;

/**
 * A render process asks the site server for a file of a remote's version folder: it has no
 * network of its own. The site server answers only for files of the remotes of the renders that
 * process is running, and checks the pin of `server/pages.js` itself.
 */
export interface FileRequest {
  type: 'file';
  requestId: number;
  url: string;
  remote: RemoteRef;
  /** The pin the process read in its manifest; the site server checks its own copy's. */
  integrity?: string;
}

/** What the site server sends a render process. */
export type ToWorker =
  | { type: 'render'; job: RenderJob }
  | { type: 'file'; requestId: number; text: string }
  | { type: 'file'; requestId: number; error: string };

/**
 * What a render process sends the site server. The process runs the remotes' code, so the site
 * server parses every message as untrusted input.
 */
export type FromWorker =
  | { type: 'ready' }
  | { type: 'started'; id: number }
  | { type: 'done'; reply: RenderReply }
  | { type: 'failed'; id: number; error: string }
  | FileRequest;
