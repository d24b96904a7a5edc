/**
 * The parts a page is composed of (pages/composer.ts): what a render process answers for one, and
 * what its cache key is made of (the navigation the frame draws, the figures a page states).
 */
import { createHash } from 'node:crypto';
import type { DeploymentManifest, RemoteDeployment } from '@site/contracts';
import type { RetentionFigures } from '@site/contracts/contact/retention';
import type { PageMeta } from '../../src/content/shell-routes';
import type { PartReply } from '../render/protocol';

/** A frame or a page, as rendered (or drawn from its last good markup). */
export interface Part {
  status: number;
  html: string;
  meta: PageMeta;
  failure: string | null;
  crashed?: boolean;
  /** Drawn from the group's last good markup: when that was last known good. */
  lastGood?: number;
}

export const toPart = (reply: PartReply): Part => ({
  status: reply.status,
  html: reply.html,
  meta: reply.meta,
  failure: reply.failure,
});

/**
 * The manifest as far as the frame draws it (the manifest pages carry): every group's leading
 * routes, page counts and prefixes, no versions.
 */
export function navigationKey(manifest: DeploymentManifest): string {
  const shown = {
    remotes: manifest.remotes.map(({ name, prefixes, routes, pages }) => ({
      name,
      prefixes,
      routes,
      pages,
    })),
    unavailable: manifest.unavailable ?? [],
  };
  return createHash('sha256').update(JSON.stringify(shown)).digest('base64url').slice(0, 16);
}

/** A manifest holding one group (as `manifest` has it): all its processes are told of. */
export const onlyGroup = (
  manifest: DeploymentManifest,
  remote: RemoteDeployment,
): DeploymentManifest => ({
  schemaVersion: manifest.schemaVersion,
  generatedAt: manifest.generatedAt,
  remotes: manifest.remotes.filter((r) => r.name === remote.name),
});

/** What a page's figures add to its cache keys. */
export const figuresKey = (figures: RetentionFigures | undefined): string =>
  figures ? `|${JSON.stringify(figures)}` : '';
