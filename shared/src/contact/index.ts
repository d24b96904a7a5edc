export * from './limits';
export * from './schema';
