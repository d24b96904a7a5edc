export * from './routes';
export * from './remote';
export * from './manifest';
export * from './page-manifest';
export * from './group-routes';
export * from './browser-files';
