export { REVALIDATE, filePolicy } from './cache-policy';
export { negotiateEncoding, settleAcceptEncoding, type Encoding } from './encoding';
export { LISTEN_HOST_FORMS, isListenHost, listenOn } from './listen';
export {
  CONNECTION_LIMITS,
  createLimitedServer,
  LIMITED_SERVER_OPTIONS,
  defaultMaxConnections,
  limitConnections,
  openFileLimit,
  type ConnectionLimits,
} from './connections';
export { createRemoteServer, type RemoteHost, type RemoteHostOptions } from './remote-host';
export { newestVersion, sortVersions } from './versions';
