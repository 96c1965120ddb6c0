// Starts a worker thread from TypeScript sources (tests and benchmarks run the sources through
// tsx; the built product starts dist/worker.mjs instead): registers tsx, then imports the entry
// named in workerData.entry.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
