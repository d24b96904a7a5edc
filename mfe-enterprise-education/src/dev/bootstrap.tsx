import '@site/shared/styles.css';
import { mountStandalone } from '@site/shared/dev';
import { pages } from '../pages';
import { routeTable } from '../routes';

mountStandalone(routeTable, pages);
