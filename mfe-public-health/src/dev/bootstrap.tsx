import '@site/ui/styles.css';
import { mountStandalone } from '@site/build/dev';
import { pages } from '../pages';
import { routeTable } from '../routes';

mountStandalone(routeTable, pages);
