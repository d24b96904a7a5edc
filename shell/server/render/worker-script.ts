/**
 * The render process's code as one script. The site server runs its TypeScript through a loader
 * (tsx, or a test runner's own), but a loader cannot work in a render process: tsx compiles with
 * esbuild, which starts a thread and a process of its own, both of which the permission model
 * denies. So the site server compiles the worker once, here, and starts each process with the
 * result (`node -e`): the process reads no code from disk but the shell's server build.
 */
import path from 'node:path';
import { build } from 'esbuild';

const WORKER = path.join(__dirname, 'worker.ts');

let compiled: Promise<string> | undefined;

export function workerScript(): Promise<string> {
  compiled ??= build({
    entryPoints: [WORKER],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: `node${process.versions.node}`,
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
    // Strict code all through: a team's code cannot reach this code's functions through a stack.
    banner: { js: '"use strict";' },
  }).then(({ outputFiles }) => {
    const script = outputFiles[0]?.text;
    if (!script) throw new Error(`compiling ${WORKER} gave no script`);
    return script;
  });
  compiled.catch(() => {
    compiled = undefined;
  });
  return compiled;
}
