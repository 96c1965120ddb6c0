// Starts a worker thread from the TypeScript sources (tests and benchmarks run them through tsx;
// the built product starts dist/worker.mjs or dist/pool-worker.mjs instead, see script.ts):
// registers tsx in this thread, imports the entry named in workerData.entry and passes on its
// default export (the task handler of a request pool thread; job threads export none).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const entry = await import(workerData.entry);
export default entry.default;
