import { ArgsError, readArgs, wholeNumber } from '../lib/args';

const OPTIONS = {
  rebuild: { type: 'boolean' },
  to: { type: 'string' },
  with: { type: 'string', multiple: true },
} as const;

describe('a script’s command line', () => {
  it('gives the options as declared', () => {
    expect(readArgs(['--rebuild', '--to', '1.2.0', '--with', 'a', '--with', 'b'], OPTIONS)).toEqual(
      {
        rebuild: true,
        to: '1.2.0',
        with: ['a', 'b'],
      },
    );
    expect(readArgs([], OPTIONS)).toEqual({});
  });

  it.each([
    [['--fresh'], 'unknown option --fresh'],
    [['--rebuild=yes'], '--rebuild takes no value'],
    [['--to'], '--to needs a value, e.g. --to 1.2.0'],
    [['--with'], '--with needs a value'],
    [['stray'], 'unexpected argument stray'],
    [['--\u2028'], 'unknown option --\u2028'],
    [['--\u0000'], 'unknown option --\u0000'],
    [['--\ud800'], 'unknown option --\ud800'],
  ])('%j is refused: %s', (argv, message) => {
    expect(() => readArgs(argv, OPTIONS, { to: '1.2.0' })).toThrow(new ArgsError(message));
  });

  it('refuses a megabyte argument as any other stray one, quoting its start alone', () => {
    const megabyte = 'x'.repeat(1_000_000);
    expect(() => readArgs([megabyte], OPTIONS)).toThrow(
      new ArgsError(`unexpected argument ${'x'.repeat(60)}…`),
    );
  });

  it('reads whole numbers within a range, and names the option and the range otherwise', () => {
    expect(wholeNumber('replicas', '3', 1, 9)).toBe(3);
    expect(wholeNumber('replicas', undefined, 1, 9)).toBeUndefined();
    for (const bad of [
      '0',
      '10',
      '2.5',
      '-1',
      '',
      'three',
      '1e1',
      '3\u2028',
      '3\u0000',
      '9'.repeat(1_000_000),
    ])
      expect(() => wholeNumber('replicas', bad, 1, 9)).toThrow(
        `--replicas takes a whole number from 1 to 9, not ${JSON.stringify(bad.length > 60 ? `${bad.slice(0, 60)}…` : bad)}`,
      );
  });
});
