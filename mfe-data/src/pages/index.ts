import { servicePages } from '@site/ui';
import { type RemotePagesModule } from '@site/contracts';
import { routeTable } from '../routes';

/**
 * What this remote exposes as `./pages`: one loader per route of the table, each drawing its page
 * from `src/content/<last path segment, lower case>.ts`. Each content module is a chunk of its own,
 * with the page's own picture (`src/art/`), so a visitor downloads only the page they open. Adding
 * a page: a route and a content file. The route at a prefix itself is that group's overview.
 */
export const pages: RemotePagesModule['pages'] = servicePages(
  routeTable,
  (module) => import(`../content/${module}.ts`),
);
