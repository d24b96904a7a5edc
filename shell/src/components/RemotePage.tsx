import type { PageSource } from '../page-source';

/**
 * Renders a page that lives in a remote. The route's loader has already fetched the remote and the
 * page's chunk (with retries), so the component is at hand and renders without a loading flash.
 */
export function RemotePage({ path, source }: { path: string; source: PageSource }) {
  const Page = source.loaded(path);
  if (!Page) throw new Error(`the page ${path} was not loaded`);
  return <Page />;
}
