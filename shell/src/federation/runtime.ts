import type { ModuleFederation } from '@module-federation/enhanced/runtime';
import { pinnedEntries } from './pins';

/**
 * What the shell shares with its remotes, by package: the installed version and the range the
 * shell accepts. Filled in at build time from `shared/build/federation.cjs`, the one place the shared
 * singletons are declared for the shell and every remote.
 */
declare const __FEDERATION_SHARED__: Record<string, { version: string; requiredVersion: string }>;

/** A remote as the runtime knows it: its federation name and the URL of its `remoteEntry.js`. */
export interface RemoteEntry {
  name: string;
  entry: string;
}

let instance: Promise<ModuleFederation> | undefined;

/**
 * The federation runtime, started on first use. The shell's own pages never need it, so its code
 * is not part of their first load: it arrives when a visitor enters, or points at, a page of a
 * remote. It hands the remotes the shell's own copies of React and the UI package (already in
 * the page), so each stays a single instance; a remote built for an incompatible version is
 * reported by the runtime rather than given a second copy.
 */
export function federation(): Promise<ModuleFederation> {
  instance ??= (async () => {
    const [{ createInstance }, runtimeCore, React, JsxRuntime, ReactDOM, Ui] = await Promise.all([
      import(/* webpackChunkName: "federation" */ '@module-federation/enhanced/runtime'),
      import(/* webpackChunkName: "federation" */ '@module-federation/runtime-core'),
      import(/* webpackChunkName: "federation" */ 'react'),
      import(/* webpackChunkName: "federation" */ 'react/jsx-runtime'),
      import(/* webpackChunkName: "federation" */ 'react-dom'),
      import(/* webpackChunkName: "federation" */ '@site/ui'),
    ]);
    const libs: Record<string, unknown> = {
      react: React,
      'react/jsx-runtime': JsxRuntime,
      'react-dom': ReactDOM,
      '@site/ui': Ui,
    };
    const shared = Object.fromEntries(
      Object.entries(libs).map(([name, lib]) => {
        const { version, requiredVersion } = __FEDERATION_SHARED__[name] ?? {
          version: '0.0.0',
          requiredVersion: '*',
        };
        return [
          name,
          {
            version,
            lib: () => lib,
            shareConfig: { singleton: true, requiredVersion },
          },
        ];
      }),
    );
    // The remotes are built with `experiments.externalRuntime` (shared/build/webpack.cjs): their
    // remoteEntry.js carries no runtime of its own (about 16 KB gzip each) and uses this one, which
    // the shell publishes under the global name the federation plugin reads it from.
    (globalThis as { _FEDERATION_RUNTIME_CORE?: unknown })._FEDERATION_RUNTIME_CORE = runtimeCore;
    return createInstance({
      name: 'shell',
      remotes: [],
      shared,
      // Each remote's entry is fetched when its pages are needed, never all at start-up.
      shareStrategy: 'loaded-first',
      plugins: [pinnedEntries],
    });
  })();
  return instance;
}

/** Adds or replaces remotes; `force` drops what the runtime cached for them (a failed load). */
export async function registerRemoteEntries(
  remotes: readonly RemoteEntry[],
  force = false,
): Promise<void> {
  (await federation()).registerRemotes([...remotes], { force });
}

/** Loads a module a remote exposes, such as `data/pages`. */
export async function loadRemoteModule<T>(id: string): Promise<T | null> {
  return (await federation()).loadRemote<T>(id);
}
