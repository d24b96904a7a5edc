/**
 * The Node built-ins a render process lets a team's code have: what the bundled React server
 * renderer uses (async_hooks, crypto, stream, util) and the plain data helpers a page's bundle may
 * pull in. None of them opens a file, a database, a socket or a process, or loads native code.
 * Every other built-in fails, whichever way it is asked for: `require` (a team's build gets a
 * `require` of its own, and every other `require` passes the resolve hook below), `import()`
 * (refused by the vm script a team's build runs in, and by the hook), `process.getBuiltinModule`
 * and `module.createRequire` (the `module` built-in is not on the list).
 *
 * Node's permission model is the wall under this one for files, processes, threads, addons and the
 * inspector; it does not cover `node:sqlite` (which opens any path the process's user can) or, on
 * Node 24, sockets. This list does.
 */
import { isBuiltin, registerHooks } from 'node:module';

export const ALLOWED_BUILTINS: readonly string[] = [
  'async_hooks',
  'buffer',
  'crypto',
  'events',
  'path',
  'stream',
  'string_decoder',
  'url',
  'util',
];

const allowed = new Set(ALLOWED_BUILTINS);

/** A built-in's name without the `node:` scheme, or undefined when `specifier` names none. */
const builtinName = (specifier: string): string | undefined =>
  isBuiltin(specifier) ? specifier.replace(/^node:/, '') : undefined;

export class BuiltinDeniedError extends Error {
  override name = 'BuiltinDeniedError';
  readonly code = 'ERR_BUILTIN_DENIED';
  constructor(specifier: string) {
    super(
      `${specifier}: a page's server code may use only these Node built-ins: ${ALLOWED_BUILTINS.join(', ')}`,
    );
  }
}

/**
 * Shuts every built-in but the allowed ones, for all code that runs in this process from now on.
 * Returns the way to the allowed ones, for the `require` a team's build is given.
 */
export function restrictBuiltins(): (specifier: string) => unknown {
  const getBuiltinModule = process.getBuiltinModule.bind(process);
  const permitted = (specifier: string): unknown => {
    const name = builtinName(specifier);
    if (name === undefined || !allowed.has(name)) throw new BuiltinDeniedError(specifier);
    return getBuiltinModule(name);
  };
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const name = builtinName(specifier);
      if (name !== undefined && !allowed.has(name)) throw new BuiltinDeniedError(specifier);
      return nextResolve(specifier, context);
    },
  });
  Object.defineProperty(process, 'getBuiltinModule', {
    value: (specifier: string) => {
      const name = builtinName(String(specifier));
      // Node answers undefined for a name that is no built-in; so does this.
      return name === undefined ? undefined : permitted(String(specifier));
    },
    writable: false,
    configurable: false,
  });
  return permitted;
}
