import type { Server } from 'node:http';

export function createRemoteServer(root: string): Server;
