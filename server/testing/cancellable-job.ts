/**
 * Test support for the job queue: a job that runs until it is cancelled, to see a cancel reach a
 * running job at its next lease renewal.
 */
import { JobCancelled } from '../../pipeline/engine.js';
import type { AppContext } from '../context.js';
import { Engine } from '../jobs/engine.js';

/**
 * A job engine whose `calculations` job runs until its signal aborts (the engine saw the job
 * cancelled), then ends as cancelled.
 * @returns the engine, and `aborted()`: whether the running job saw its signal abort
 */
export function engineRunningUntilCancelled(ctx: AppContext): { engine: Engine; aborted: () => boolean } {
  let aborted = false;
  const engine = new Engine(ctx, {
    calculations: async (_c, _job, signal) => {
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
      aborted = true;
      throw new JobCancelled();
    },
  });
  return { engine, aborted: () => aborted };
}
