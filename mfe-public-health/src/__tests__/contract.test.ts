import { runFederationConfigTest } from '@site/build/testing';
import { routeTable } from '../routes';

// eslint-disable-next-line @typescript-eslint/no-require-imports
runFederationConfigTest(require('../../webpack.config.js'), routeTable);
