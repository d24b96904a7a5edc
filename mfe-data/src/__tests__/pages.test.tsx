import { runRemoteContractTests } from '@site/shared/testing';
import { pages } from '../pages';
import { routeTable } from '../routes';

runRemoteContractTests(routeTable, pages);
