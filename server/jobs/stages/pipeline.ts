/** The pipeline's stage jobs, by stage (what a test case's workspace runs too). */
import type { Stage } from '../../db/schema/index.js';
import type { StageHandler } from '../queue.js';
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
