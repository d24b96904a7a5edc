import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * `npm start` reads `.env` before anything else; what the environment sets wins. Tried in a
 * process of its own, as start.ts does it, so this one's environment is left alone.
 */

const DOT_ENV_MODULE = path.join(__dirname, '..', 'lib', 'dot-env.ts');

function loadIn(file: string, env: Record<string, string>): Record<string, unknown> {
  const code = `const { loadDotEnv } = require(${JSON.stringify(DOT_ENV_MODULE)});
    const loaded = loadDotEnv(${JSON.stringify(file)});
    const { PORT, SITE_URL, RATE_LIMIT_MAX } = process.env;
    console.log(JSON.stringify({ loaded, PORT, SITE_URL, RATE_LIMIT_MAX }));`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', code], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });
  return JSON.parse(out) as Record<string, unknown>;
}

describe('.env for the local run', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'dot-env-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('its values reach the environment; variables already set win over the file', () => {
    const file = path.join(dir, '.env');
    writeFileSync(
      file,
      '# the local run\nPORT=3000\nSITE_URL=http://localhost:3400\nRATE_LIMIT_MAX=5\n',
    );
    expect(loadIn(file, { PORT: '3456' })).toEqual({
      loaded: true,
      PORT: '3456',
      SITE_URL: 'http://localhost:3400',
      RATE_LIMIT_MAX: '5',
    });
  });

  test('without a .env nothing changes', () => {
    expect(loadIn(path.join(dir, '.env'), { PORT: '3456' })).toEqual({
      loaded: false,
      PORT: '3456',
    });
  });
});
