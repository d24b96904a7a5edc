/**
 * Set before any other module of the page runs: the page's Content-Security-Policy allows no code
 * made from strings ('unsafe-eval'), and zod, which would probe for it when it builds its first
 * schema (a blocked probe it catches, but which the browser still reports as a violation), reads
 * its settings from this global when it loads. `jitless` makes it parse without generated code.
 */
const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true };

export {};
