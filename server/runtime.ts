/**
 * The background work of a running server: the pipeline engine with its stage jobs (and the export
 * job), and the inbox sweeper. `serve` starts it; tests start it on temporary data directories.
 */
import { existsSync, mkdirSync, readdirSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { Engine, type StageHandler } from '../pipeline/engine.js';
import { fxDir } from '../pipeline/jobs/calculations.js';
import { pipelineJobs } from '../pipeline/jobs/index.js';
import type { Stage } from './db/schema/index.js';
import type { AppContext } from './context.js';
import { fixturesDir } from './paths.js';
import { Sweeper } from './services/imports/sweeper.js';
import { exportStageHandler } from './services/exports/exports.js';

export interface Runtime {
  engine: Engine;
  sweeper: Sweeper;
  stop(): Promise<void>;
}

/** Every job the engine runs. */
export const allJobs: Partial<Record<Stage, StageHandler>> = { ...pipelineJobs, export: exportStageHandler };

/** Copies the shipped independent FX rates (ECB-derived, see fixtures/README.md) into the data directory once. */
export function seedFxRates(ctx: AppContext): void {
  const dest = fxDir(ctx);
  const src = join(fixturesDir(), 'fx');
  if (!existsSync(src)) return;
  mkdirSync(dest, { recursive: true });
  for (const f of readdirSync(src)) if (!existsSync(join(dest, f))) copyFileSync(join(src, f), join(dest, f));
}

/** Starts the engine (workers from config; 0 = none) and the sweeper. */
export function startRuntime(ctx: AppContext, opts: { sweeper?: boolean; pollMs?: number } = {}): Runtime {
  seedFxRates(ctx);
  const engine = new Engine(ctx, allJobs, { workers: ctx.config.workers, pollMs: opts.pollMs });
  if (ctx.config.workers > 0) engine.start();
  const sweeper = new Sweeper(ctx);
  if (opts.sweeper !== false) sweeper.start();
  return {
    engine,
    sweeper,
    stop: async () => {
      sweeper.stop();
      await engine.stop();
    },
  };
}
