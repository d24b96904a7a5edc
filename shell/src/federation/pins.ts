import { pinsByUrl, type RemoteDeployment } from '@site/contracts';

/**
 * Every file a group's pages load is pinned by SHA-384 at deploy (the manifest entry's `files`).
 * The pins of the manifest this page was composed with live under one global: the shell's
 * federation runtime reads them for a group's entry (`createScript` below), and each group's chunk
 * loader for the chunks its entry loads (shared/build/webpack/pinned-loading.cjs, which names the
 * same global). The browser then runs no file that changed on a group's host since its deploy.
 */
const PINS_GLOBAL = '__site_pins';

type PinHolder = { [PINS_GLOBAL]?: Record<string, string> };

export function setPins(remotes: readonly RemoteDeployment[]): void {
  (globalThis as PinHolder)[PINS_GLOBAL] = Object.assign({}, ...remotes.map(pinsByUrl));
}

/** A federation runtime plugin: a pinned remote entry is loaded with its integrity. */
export const pinnedEntries = {
  name: 'site-pinned-entries',
  createScript({ url }: { url: string }): HTMLScriptElement | undefined {
    const pin = (globalThis as PinHolder)[PINS_GLOBAL]?.[url];
    if (!pin) return undefined;
    const script = document.createElement('script');
    script.integrity = pin;
    script.crossOrigin = 'anonymous';
    return script;
  },
};
