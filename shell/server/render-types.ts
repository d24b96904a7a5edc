import type { DeploymentManifest, RemoteDeployment, RemotePagesModule } from '@site/shared';
import type { PageMeta } from '../src/content/shell-routes';

/** What the shell's Node build (dist/server/render.js, from src/server/render.tsx) exports. */
export interface ShellServerBuild {
  provided: Record<string, unknown>;
  providedVersions: Record<string, string>;
  shellPaths: readonly string[];
  renderPage(request: RenderRequest): Promise<RenderResult>;
  renderUnavailable(request: RenderRequest, reason: string): Promise<RenderResult>;
  renderHead(meta: PageMeta, siteUrl: string, image?: string): string;
}

export interface RenderRequest {
  manifest: DeploymentManifest;
  path: string;
  loadRemote: (remote: RemoteDeployment) => Promise<RemotePagesModule>;
}

export interface RenderResult {
  status: number;
  html: string;
  meta: PageMeta;
  remote?: RemoteDeployment;
  failure?: string;
}

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
