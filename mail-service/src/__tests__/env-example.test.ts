import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { MAIL_SETTING_NAMES, loadConfig } from '../config';

/**
 * `.env.example` and docs/configuration.md document every mail-service setting the schema in
 * src/config.ts holds, and nothing it does not: a setting is added to the schema, and these two
 * say so. Some settings the site server reads too (TRUST_PROXY, METRICS_TOKEN, LOG_LEVEL, the
 * request timeouts) have their one line with the site server's.
 */

const root = path.join(__dirname, '..', '..', '..');
const exampleText = readFileSync(path.join(root, '.env.example'), 'utf8');
const configuration = readFileSync(path.join(root, 'docs', 'configuration.md'), 'utf8');

const NAME = /^(#\s*)?([A-Z][A-Z0-9_]*)=(.*)$/gm;

/** Every variable line of `text`, set (`NAME=value`) or commented out (`# NAME=value`). */
const variableLines = (text: string) =>
  new Map([...text.matchAll(NAME)].map((m) => [m[2]!, m[3]!.trim()] as const));

/** The part of `text` from the line that starts with `heading` to the next line that starts with `next`. */
function section(text: string, heading: string, next: string): string {
  const start = text.indexOf(`\n${heading}`);
  if (start < 0) throw new Error(`no section "${heading}"`);
  const end = text.indexOf(`\n${next}`, start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

const listed = variableLines(exampleText);
const mailLines = variableLines(section(exampleText, '# ---- The mail-service', '# ----'));
/** The variables the first column of the mail-service's table in docs/configuration.md names. */
const documented = [
  ...section(configuration, '**The mail-service**', '**').matchAll(/^\| `([A-Z][A-Z0-9_]*)` +\|/gm),
].map((m) => m[1]!);

const settings: string[] = [...MAIL_SETTING_NAMES].sort();
/** The one setting without a default (`npm start` passes its embedded PostgreSQL's). */
const database = { DATABASE_URL: 'postgres://mail:password@localhost:5432/site' };

describe('.env.example and docs/configuration.md', () => {
  test('.env.example has a line for every setting', () => {
    expect(settings.filter((name) => !listed.has(name))).toEqual([]);
  });

  test('its mail-service lines are all settings', () => {
    expect([...mailLines.keys()].filter((name) => !settings.includes(name))).toEqual([]);
  });

  test('copied to .env unchanged, it gives the mail-service its defaults', () => {
    const values = parseEnv(exampleText);
    expect(Object.keys(values).length).toBeGreaterThan(0);
    expect(loadConfig({ ...database, ...values })).toEqual(loadConfig(database));
  });

  test('its examples of mail-service settings are values the mail-service accepts', () => {
    for (const [name, value] of mailLines) {
      if (value !== '') expect(() => loadConfig({ ...database, [name]: value })).not.toThrow();
    }
  });

  test('the mail-service table of docs/configuration.md has one row for each setting', () => {
    expect([...documented].sort()).toEqual(settings);
  });
});
