/**
 * The background work of a running server or worker process: its job threads (the pipeline's
 * stages and the export zips, `server/jobs/pool.ts`; the first also refreshes the cached scorecard
 * facts, on this thread when there are none) and, in a server, the inbox sweeper.
 */
import { existsSync, mkdirSync, readdirSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { JobThreads } from './jobs/pool.js';
import { fxDir } from './jobs/stages/calculations.js';
import type { AppContext } from './context.js';
import { fixturesDir } from './paths.js';
import { Sweeper } from './services/imports/sweeper.js';
import { ScorecardRefresher } from './services/scorecards/refresh.js';

export interface Runtime {
  threads: JobThreads;
  sweeper: Sweeper;
  stop(): Promise<void>;
}

/** Copies the shipped independent FX rates (ECB-derived, see fixtures/README.md) into the data directory once. */
export function seedFxRates(ctx: AppContext): void {
  const dest = fxDir(ctx);
  const src = join(fixturesDir(), 'fx');
  if (!existsSync(src)) return;
  mkdirSync(dest, { recursive: true });
  for (const f of readdirSync(src)) if (!existsSync(join(dest, f))) copyFileSync(join(src, f), join(dest, f));
}

/**
 * Removes the temporary files of processes that ended (killed mid-upload), then starts
 * `ctx.config.workers` job threads for the node `nodeId` (0: none) and the sweeper.
 * @param opts.sweeper false for a `worker` process (no inbox sweeping)
 */
export function startRuntime(ctx: AppContext, opts: { nodeId: string; sweeper?: boolean; pollMs?: number }): Runtime {
  seedFxRates(ctx);
  // uploads and blobs a killed process was writing are of no use to anyone now
  const orphaned = ctx.blobs.removeOrphanedTmp();
  if (orphaned.removed) ctx.log.info(orphaned, 'removed temporary files left by processes that ended');
  const threads = new JobThreads(ctx, { size: ctx.config.workers, nodeId: opts.nodeId, pollMs: opts.pollMs });
  threads.start();
  const sweeper = new Sweeper(ctx);
  if (opts.sweeper !== false) sweeper.start();
  // scorecards stay right without it; it keeps them fast (a job thread runs it when there is one)
  const scorecards = new ScorecardRefresher(ctx);
  if (ctx.config.workers === 0) scorecards.start();
  return {
    threads,
    sweeper,
    stop: async () => {
      sweeper.stop();
      await scorecards.stop();
      await threads.stop();
    },
  };
}
