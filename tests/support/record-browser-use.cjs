'use strict';
/**
 * Preloaded into every Node.js process of a run under test (NODE_OPTIONS="--require <this file>",
 * which every Node process passes on to the ones it starts): appends one JSON line to the file
 * BROWSER_USE_LOG names for
 *
 *   - the process itself (kind "process"), so the record shows which processes it watched;
 *   - every child process it starts, by any of child_process's functions (kind "spawn");
 *   - every file-system call on a path that contains "chrom" (kind "fs": a look for Chromium,
 *     Chrome or Playwright's chromium-* folders), and every module resolved from such a path
 *     (kind "module": a browser launcher loaded).
 *
 * It only records: every call goes on as it would have. Plain CommonJS, so it runs before any
 * loader (tsx) is registered.
 */
const fs = require('node:fs');
const childProcess = require('node:child_process');
const nodeModule = require('node:module');

const logFile = process.env.BROWSER_USE_LOG;
const BROWSER = /chrom/i;

if (logFile) {
  const appendFileSync = fs.appendFileSync;
  const record = (entry) => {
    try {
      appendFileSync(logFile, `${JSON.stringify({ pid: process.pid, ...entry })}\n`);
    } catch {
      // The record is evidence, not a reason to break the run: a missing line fails the test.
    }
  };

  /** Replaces `target[name]` by a function that calls `before(args)` and then the original. */
  const wrap = (target, name, before) => {
    const original = target[name];
    if (typeof original !== 'function') return;
    const wrapper = function (...args) {
      before(args);
      return original.apply(this, args);
    };
    // Keeps what hangs on the original (realpathSync.native, exists' promisified form).
    for (const key of Reflect.ownKeys(original)) {
      if (key === 'length' || key === 'name' || key === 'prototype') continue;
      const descriptor = Object.getOwnPropertyDescriptor(original, key);
      if (descriptor) Object.defineProperty(wrapper, key, descriptor);
    }
    target[name] = wrapper;
  };

  record({ kind: 'process', argv: process.argv });

  for (const name of [
    'spawn',
    'spawnSync',
    'exec',
    'execSync',
    'execFile',
    'execFileSync',
    'fork',
  ]) {
    wrap(childProcess, name, (args) => {
      const [command, rest] = args;
      record({
        kind: 'spawn',
        via: name,
        command: [String(command), ...(Array.isArray(rest) ? rest.map(String) : [])],
      });
    });
  }

  const pathOf = (value) =>
    typeof value === 'string' || value instanceof URL || Buffer.isBuffer(value)
      ? String(value)
      : undefined;
  const PATH_CALLS = [
    'access',
    'exists',
    'stat',
    'lstat',
    'open',
    'readFile',
    'readdir',
    'realpath',
    'readlink',
    'opendir',
    'createReadStream',
    'watch',
  ];
  for (const call of PATH_CALLS) {
    for (const [target, name] of [
      [fs, call],
      [fs, `${call}Sync`],
      [fs.promises, call],
    ]) {
      wrap(target, name, (args) => {
        const file = pathOf(args[0]);
        if (file !== undefined && BROWSER.test(file)) record({ kind: 'fs', via: name, path: file });
      });
    }
  }
  // `import { spawn } from 'node:child_process'` sees the wrapped functions too.
  nodeModule.syncBuiltinESMExports();

  if (typeof nodeModule.registerHooks === 'function') {
    nodeModule.registerHooks({
      resolve(specifier, context, nextResolve) {
        const resolved = nextResolve(specifier, context);
        if (BROWSER.test(resolved.url)) record({ kind: 'module', url: resolved.url });
        return resolved;
      },
    });
  }
}
