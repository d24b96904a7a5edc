/**
 * Every script reads its command line the same way: `node:util`'s `parseArgs`, strict (an option
 * it does not know, a missing value or a stray argument is an error), with the error said in the
 * script's words: which option, and what it takes.
 */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';

/** A value as a refusal shows it: a long one cut, so a message never carries its bulk. */
const cut = (value: string): string => (value.length > 60 ? `${value.slice(0, 60)}…` : value);

/** A command line the script cannot run with: print the message (and its usage), exit 2. */
export class ArgsError extends Error {}

/**
 * The options of `argv` as `options` declares them. `examples` gives, per option, a value to show
 * when one is missing (`--to 1.2.0`).
 */
export function readArgs<const Options extends ParseArgsOptionsConfig>(
  argv: readonly string[],
  options: Options,
  examples: Partial<Record<keyof Options, string>> = {},
) {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = error instanceof Error ? error.message : String(error);
    const option = /'(-{1,2}[^' ]+)/.exec(message)?.[1] ?? '';
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
      throw new ArgsError(`unknown option ${cut(option)}`);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      if (/does not take an argument/.test(message))
        throw new ArgsError(`${option} takes no value`);
      const example = examples[option.replace(/^-+/, '') as keyof Options];
      throw new ArgsError(
        `${option} needs a value${example === undefined ? '' : `, e.g. ${option} ${example}`}`,
      );
    }
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
      throw new ArgsError(`unexpected argument ${cut(/'([^']*)'/.exec(message)?.[1] ?? '')}`);
    throw new ArgsError(message);
  }
}

/**
 * A whole number from `value` (a command-line option's), within [min, max], or an ArgsError naming
 * the option and the range. Undefined stays undefined.
 */
export function wholeNumber(
  name: string,
  value: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max)
    throw new ArgsError(
      `--${name} takes a whole number from ${min} to ${max}, not ${JSON.stringify(cut(value))}`,
    );
  return n;
}

/**
 * A command line of whole-number options alone (a benchmark's `--rounds 4 --seconds 5`), each
 * with its default; a script exits 2 with the reason on anything else.
 */
export function readCounts<const Name extends string>(
  argv: readonly string[],
  defaults: Record<Name, number>,
  max = 100_000,
): Record<Name, number> {
  const names = Object.keys(defaults) as Name[];
  try {
    const values: Record<string, string | boolean | (string | boolean)[] | undefined> = readArgs(
      argv,
      Object.fromEntries(names.map((name) => [name, { type: 'string' as const }])),
    );
    return Object.fromEntries(
      names.map((name) => {
        const given = values[name];
        return [
          name,
          wholeNumber(name, typeof given === 'string' ? given : undefined, 1, max) ??
            defaults[name],
        ];
      }),
    ) as Record<Name, number>;
  } catch (error) {
    console.error(
      `${error instanceof Error ? error.message : String(error)} (options: ${names.map((n) => `--${n} <1-${max}>`).join(', ')})`,
    );
    process.exit(2);
  }
}
