/** Every job the engine runs, by kind: the pipeline's stages, the export zips and test runs. */
import type { JobKind, Stage } from '../../db/schema/index.js';
import { exportStageHandler } from '../../services/exports/job.js';
import { testRunJob } from '../../services/test-runner/test-runner.js';
import type { StageHandler } from '../queue.js';
import { calculationsJob } from './calculations.js';
import { identificationJob } from './identification.js';
import { standardizationJob } from './standardization.js';
import { visualizationJob } from './visualization.js';

/** The pipeline's stage jobs. */
export const pipelineJobs: Partial<Record<Stage, StageHandler>> = {
  identification: identificationJob,
  standardization: standardizationJob,
  calculations: calculationsJob,
  visualization: visualizationJob,
};

/** Every job a worker runs. */
export const allJobs: Partial<Record<JobKind, StageHandler>> = { ...pipelineJobs, export: exportStageHandler, testRun: testRunJob };
