import { PINS_GLOBAL } from '@site/contracts';

/**
 * Every file a group's pages load is pinned by SHA-384 at deploy (the manifest entry's `files`).
 * The page holds the pins of the files it may load under one global, set by its first script
 * (shell/server/pages/compose.ts); a group's chunk loader reads them for its chunks
 * (shared/build/webpack/pinned-loading.cjs) and this federation runtime plugin for the group's
 * entry. The browser then runs no file changed on a group's host since its deploy.
 */
type PinHolder = { [PINS_GLOBAL]?: Record<string, string> };

export const pinnedEntries = {
  name: 'site-pinned-entries',
  createScript({ url }: { url: string }): HTMLScriptElement | undefined {
    const pin = (globalThis as PinHolder)[PINS_GLOBAL]?.[url];
    return pin
      ? Object.assign(document.createElement('script'), {
          integrity: pin,
          crossOrigin: 'anonymous',
        })
      : undefined;
  },
};
