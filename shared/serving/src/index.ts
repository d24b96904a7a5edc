export { REVALIDATE, filePolicy } from './cache-policy';
export { negotiateEncoding, settleAcceptEncoding, type Encoding } from './encoding';
export { listenOn } from './listen';
export { createRemoteServer, type RemoteHost } from './remote-host';
export { newestVersion, sortVersions } from './versions';
