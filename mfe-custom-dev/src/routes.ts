import type { RouteTable } from '@site/contracts';
import table from './routes.json';

/** This remote's published route table: the paths it owns and each page's title and description. */
export const routeTable: RouteTable = table;
