import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { ConfigError, loadConfig } from '../../mail-service/src/config';
import { SettingsError, parseSiteSettings } from '../../shell/server/settings';

/**
 * Settings that two deployables share, held equal: TRUST_PROXY is one variable in `.env`, so the
 * site server and the mail-service take the same forms; and `.env.example`, copied to `.env`
 * unchanged, gives the mail-service its defaults (the site server's side is in the shell's tests).
 */

const root = path.join(__dirname, '..', '..');

type Outcome = { accepted: unknown } | { refused: true };

function site(value: string): Outcome {
  try {
    return { accepted: parseSiteSettings({ TRUST_PROXY: value }).trustProxy };
  } catch (error) {
    if (error instanceof SettingsError) return { refused: true };
    throw error;
  }
}

function mailService(value: string): Outcome {
  try {
    return { accepted: loadConfig({ TRUST_PROXY: value }).trustProxy };
  } catch (error) {
    if (error instanceof ConfigError) return { refused: true };
    throw error;
  }
}

describe('settings the site server and the mail-service share', () => {
  test.each([
    'false',
    'none',
    'true',
    '0',
    '1',
    '12',
    'loopback',
    'linklocal',
    'uniquelocal',
    'loopback, 10.0.0.1',
    '10.0.0.0/8',
    '10.0.0.0/255.0.0.0',
    '10.0.0.0/33',
    '::1',
    'fd00::/8',
    'fd00::/129',
    'fd00::/ffff::',
    '10.0.0.1/8/8',
    'proxy.internal',
    'yes',
    ' , ',
    '-1',
    '1.5',
    '',
  ])('TRUST_PROXY=%j means the same to both', (value) => {
    expect(site(value)).toEqual(mailService(value));
  });

  test('.env.example copied to .env gives the mail-service its defaults', () => {
    const values = parseEnv(readFileSync(path.join(root, '.env.example'), 'utf8'));
    expect(Object.keys(values).length).toBeGreaterThan(0);
    expect(loadConfig(values)).toEqual(loadConfig({}));
  });
});
