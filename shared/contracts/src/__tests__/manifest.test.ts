import { ManifestError, parseManifest, readManifest } from '../manifest';
import { PATH_MAX, PLAIN_PATH_RULE, quoted } from '../routes';
import { testManifest, testRemote, testRoute as route } from '@site/build/testing/manifest';

const valid = () =>
  testManifest([
    testRemote('custom_dev', 'http://localhost:3001', '/services/custom-dev', [
      '/services/custom-dev/a',
      '/services/custom-dev/b',
    ]),
  ]);

describe('parseManifest', () => {
  it('accepts a valid manifest and returns it typed', () => {
    const manifest = parseManifest(valid());
    expect(manifest.remotes[0]?.routes.map((r) => r.path)).toEqual([
      '/services/custom-dev/a',
      '/services/custom-dev/b',
    ]);
  });

  it('accepts a route at a prefix itself: the group’s overview page', () => {
    const m = valid();
    m.remotes[0]!.routes.unshift(route('/services/custom-dev'));
    expect(parseManifest(m).remotes[0]?.routes.map((r) => r.path)).toEqual([
      '/services/custom-dev',
      '/services/custom-dev/a',
      '/services/custom-dev/b',
    ]);
  });

  it('refuses a route that only starts with a prefix’s letters', () => {
    const m = valid();
    m.remotes[0]!.routes.push(route('/services/custom-development'));
    expect(() => parseManifest(m)).toThrow(/outside/);
  });

  const broken: [string, (m: ReturnType<typeof valid>) => unknown, RegExp][] = [
    ['not an object', () => 'nope', /not a JSON object/],
    ['an unknown schema version', (m) => ({ ...m, schemaVersion: 2 }), /schemaVersion/],
    ['no remotes', (m) => ({ ...m, remotes: undefined }), /remotes/],
    ['a bad name', (m) => ((m.remotes[0]!.name = 'Custom-Dev'), m), /snake_case/],
    [
      'an entry that is not http',
      (m) => ((m.remotes[0]!.entry = 'javascript:alert(1)'), m),
      /http/,
    ],
    [
      'a prefix with a trailing slash',
      (m) => ((m.remotes[0]!.prefixes = ['/services/']), m),
      /prefixes/,
    ],
    [
      'a route outside its prefixes',
      (m) => (m.remotes[0]!.routes.push(route('/elsewhere/x')), m),
      /outside/,
    ],
    [
      'a short description',
      (m) => ((m.remotes[0]!.routes[0]!.description = 'short'), m),
      /description/,
    ],
    [
      'a path claimed twice',
      (m) => (m.remotes[0]!.routes.push(route('/services/custom-dev/a')), m),
      /claimed twice/,
    ],
    [
      'a remote listed twice',
      (m) => (m.remotes.push({ ...m.remotes[0]!, routes: [route('/services/custom-dev/c')] }), m),
      /twice/,
    ],
  ];

  it.each(broken)('rejects %s with a clear ManifestError', (_name, mutate, message) => {
    expect(() => parseManifest(mutate(valid()))).toThrow(ManifestError);
    expect(() => parseManifest(mutate(valid()))).toThrow(message);
  });
});

describe('readManifest: one bad entry spoils only its own group', () => {
  const withData = () => {
    const m = valid();
    m.remotes.push(
      testRemote('data', 'http://localhost:3002', '/services/data', ['/services/data/x']),
    );
    return m;
  };

  it('keeps the good entries and sets aside one with a route outside its prefixes', () => {
    const m = withData();
    m.remotes[1]!.routes.push(route('/elsewhere/y'));
    const read = readManifest(m);
    expect(read.remotes.map((r) => r.name)).toEqual(['custom_dev']);
    expect(read.unavailable).toEqual([
      { name: 'data', prefixes: ['/services/data'], reason: expect.stringMatching(/outside/) },
    ]);
  });

  it('sets aside the later of two entries that claim the same path, keeping the first', () => {
    const m = withData();
    m.remotes[1]!.prefixes.push('/services/custom-dev/b');
    m.remotes[1]!.routes.push(route('/services/custom-dev/b'));
    const read = readManifest(m);
    expect(read.remotes.map((r) => r.name)).toEqual(['custom_dev']);
    // Its prefix inside another group's is not marked: that group's pages stay its own.
    expect(read.unavailable?.[0]).toMatchObject({ name: 'data', prefixes: ['/services/data'] });
    expect(read.unavailable?.[0]?.reason).toMatch(/overlaps/);
  });

  it('is strict where parseManifest is: the same manifests are refused there', () => {
    const m = withData();
    m.remotes[1]!.routes.push(route('/elsewhere/y'));
    expect(() => parseManifest(m)).toThrow(/outside/);
  });

  it('still refuses what is not a manifest at all', () => {
    expect(() => readManifest({ schemaVersion: 1 })).toThrow(ManifestError);
  });
});

describe('a group’s prefixes and paths are plain paths, so no link leaves the site', () => {
  const ATTACKS: [string, string][] = [
    ['//evil.example', 'it has an empty segment'],
    ['/\\evil.example', 'it has a backslash'],
    [
      '/ASSETS',
      'its segment "ASSETS" has a character other than lower-case letters, digits and hyphens',
    ],
    [
      '/Services/Custom-Dev',
      'its segment "Services" has a character other than lower-case letters, digits and hyphens',
    ],
    ['/services/custom%2Ddev', 'it has percent-encoding'],
    ['/services/data-analytics/../custom-dev', 'it has a "." or ".." segment'],
    ['/services/custom-dev;x', 'it has a ";"'],
    [`/${'a'.repeat(PATH_MAX)}`, `it has ${PATH_MAX + 1} characters`],
  ];
  const claiming = (prefix: string) =>
    testManifest([
      testRemote('custom_dev', 'http://localhost:3001', '/services/custom-dev', [
        '/services/custom-dev/a',
      ]),
      testRemote('hostile', 'http://localhost:3009', prefix, [prefix, `${prefix}/x`]),
    ]);

  it.each(ATTACKS)('parseManifest refuses a prefix %s, naming it and the rule', (prefix, rule) => {
    expect(() => parseManifest(claiming(prefix))).toThrow(
      `remotes[1].prefixes[0] ${quoted(prefix)} is not a plain path (${rule})`,
    );
    expect(() => parseManifest(claiming(prefix))).toThrow(PLAIN_PATH_RULE);
  });

  it.each(ATTACKS)(
    'readManifest sets aside a group with a prefix %s and marks none of its prefixes',
    (prefix) => {
      const read = readManifest(claiming(prefix));
      expect(read.remotes.map((r) => r.name)).toEqual(['custom_dev']);
      expect(read.unavailable).toEqual([
        { name: 'hostile', prefixes: [], reason: expect.stringContaining('not a plain path') },
      ]);
    },
  );

  it.each([
    ['/services/custom-dev//evil.example', 'it has an empty segment'],
    ['/services/custom-dev/./a', 'it has a "." or ".." segment'],
    ['/services/custom-dev/a;b', 'it has a ";"'],
    ['/services/custom-dev/a%2Fb', 'it has percent-encoding'],
    ['/services/custom-dev/a\\b', 'it has a backslash'],
    [
      '/services/custom-dev/a b',
      'its segment "a b" has a character other than letters, digits and hyphens',
    ],
  ])('a route at %s under a plain prefix is refused too', (path, rule) => {
    const m = valid();
    m.remotes[0]!.routes.push(route(path));
    expect(() => parseManifest(m)).toThrow(`is not a plain path (${rule})`);
    expect(readManifest(m).remotes).toEqual([]);
  });

  it('keeps capitals below a prefix, as the site’s own pages have them', () => {
    const m = valid();
    m.remotes[0]!.routes.push(route('/services/custom-dev/MandE-tools'));
    expect(parseManifest(m).remotes[0]?.routes.at(-1)?.path).toBe(
      '/services/custom-dev/MandE-tools',
    );
  });
});

describe('parseManifest: share card of a route', () => {
  const withImage = (image: unknown) => {
    const m = valid();
    (m.remotes[0]!.routes[0] as Record<string, unknown>).image = image;
    return m;
  };

  it('keeps a card path relative to the version folder', () => {
    const manifest = parseManifest(withImage('share/services-custom-dev-a.0123456789.png'));
    expect(manifest.remotes[0]?.routes[0]?.image).toBe(
      'share/services-custom-dev-a.0123456789.png',
    );
  });

  it('leaves the card out when a route has none', () => {
    expect(parseManifest(valid()).remotes[0]?.routes[0]).not.toHaveProperty('image');
  });

  it.each([
    ['an absolute path', '/share/a.png'],
    ['a URL', 'https://cdn.example.com/share/a.png'],
    ['a protocol-relative URL', '//cdn.example.com/a.png'],
    ['a way out of the folder', 'share/../../a.png'],
    ['a leading ..', '../a.png'],
    ['a . segment', './share/a.png'],
    ['another format', 'share/a.jpg'],
    ['a query', 'share/a.png?x=1'],
    ['a backslash', 'share\\a.png'],
    ['an empty string', ''],
    ['a number', 42],
    ['a name longer than a card’s', `share/${'a'.repeat(160)}.png`],
  ])('rejects %s', (_, image) => {
    expect(() => parseManifest(withImage(image))).toThrow(/image must be a \.png path/);
  });
});

describe('parseManifest: the pin of a version’s Node build', () => {
  const pin = `sha256-${Buffer.alloc(32, 7).toString('base64')}`;

  it('keeps a SHA-256 pin in integrity form', () => {
    const m = valid();
    Object.assign(m.remotes[0]!, { serverIntegrity: pin });
    expect(parseManifest(m).remotes[0]?.serverIntegrity).toBe(pin);
  });

  it.each([['sha1-abc'], ['sha256-short'], [42], [`${pin} `]])('refuses %p', (value) => {
    const m = valid();
    Object.assign(m.remotes[0]!, { serverIntegrity: value });
    expect(() => parseManifest(m)).toThrow(/serverIntegrity/);
  });
});
