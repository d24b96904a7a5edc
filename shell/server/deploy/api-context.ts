/**
 * What every group of the deploy API's routes is given: the server's parts it works with, and the
 * credential its request was authenticated with (api.ts's hook runs before every route).
 */
import type { FastifyRequest } from 'fastify';
import type { RemoteDeployment } from '@site/contracts';
import type { CanaryStatusAnswer } from '@site/contracts/deploy-api';
import type { LiveManifest } from '../control-plane';
import type { TokenStore } from '../control-plane/tokens';
import type { Logger } from '../http/logger';
import type { Credential } from './change';
import type { Deployer } from './deployer';

export interface DeployApiOptions {
  /** The operator's token (DEPLOY_TOKEN): every group, and the groups' tokens. */
  token: string;
  /** The groups' tokens, kept by the control plane. */
  tokens: TokenStore;
  deployer: Deployer;
  /** Signs the link of a checked version that is not live (`preview: true`), landing on a page. */
  preview: {
    link(
      remote: RemoteDeployment,
      seconds?: number,
      page?: string,
    ): { url: string; expiresAt: Date };
  };
  /** The live manifest as the database holds it now (rejects while it is out of reach). */
  current(): Promise<LiveManifest>;
  /** The manifest this server serves: its copy in memory, read again when it is known stale. */
  served(): Promise<LiveManifest>;
  /** Every running canary's figures and last decision. */
  canaries(): Promise<CanaryStatusAnswer>;
  log: Logger;
}

export type CredentialOf = (request: FastifyRequest) => Credential;
