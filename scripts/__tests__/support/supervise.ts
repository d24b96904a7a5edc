/**
 * `runTogether` in a process of its own, as `npm start` uses it, for the supervisor's tests:
 * `node --import tsx supervise.ts '<json: { specs, backoff, graceMs }>'`.
 */
import { runTogether, type ProcessSpec, type RunOptions } from '../../lib/processes';

const { specs, ...options } = JSON.parse(process.argv[2] ?? '{}') as RunOptions & {
  specs: ProcessSpec[];
};
runTogether(specs, options);
console.log('supervising');
