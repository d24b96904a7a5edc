import type { Server } from 'node:http';

export function createSiteServer(options: {
  root: string;
  deployDir: string;
  apiTarget: string;
}): Server;
