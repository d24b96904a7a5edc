import { existsSync } from 'node:fs';
import path from 'node:path';

/** The checkout's `.env`: the settings of a local run (`.env.example` lists them all). */
export const DOT_ENV = path.join(__dirname, '..', '..', '.env');

/**
 * Loads `file` into `process.env` when it exists, for the processes started from here to inherit.
 * A variable already set in the environment wins over the file, so `PORT=3400 npm start` works
 * with any `.env`. Only the local run reads it: in production the platform sets the variables.
 */
export function loadDotEnv(file: string = DOT_ENV): boolean {
  if (!existsSync(file)) return false;
  process.loadEnvFile(file);
  return true;
}
