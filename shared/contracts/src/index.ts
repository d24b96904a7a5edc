export * from './routes';
export * from './remote';
export * from './manifest';
