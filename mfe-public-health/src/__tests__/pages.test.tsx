import { runRemoteContractTests } from '@site/build/testing';
import { pages } from '../pages';
import { routeTable } from '../routes';

runRemoteContractTests(routeTable, pages);
