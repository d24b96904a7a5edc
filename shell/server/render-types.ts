import type { DeploymentManifest } from '@site/shared';
import type { PageMeta } from '../src/content/shell-routes';

/** What the shell's Node build (dist/server/render.js, built from src/server/render.tsx) exports. */
export type ShellServerBuild = typeof import('../src/server/render');

export interface WorkerData {
  renderBundle: string;
  fetchTimeoutMs: number;
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

export type WorkerMessage = RenderReply | { id: number; error: string };
