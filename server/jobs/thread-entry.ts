/** Entry point of a job worker thread (bundled as dist/worker.mjs, and worker.cjs in the binary). */
import { parentPort, workerData } from 'node:worker_threads';
import { useSqliteAddon } from '../db/native.js';
import { runJobThread, type JobThreadData } from './thread.js';

const data = workerData as JobThreadData;
if (parentPort && data?.role === 'fund-audit-jobs') {
  if (data.sqliteAddon) useSqliteAddon(data.sqliteAddon);
  runJobThread(data, parentPort).catch((err: Error) => {
    process.stderr.write(`Fund Audit job thread failed to start: ${err.stack ?? err.message}\n`);
    process.exit(1);
  });
}
