/**
 * The background work of a running server or worker process: its job threads (the pipeline's
 * stages and the export zips, `server/jobs/pool.ts`) and, in a server, the inbox sweeper.
 */
import { JobThreads } from './jobs/pool.js';
import type { AppContext } from './context.js';
import { Sweeper } from './services/imports/sweeper.js';
import { seedFxRates } from './services/reference-data/fx-rates.js';

export interface Runtime {
  threads: JobThreads;
  sweeper: Sweeper;
  stop(): Promise<void>;
}

/**
 * Starts `ctx.config.workers` job threads for the node `nodeId` (0: none) and the sweeper.
 * @param opts.sweeper false for a `worker` process (no inbox sweeping)
 */
export function startRuntime(ctx: AppContext, opts: { nodeId: string; sweeper?: boolean; pollMs?: number }): Runtime {
  seedFxRates(ctx);
  const threads = new JobThreads(ctx, { size: ctx.config.workers, nodeId: opts.nodeId, pollMs: opts.pollMs });
  threads.start();
  const sweeper = new Sweeper(ctx);
  if (opts.sweeper !== false) sweeper.start();
  return {
    threads,
    sweeper,
    stop: async () => {
      sweeper.stop();
      await threads.stop();
    },
  };
}
