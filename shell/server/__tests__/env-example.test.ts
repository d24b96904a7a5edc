/**
 * @jest-environment node
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { SITE_SETTING_NAMES, parseSiteSettings } from '../settings';

/**
 * `.env.example` is the one list of settings an operator reads: it must name every variable the
 * deployables and the tooling read, no variable nothing reads, and copied to `.env` unchanged it
 * must change nothing. docs/configuration.md names them all too.
 */

const root = path.join(__dirname, '..', '..', '..');
const SOURCES = ['shell/server', 'scripts', 'mail-service/src'];

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      return entry.name === '__tests__' || entry.name === 'node_modules'
        ? []
        : sourceFiles(relative);
    }
    return /\.(ts|mjs|cjs)$/.test(entry.name) ? [relative] : [];
  });
}

const NAME = '[A-Z][A-Z0-9_]*';
/** A variable, or the pattern of one made per page group: `REMOTE_<NAME>_URL`. */
const LISTED = `${NAME}(?:<NAME>[A-Z0-9_]*)?`;

/**
 * The variables a source file reads: `process.env.X`, `env.X`, `env['X']`, names made per page
 * group (`` `REMOTE_${name.toUpperCase()}_URL` ``), and the UPPER_CASE keys of a zod object, which
 * is how a settings schema reads the environment.
 */
function variablesReadBy(file: string): Set<string> {
  const text = readFileSync(path.join(root, file), 'utf8');
  const found = new Set<string>();
  for (const m of text.matchAll(new RegExp(`\\benv\\.(${NAME})\\b`, 'g'))) found.add(m[1]!);
  for (const m of text.matchAll(new RegExp(`\\benv\\[\\s*['"](${NAME})['"]\\s*\\]`, 'g'))) {
    found.add(m[1]!);
  }
  // A name made per page group, read at once or through a variable: one variable per group in
  // the site table, listed once as its pattern, so a new group needs no line of its own.
  for (const m of text.matchAll(/`([A-Z][A-Z0-9_]*)\$\{\w+\.toUpperCase\(\)\}([A-Z0-9_]*)`/g)) {
    found.add(`${m[1]}<NAME>${m[2]}`);
  }
  for (const m of text.matchAll(/\benv\[\s*`([^`]*)`\s*\]/g)) {
    if (!/^[A-Z][A-Z0-9_]*\$\{\w+\.toUpperCase\(\)\}[A-Z0-9_]*$/.test(m[1]!)) {
      throw new Error(`${file}: cannot tell which variables env[\`${m[1]}\`] reads`);
    }
  }
  for (const m of text.matchAll(/z\.object\(\{([\s\S]*?)\n\}\)/g)) {
    for (const key of m[1]!.matchAll(new RegExp(`^\\s+(${NAME})\\s*:`, 'gm'))) found.add(key[1]!);
  }
  return found;
}

const read = new Map<string, string[]>();
for (const file of SOURCES.flatMap(sourceFiles)) {
  for (const name of variablesReadBy(file)) read.set(name, [...(read.get(name) ?? []), file]);
}

const exampleText = readFileSync(path.join(root, '.env.example'), 'utf8');
/** Every variable line, set (`NAME=value`) or commented out (`# NAME=value`). */
const listed = new Map<string, { value: string; set: boolean }>();
for (const m of exampleText.matchAll(new RegExp(`^(#\\s*)?(${LISTED})=(.*)$`, 'gm'))) {
  listed.set(m[2]!, { value: m[3]!.trim(), set: m[1] === undefined });
}

const configuration = readFileSync(path.join(root, 'docs', 'configuration.md'), 'utf8');

/** The one setting without a default, which `npm start` sets: the control plane's database. */
const database = { DATABASE_URL: 'postgres://site:password@localhost:5432/site' };

describe('.env.example', () => {
  test('the scan finds what the code reads: the site settings schema and the deploy script', () => {
    for (const name of SITE_SETTING_NAMES)
      expect(read.get(name)).toContain('shell/server/settings.ts');
    expect(read.get('REMOTE_<NAME>_URL')).toContain('scripts/deploy.ts');
    expect(read.get('SMTP_URL')).toContain('mail-service/src/config.ts');
    expect(read.get('CHROME_PATH')).toContain('scripts/lib/browser.ts');
  });

  test('lists every variable the code reads', () => {
    const missing = [...read.keys()]
      .filter((name) => !listed.has(name))
      .map((name) => `${name} (read by ${read.get(name)!.join(', ')})`);
    expect(missing).toEqual([]);
  });

  test('lists no variable that nothing reads', () => {
    expect([...listed.keys()].filter((name) => !read.has(name))).toEqual([]);
  });

  test('copied to .env unchanged, it gives the site server its defaults', () => {
    const values = parseEnv(exampleText);
    expect(Object.keys(values).sort()).toEqual(
      [...listed]
        .filter(([, v]) => v.set)
        .map(([name]) => name)
        .sort(),
    );
    expect(parseSiteSettings({ ...database, ...values })).toEqual(parseSiteSettings(database));
  });

  test('its examples of site settings are values the site server accepts', () => {
    for (const name of SITE_SETTING_NAMES) {
      const entry = listed.get(name);
      if (!entry || entry.value === '') continue;
      expect(() => parseSiteSettings({ ...database, [name]: entry.value })).not.toThrow();
    }
  });

  test('docs/configuration.md names every variable', () => {
    const named = new Set(
      [...configuration.matchAll(new RegExp(`\`(${LISTED})\``, 'g'))].map((m) => m[1]),
    );
    expect([...read.keys()].filter((name) => !named.has(name))).toEqual([]);
  });
});
