import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { loadConfig } from '../config';

/** `.env.example`, copied to `.env` unchanged, gives the mail-service its defaults. */
test('.env.example copied to .env gives the mail-service its defaults', () => {
  const values = parseEnv(
    readFileSync(path.join(__dirname, '..', '..', '..', '.env.example'), 'utf8'),
  );
  expect(Object.keys(values).length).toBeGreaterThan(0);
  expect(loadConfig(values)).toEqual(loadConfig({}));
});
