export * from './fields';
export * from './limits';
export * from './schema';
