/**
 * Pipeline bookkeeping: durable processes (one job per fund and stage), orchestration logs,
 * mappings and their assignment to funds, exports, self-onboarding uploads and test runs.
 */
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { bool, createdAt, id, json, updatedAt } from './common.js';
import { fundRequests } from './funds.js';
import { administrators } from './reference.js';
import { users } from './users.js';

/** Pipeline stages (spec section 4). */
export const STAGES = ['import', 'identification', 'standardization', 'calculations', 'visualization', 'export', 'fundRequest'] as const;
export type Stage = (typeof STAGES)[number];

/** What a job can be: a pipeline stage, a run of the regression test suites (spec "Test run"), or chasing's jobs (a chase run, a review of one fund's chases after its pipeline ran, the mail outbox). */
export const JOB_KINDS = [...STAGES, 'testRun', 'chaseRun', 'chaseReview', 'chaseOutbox'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** Job statuses (spec section 4). */
export const JOB_STATUSES = ['suspended', 'pending', 'running', 'done', 'success', 'error', 'ignored'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const processes = sqliteTable(
  'processes',
  {
    id: id(),
    fundRequestId: integer('fund_request_id').references(() => fundRequests.id, { onDelete: 'cascade' }),
    stage: text('stage').$type<JobKind>().notNull(),
    status: text('status').$type<JobStatus>().notNull().default('pending'),
    forceRun: bool('force_run').notNull().default(false),
    attempts: integer('attempts').notNull().default(0),
    /** Who holds (or last held) the job: `<node id>/t<thread id>`. */
    workerId: text('worker_id'),
    /** When the running job's lease ends (epoch ms); a running job whose lease has ended may be taken over. */
    leaseExpiresAt: integer('lease_expires_at'),
    inputHash: text('input_hash'),
    payload: json<Record<string, unknown>>('payload'),
    processAt: createdAt(),
    startedAt: text('started_at'),
    finishedAt: text('finished_at'),
    createdById: integer('created_by_id').references(() => users.id),
  },
  (t) => [index('processes_status_idx').on(t.status, t.processAt), index('processes_fund_idx').on(t.fundRequestId, t.stage)],
);

/** Orchestration logs per fund: what each stage did (spec "Log entry"). */
export const orchestrationLogs = sqliteTable(
  'orchestration_logs',
  {
    id: id(),
    fundRequestId: integer('fund_request_id').references(() => fundRequests.id, { onDelete: 'cascade' }),
    stage: text('stage').notNull(),
    status: text('status').notNull(),
    type: text('type'),
    subType: text('sub_type'),
    payload: json<Record<string, unknown>>('payload'),
    createdAt: createdAt(),
  },
  (t) => [index('orchestration_logs_fund_idx').on(t.fundRequestId, t.createdAt)],
);

/** A master or custom mapping of one type for one administrator; rows kept as JSON. */
export const mappings = sqliteTable(
  'mappings',
  {
    id: id(),
    administratorId: integer('administrator_id')
      .notNull()
      .references(() => administrators.id),
    type: text('type').notNull(),
    kind: text('kind').$type<'master' | 'custom'>().notNull(),
    description: text('description').notNull(),
    clientName: text('client_name'),
    rationale: text('rationale'),
    userId: integer('user_id').references(() => users.id),
    rows: json<Record<string, string>[]>('rows').notNull(),
    sha256: text('sha256').notNull(),
    /** The current version (`mapping_versions.version`) of the content in `rows`. */
    version: integer('version').notNull().default(1),
    active: bool('active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('mappings_admin_type_idx').on(t.administratorId, t.type)],
);

/**
 * An immutable version of a mapping (a master or custom mapping's content at one time): every
 * upload, self-onboarding or update that changes the content adds the next version; earlier
 * versions stay readable and downloadable.
 */
export const mappingVersions = sqliteTable(
  'mapping_versions',
  {
    id: id(),
    mappingId: integer('mapping_id')
      .notNull()
      .references(() => mappings.id),
    /** 1, 2, 3 ... per mapping. */
    version: integer('version').notNull(),
    sha256: text('sha256').notNull(),
    rows: json<Record<string, string>[]>('rows').notNull(),
    userId: integer('user_id').references(() => users.id),
    reason: text('reason').notNull(),
    fileName: text('file_name'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('mapping_versions_unique').on(t.mappingId, t.version)],
);

/** Which mapping versions fed a fund's standardizations (first and last time each did). */
export const mappingVersionUses = sqliteTable(
  'mapping_version_uses',
  {
    id: id(),
    mappingVersionId: integer('mapping_version_id')
      .notNull()
      .references(() => mappingVersions.id),
    fundRequestId: integer('fund_request_id')
      .notNull()
      .references(() => fundRequests.id, { onDelete: 'cascade' }),
    firstUsedAt: createdAt(),
    lastUsedAt: updatedAt(),
  },
  (t) => [uniqueIndex('mapping_version_uses_unique').on(t.mappingVersionId, t.fundRequestId), index('mapping_version_uses_fund_idx').on(t.fundRequestId)],
);

export const fundMappings = sqliteTable(
  'fund_mappings',
  {
    id: id(),
    fundRequestId: integer('fund_request_id')
      .notNull()
      .references(() => fundRequests.id, { onDelete: 'cascade' }),
    mappingId: integer('mapping_id')
      .notNull()
      .references(() => mappings.id),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('fund_mappings_unique').on(t.fundRequestId, t.mappingId)],
);

/** An export (download) job and its zip. */
export const exportFiles = sqliteTable('export_files', {
  id: id(),
  userId: integer('user_id').references(() => users.id),
  status: text('status').$type<JobStatus>().notNull().default('pending'),
  payload: json<Record<string, unknown>>('payload'),
  blobKey: text('blob_key'),
  createdAt: createdAt(),
  finishedAt: text('finished_at'),
});

/** A self-onboarding upload (spec "SDM upload") and its files. */
export const sdmUploads = sqliteTable('sdm_uploads', {
  id: id(),
  administratorId: integer('administrator_id').references(() => administrators.id),
  status: text('status').notNull().default('Created'),
  forceRun: bool('force_run').notNull().default(false),
  userId: integer('user_id').references(() => users.id),
  validationResults: json<Record<string, unknown>>('validation_results'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const sdmUploadFiles = sqliteTable('sdm_upload_files', {
  id: id(),
  sdmUploadId: integer('sdm_upload_id')
    .notNull()
    .references(() => sdmUploads.id, { onDelete: 'cascade' }),
  importFileId: integer('import_file_id'),
  fileName: text('file_name').notNull(),
  status: text('status').notNull().default('Uploading'),
  type: text('type').$type<'FundRequest' | 'SDM'>().notNull(),
  subType: text('sub_type'),
  errors: json<string[]>('errors').notNull(),
  receivedAt: createdAt(),
});

/** A scheduled regression test run (spec "Test run"). */
export const testRuns = sqliteTable('test_runs', {
  id: id(),
  userId: integer('user_id').references(() => users.id),
  administratorCodes: json<string[]>('administrator_codes').notNull(),
  testIds: json<string[]>('test_ids').notNull(),
  status: text('status').$type<JobStatus>().notNull().default('pending'),
  hasErrors: bool('has_errors').notNull().default(false),
  results: json<Record<string, unknown>>('results'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
