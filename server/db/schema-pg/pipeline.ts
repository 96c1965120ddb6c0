/**
 * Generated from `server/db/schema/pipeline.ts` by `npm run db:generate` (server/db/pg-schema/generate.ts):
 * the same tables in drizzle's pg-core. Change the SQLite description (and
 * server/db/pg-schema/differences.ts), not this file.
 */
import { bigint, boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type * as s from '../schema/pipeline.js';
import { type Data, isoNow } from './common.js';
import { fundRequests } from './funds.js';
import { administrators } from './reference.js';
import { users } from './users.js';

export const processes = pgTable(
  'processes',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    fundRequestId: integer('fund_request_id').references(() => fundRequests.id, { onDelete: 'cascade' }),
    stage: text('stage').$type<Data<typeof s.processes.stage>>().notNull(),
    status: text('status').$type<Data<typeof s.processes.status>>().notNull().default('pending'),
    forceRun: boolean('force_run').notNull().default(false),
    attempts: integer('attempts').notNull().default(0),
    workerId: text('worker_id').$type<Data<typeof s.processes.workerId>>(),
    leaseExpiresAt: bigint('lease_expires_at', { mode: 'number' }),
    inputHash: text('input_hash').$type<Data<typeof s.processes.inputHash>>(),
    payload: jsonb('payload').$type<Data<typeof s.processes.payload>>(),
    processAt: text('created_at').$type<Data<typeof s.processes.processAt>>().notNull().default(isoNow),
    startedAt: text('started_at').$type<Data<typeof s.processes.startedAt>>(),
    finishedAt: text('finished_at').$type<Data<typeof s.processes.finishedAt>>(),
    createdById: integer('created_by_id').references(() => users.id),
  },
  (t) => [index('processes_status_idx').on(t.status, t.processAt), index('processes_fund_idx').on(t.fundRequestId, t.stage)],
);

export const orchestrationLogs = pgTable(
  'orchestration_logs',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    fundRequestId: integer('fund_request_id').references(() => fundRequests.id, { onDelete: 'cascade' }),
    stage: text('stage').$type<Data<typeof s.orchestrationLogs.stage>>().notNull(),
    status: text('status').$type<Data<typeof s.orchestrationLogs.status>>().notNull(),
    type: text('type').$type<Data<typeof s.orchestrationLogs.type>>(),
    subType: text('sub_type').$type<Data<typeof s.orchestrationLogs.subType>>(),
    payload: jsonb('payload').$type<Data<typeof s.orchestrationLogs.payload>>(),
    createdAt: text('created_at').$type<Data<typeof s.orchestrationLogs.createdAt>>().notNull().default(isoNow),
  },
  (t) => [index('orchestration_logs_fund_idx').on(t.fundRequestId, t.createdAt)],
);

export const mappings = pgTable(
  'mappings',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    administratorId: integer('administrator_id')
      .notNull()
      .references(() => administrators.id),
    type: text('type').$type<Data<typeof s.mappings.type>>().notNull(),
    kind: text('kind').$type<Data<typeof s.mappings.kind>>().notNull(),
    description: text('description').$type<Data<typeof s.mappings.description>>().notNull(),
    clientName: text('client_name').$type<Data<typeof s.mappings.clientName>>(),
    rationale: text('rationale').$type<Data<typeof s.mappings.rationale>>(),
    userId: integer('user_id').references(() => users.id),
    rows: jsonb('rows').$type<Data<typeof s.mappings.rows>>().notNull(),
    sha256: text('sha256').$type<Data<typeof s.mappings.sha256>>().notNull(),
    version: integer('version').notNull().default(1),
    active: boolean('active').notNull().default(true),
    createdAt: text('created_at').$type<Data<typeof s.mappings.createdAt>>().notNull().default(isoNow),
    updatedAt: text('updated_at').$type<Data<typeof s.mappings.updatedAt>>().notNull().default(isoNow),
  },
  (t) => [index('mappings_admin_type_idx').on(t.administratorId, t.type)],
);

export const mappingVersions = pgTable(
  'mapping_versions',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    mappingId: integer('mapping_id')
      .notNull()
      .references(() => mappings.id),
    version: integer('version').notNull(),
    sha256: text('sha256').$type<Data<typeof s.mappingVersions.sha256>>().notNull(),
    rows: jsonb('rows').$type<Data<typeof s.mappingVersions.rows>>().notNull(),
    userId: integer('user_id').references(() => users.id),
    reason: text('reason').$type<Data<typeof s.mappingVersions.reason>>().notNull(),
    fileName: text('file_name').$type<Data<typeof s.mappingVersions.fileName>>(),
    createdAt: text('created_at').$type<Data<typeof s.mappingVersions.createdAt>>().notNull().default(isoNow),
  },
  (t) => [uniqueIndex('mapping_versions_unique').on(t.mappingId, t.version)],
);

export const mappingVersionUses = pgTable(
  'mapping_version_uses',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    mappingVersionId: integer('mapping_version_id')
      .notNull()
      .references(() => mappingVersions.id),
    fundRequestId: integer('fund_request_id')
      .notNull()
      .references(() => fundRequests.id, { onDelete: 'cascade' }),
    firstUsedAt: text('created_at').$type<Data<typeof s.mappingVersionUses.firstUsedAt>>().notNull().default(isoNow),
    lastUsedAt: text('updated_at').$type<Data<typeof s.mappingVersionUses.lastUsedAt>>().notNull().default(isoNow),
  },
  (t) => [uniqueIndex('mapping_version_uses_unique').on(t.mappingVersionId, t.fundRequestId), index('mapping_version_uses_fund_idx').on(t.fundRequestId)],
);

export const fundMappings = pgTable(
  'fund_mappings',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    fundRequestId: integer('fund_request_id')
      .notNull()
      .references(() => fundRequests.id, { onDelete: 'cascade' }),
    mappingId: integer('mapping_id')
      .notNull()
      .references(() => mappings.id),
    createdAt: text('created_at').$type<Data<typeof s.fundMappings.createdAt>>().notNull().default(isoNow),
  },
  (t) => [uniqueIndex('fund_mappings_unique').on(t.fundRequestId, t.mappingId)],
);

export const exportFiles = pgTable('export_files', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  userId: integer('user_id').references(() => users.id),
  status: text('status').$type<Data<typeof s.exportFiles.status>>().notNull().default('pending'),
  payload: jsonb('payload').$type<Data<typeof s.exportFiles.payload>>(),
  blobKey: text('blob_key').$type<Data<typeof s.exportFiles.blobKey>>(),
  createdAt: text('created_at').$type<Data<typeof s.exportFiles.createdAt>>().notNull().default(isoNow),
  finishedAt: text('finished_at').$type<Data<typeof s.exportFiles.finishedAt>>(),
});

export const sdmUploads = pgTable('sdm_uploads', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  administratorId: integer('administrator_id').references(() => administrators.id),
  status: text('status').$type<Data<typeof s.sdmUploads.status>>().notNull().default('Created'),
  forceRun: boolean('force_run').notNull().default(false),
  userId: integer('user_id').references(() => users.id),
  validationResults: jsonb('validation_results').$type<Data<typeof s.sdmUploads.validationResults>>(),
  createdAt: text('created_at').$type<Data<typeof s.sdmUploads.createdAt>>().notNull().default(isoNow),
  updatedAt: text('updated_at').$type<Data<typeof s.sdmUploads.updatedAt>>().notNull().default(isoNow),
});

export const sdmUploadFiles = pgTable('sdm_upload_files', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  sdmUploadId: integer('sdm_upload_id')
    .notNull()
    .references(() => sdmUploads.id, { onDelete: 'cascade' }),
  importFileId: integer('import_file_id'),
  fileName: text('file_name').$type<Data<typeof s.sdmUploadFiles.fileName>>().notNull(),
  status: text('status').$type<Data<typeof s.sdmUploadFiles.status>>().notNull().default('Uploading'),
  type: text('type').$type<Data<typeof s.sdmUploadFiles.type>>().notNull(),
  subType: text('sub_type').$type<Data<typeof s.sdmUploadFiles.subType>>(),
  errors: jsonb('errors').$type<Data<typeof s.sdmUploadFiles.errors>>().notNull(),
  receivedAt: text('created_at').$type<Data<typeof s.sdmUploadFiles.receivedAt>>().notNull().default(isoNow),
});

export const testRuns = pgTable('test_runs', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  userId: integer('user_id').references(() => users.id),
  administratorCodes: jsonb('administrator_codes').$type<Data<typeof s.testRuns.administratorCodes>>().notNull(),
  testIds: jsonb('test_ids').$type<Data<typeof s.testRuns.testIds>>().notNull(),
  status: text('status').$type<Data<typeof s.testRuns.status>>().notNull().default('pending'),
  hasErrors: boolean('has_errors').notNull().default(false),
  results: jsonb('results').$type<Data<typeof s.testRuns.results>>(),
  createdAt: text('created_at').$type<Data<typeof s.testRuns.createdAt>>().notNull().default(isoNow),
  updatedAt: text('updated_at').$type<Data<typeof s.testRuns.updatedAt>>().notNull().default(isoNow),
});
