/**
 * Requests aimed at the site's own APIs: the deploy API's paths and JSON bodies, and /api targets
 * a careless forwarder would send to another host.
 */
import type { Random } from './random';
import type { Surface } from './surface';

/** A JSON value a careless handler might trip on. */
function jsonValue(r: Random, allowed?: string): unknown {
  return r.pick<unknown>([
    'x',
    '',
    'data',
    '1.0.0',
    '1.0.0-rc.1',
    'not-a-version',
    'x'.repeat(600),
    '\u0000\u0001\n',
    'é😀',
    `${allowed ?? 'http://127.0.0.1:1'}/1.0.0/remoteEntry.js`,
    'javascript:alert(1)',
    'http://evil.example/remoteEntry.js',
    '//evil.example/x',
    '__proto__',
    0,
    -1,
    1e308,
    null,
    true,
    [],
    ['x'],
    {},
    { toString: 'x' },
  ]);
}

export function deployBody(r: Random, allowed?: string): string {
  if (r.chance(0.2)) {
    return r.pick([
      '',
      '{',
      'null',
      '[]',
      '"x"',
      '1',
      '{"__proto__":{"polluted":1}}',
      '{"constructor":{"prototype":{"x":1}}}',
      `{"base":"${'a'.repeat(20000)}"}`,
      '\u0000',
      '{"base":"x",}',
      `${'['.repeat(5000)}${']'.repeat(5000)}`,
    ]);
  }
  const body: Record<string, unknown> = {};
  for (const key of ['base', 'entry', 'version', 'reason', 'by', 'to']) {
    if (r.chance(0.6)) body[key] = jsonValue(r, allowed);
  }
  return JSON.stringify(body);
}

export function deployTarget(r: Random, surface: Surface): string {
  const name = r.pick([
    ...(surface.remoteNames ?? []),
    '%E0%A4%A',
    '%',
    '%ff',
    '..',
    '%2e%2e',
    'a%2fb',
    'Data',
    'x'.repeat(300),
    '%C3%A9',
    '__proto__',
    'constructor',
    'toString',
    '',
    '%00',
  ]);
  return r.pick([
    '/_deploy',
    '/_deploy/',
    '/_deploy/manifest',
    '/_deploy/manifest/',
    '/_deploy/history',
    `/_deploy/history?remote=${name}`,
    `/_deploy/history?remote=${name}&remote=x`,
    '/_deploy/remotes/',
    `/_deploy/remotes/${name}`,
    `/_deploy/remotes/${name}/rollback`,
    `/_deploy/remotes/${name}/rollback/`,
    `/_deploy/remotes/${name}/x`,
    `/_deploy/%2e%2e/manifest`,
    `/_deploy//manifest`,
    `/_Deploy/manifest`,
  ]);
}

export function apiTarget(r: Random, surface: Surface): string {
  // Forms a careless forwarder resolves against the request instead of against its upstream.
  const elsewhere = surface.internal
    ? [
        `http://${surface.internal}/api/health`,
        `//${surface.internal}/api/health`,
        `/\\${surface.internal}/api/health`,
        `/%5c${surface.internal}/api/health`,
        `http://evil.example/api/health`,
        `/\\evil.example/api/contact`,
      ]
    : [];
  return r.pick([
    ...elsewhere,
    '/api',
    '/api/',
    '/api/contact',
    '/api/csrf',
    '/api/health',
    '/api/ready',
    '/api/metrics',
    '/api/../about',
    '/api/%2e%2e/about',
    '/api//x:99999/',
    '/api//evil.example/',
    '/api/%E0%A4%A',
    '/api/x?y=%',
    `/api/${'x'.repeat(3000)}`,
    '/api/contact?__proto__[x]=1',
  ]);
}
