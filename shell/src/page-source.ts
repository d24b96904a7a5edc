import type { ComponentType } from 'react';

/**
 * Where the router gets the pages that live in remotes: in the browser, the federation runtime;
 * on the server, the remotes' Node builds. The route's loader calls `load`; the page then renders
 * synchronously with `loaded`, so neither side shows a loading state.
 */
export interface PageSource {
  load(path: string): Promise<ComponentType>;
  loaded(path: string): ComponentType | undefined;
}
