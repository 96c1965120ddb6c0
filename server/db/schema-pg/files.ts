/**
 * Generated from `server/db/schema/files.ts` by `npm run db:generate` (server/db/pg-schema/generate.ts):
 * the same tables in drizzle's pg-core. Change the SQLite description (and
 * server/db/pg-schema/differences.ts), not this file.
 */
import { bigint, boolean, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import type * as s from '../schema/files.js';
import { type Data, isoNow } from './common.js';
import { fundRequests } from './funds.js';
import { administrators } from './reference.js';
import { tokens, users } from './users.js';

export const importFiles = pgTable(
  'import_files',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    administratorId: integer('administrator_id').references(() => administrators.id),
    fileName: text('file_name').$type<Data<typeof s.importFiles.fileName>>().notNull(),
    sha256: text('sha256').$type<Data<typeof s.importFiles.sha256>>().notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    type: text('type').$type<Data<typeof s.importFiles.type>>(),
    subType: text('sub_type').$type<Data<typeof s.importFiles.subType>>(),
    source: text('source').$type<Data<typeof s.importFiles.source>>().notNull().default('upload'),
    status: text('status').$type<Data<typeof s.importFiles.status>>().notNull().default('Awaiting'),
    payload: jsonb('payload').$type<Data<typeof s.importFiles.payload>>(),
    userId: integer('user_id').references(() => users.id),
    createdAt: text('created_at').$type<Data<typeof s.importFiles.createdAt>>().notNull().default(isoNow),
    updatedAt: text('updated_at').$type<Data<typeof s.importFiles.updatedAt>>().notNull().default(isoNow),
  },
  (t) => [index('import_files_sha_idx').on(t.sha256), index('import_files_admin_idx').on(t.administratorId)],
);

export const fundFiles = pgTable(
  'fund_files',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    fundRequestId: integer('fund_request_id')
      .notNull()
      .references(() => fundRequests.id, { onDelete: 'cascade' }),
    importFileId: integer('import_file_id').references(() => importFiles.id),
    sourceFileId: integer('source_file_id'),
    kind: text('kind').$type<Data<typeof s.fundFiles.kind>>().notNull(),
    fileType: text('file_type').$type<Data<typeof s.fundFiles.fileType>>().notNull(),
    fileName: text('file_name').$type<Data<typeof s.fundFiles.fileName>>().notNull(),
    blobKey: text('blob_key').$type<Data<typeof s.fundFiles.blobKey>>(),
    status: text('status').$type<Data<typeof s.fundFiles.status>>().notNull().default('pending'),
    reviewed: boolean('reviewed').notNull().default(false),
    disabled: boolean('disabled').notNull().default(false),
    released: boolean('released').notNull().default(false),
    rowCount: integer('row_count'),
    validationStatus: text('validation_status').$type<Data<typeof s.fundFiles.validationStatus>>(),
    validation: jsonb('validation').$type<Data<typeof s.fundFiles.validation>>(),
    createdAt: text('created_at').$type<Data<typeof s.fundFiles.createdAt>>().notNull().default(isoNow),
    updatedAt: text('updated_at').$type<Data<typeof s.fundFiles.updatedAt>>().notNull().default(isoNow),
  },
  (t) => [index('fund_files_fund_idx').on(t.fundRequestId, t.kind)],
);

export const unidentifiedFiles = pgTable('unidentified_files', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  importFileId: integer('import_file_id').references(() => importFiles.id, { onDelete: 'cascade' }),
  fileName: text('file_name').$type<Data<typeof s.unidentifiedFiles.fileName>>().notNull(),
  administratorId: integer('administrator_id').references(() => administrators.id),
  assignedToId: integer('assigned_to_id').references(() => users.id),
  action: text('action').$type<Data<typeof s.unidentifiedFiles.action>>(),
  userId: integer('user_id').references(() => users.id),
  errors: jsonb('errors').$type<Data<typeof s.unidentifiedFiles.errors>>().notNull(),
  createdAt: text('created_at').$type<Data<typeof s.unidentifiedFiles.createdAt>>().notNull().default(isoNow),
});

export const unmatchedFiles = pgTable('unmatched_files', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  importFileId: integer('import_file_id').references(() => importFiles.id, { onDelete: 'cascade' }),
  fileName: text('file_name').$type<Data<typeof s.unmatchedFiles.fileName>>().notNull(),
  fileType: text('file_type').$type<Data<typeof s.unmatchedFiles.fileType>>().notNull(),
  fundCode: text('fund_code').$type<Data<typeof s.unmatchedFiles.fundCode>>(),
  fundId: integer('fund_id').references(() => fundRequests.id),
  administratorId: integer('administrator_id').references(() => administrators.id),
  assignedToId: integer('assigned_to_id').references(() => users.id),
  action: text('action').$type<Data<typeof s.unmatchedFiles.action>>(),
  userId: integer('user_id').references(() => users.id),
  payload: jsonb('payload').$type<Data<typeof s.unmatchedFiles.payload>>(),
  createdAt: text('created_at').$type<Data<typeof s.unmatchedFiles.createdAt>>().notNull().default(isoNow),
});

export const sweptFiles = pgTable('swept_files', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  originalFileName: text('original_file_name').$type<Data<typeof s.sweptFiles.originalFileName>>().notNull(),
  administratorId: integer('administrator_id').references(() => administrators.id),
  importFileId: integer('import_file_id').references(() => importFiles.id),
  fileUploaderRealName: text('file_uploader_real_name').$type<Data<typeof s.sweptFiles.fileUploaderRealName>>(),
  fileUploaderEmail: text('file_uploader_email').$type<Data<typeof s.sweptFiles.fileUploaderEmail>>(),
  filePathOnMoveit: text('file_path_on_moveit').$type<Data<typeof s.sweptFiles.filePathOnMoveit>>().notNull(),
  fileUploadDate: text('file_upload_date').$type<Data<typeof s.sweptFiles.fileUploadDate>>(),
  fileDownloadDate: text('created_at').$type<Data<typeof s.sweptFiles.fileDownloadDate>>().notNull().default(isoNow),
});

export const pbiInputFiles = pgTable(
  'pbi_input_files',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    pbiInputType: text('pbi_input_type').$type<Data<typeof s.pbiInputFiles.pbiInputType>>().notNull(),
    fileName: text('file_name').$type<Data<typeof s.pbiInputFiles.fileName>>().notNull(),
    blobKey: text('blob_key').$type<Data<typeof s.pbiInputFiles.blobKey>>().notNull(),
    size: bigint('size', { mode: 'number' }),
    rowCount: integer('row_count'),
    uploadedById: integer('uploaded_by_id').references(() => users.id),
    tokenId: integer('token_id').references(() => tokens.id, { onDelete: 'set null' }),
    tokenHint: text('token_hint').$type<Data<typeof s.pbiInputFiles.tokenHint>>(),
    tokenExpiryDate: text('token_expiry_date').$type<Data<typeof s.pbiInputFiles.tokenExpiryDate>>(),
    uploadDate: text('created_at').$type<Data<typeof s.pbiInputFiles.uploadDate>>().notNull().default(isoNow),
  },
  (t) => [index('pbi_input_files_created_idx').on(t.uploadDate)],
);

export const sdmChunks = pgTable(
  'sdm_chunks',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    fundFileId: integer('fund_file_id')
      .notNull()
      .references(() => fundFiles.id, { onDelete: 'cascade' }),
    sdmType: text('sdm_type').$type<Data<typeof s.sdmChunks.sdmType>>().notNull(),
    firstLine: integer('first_line').notNull(),
    lastLine: integer('last_line').notNull(),
    rowCount: integer('row_count').notNull(),
    data: text('data').$type<Data<typeof s.sdmChunks.data>>().notNull(),
  },
  (t) => [index('sdm_chunks_file_idx').on(t.fundFileId, t.firstLine)],
);
