import type { ComponentType } from 'react';

/** A page module inside a remote, loaded on demand so a visitor downloads only the page they open. */
export type PageLoader = () => Promise<{ default: ComponentType }>;

/**
 * What every remote exposes as `./pages`: one loader per path of its route table.
 * The shell loads it with `loadRemote<RemotePagesModule>('<name>/pages')`.
 */
export interface RemotePagesModule {
  pages: Record<string, PageLoader>;
}
