/** Every job the engine runs, by kind: the pipeline's stages, the export zips, test runs and chasing's jobs. */
import type { JobKind } from '../../db/schema/index.js';
import { chasingJobs } from '../../services/chasing/jobs.js';
import { exportStageHandler } from '../exports/job.js';
import { testRunJob } from '../test-runner/job.js';
import type { StageHandler } from '../../queue/queue.js';
import { pipelineJobs } from './pipeline.js';

/** Every job a worker runs. */
export const allJobs: Partial<Record<JobKind, StageHandler>> = { ...pipelineJobs, export: exportStageHandler, testRun: testRunJob, ...chasingJobs };
