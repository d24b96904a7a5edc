import { newestVersion, sortVersions } from '../versions';

describe('version order', () => {
  it('sorts by semver: pre-releases below their release, 1.10 above 1.9', () => {
    expect(
      sortVersions(['1.10.0', '1.0.0', '1.0.0-rc.1', '1.9.0', '1.0.0-beta.2', 'notes']),
    ).toEqual(['1.0.0-beta.2', '1.0.0-rc.1', '1.0.0', '1.9.0', '1.10.0']);
    expect(newestVersion(['1.0.0-rc.1', '1.0.0'])).toBe('1.0.0');
    expect(newestVersion(['2.0.0-rc.1', '1.0.0'])).toBe('2.0.0-rc.1');
    expect(newestVersion([])).toBeUndefined();
  });
});
