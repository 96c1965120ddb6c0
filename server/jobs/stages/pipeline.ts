/** The pipeline's stage jobs, by stage (what a test case's workspace runs too). */
import type { Stage } from '../../db/schema/index.js';
import { markParentNeedsRerun } from '../../services/aggregation/rules.js';
import type { StageHandler } from '../../queue/queue.js';
import { calculationsJob } from './calculations.js';
import { identificationJob } from './identification.js';
import { standardizationJob } from './standardization.js';
import { visualizationJob } from './visualization.js';

/** A stage whose completion changes a fund's data: the parent aggregating that fund needs a rerun. */
const changesChildData =
  (handler: StageHandler): StageHandler =>
  async (ctx, job, signal) => {
    const outcome = await handler(ctx, job, signal);
    if (job.fundRequestId !== null) await markParentNeedsRerun(ctx, job.fundRequestId);
    return outcome;
  };

/** After a fund's checks ran, its chases are reviewed (resolved when fixed, opened when failed: docs/chasing.md). */
const reviewsChases =
  (handler: StageHandler): StageHandler =>
  async (ctx, job, signal) => {
    const outcome = await handler(ctx, job, signal);
    if (job.fundRequestId === null) return outcome;
    return { ...outcome, next: [...(outcome.next ?? []), { stage: 'chaseReview', fundRequestId: job.fundRequestId }] };
  };

export const pipelineJobs: Partial<Record<Stage, StageHandler>> = {
  identification: identificationJob,
  standardization: changesChildData(standardizationJob),
  calculations: changesChildData(reviewsChases(calculationsJob)),
  visualization: visualizationJob,
};
