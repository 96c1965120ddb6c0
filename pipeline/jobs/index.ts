/** The stage jobs the engine runs, by stage. */
import type { Stage } from '../../server/db/schema/index.js';
import type { StageHandler } from '../engine.js';
import { calculationsJob } from './calculations.js';
import { identificationJob } from './identification.js';
import { standardizationJob } from './standardization.js';
import { visualizationJob } from './visualization.js';

export const pipelineJobs: Partial<Record<Stage, StageHandler>> = {
  identification: identificationJob,
  standardization: standardizationJob,
  calculations: calculationsJob,
  visualization: visualizationJob,
};
