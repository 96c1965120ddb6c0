/**
 * Files through the pipeline: imported raw files, identified files per fund and their outputs
 * (standardization, calculation, work papers), files that could not be identified or matched,
 * files swept from the inbox folder, and PowerBI input files.
 */
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { bool, createdAt, id, json, updatedAt } from './common.js';
import { fundRequests } from './funds.js';
import { administrators } from './reference.js';
import { tokens, users } from './users.js';

/** Import file statuses (spec section 4). */
export const IMPORT_STATUSES = ['Awaiting', 'Finished', 'Pending', 'Processing', 'Success', 'Error'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** A raw file as received; bytes kept unchanged in the blob store under `sha256`. */
export const importFiles = sqliteTable(
  'import_files',
  {
    id: id(),
    administratorId: integer('administrator_id').references(() => administrators.id),
    fileName: text('file_name').notNull(),
    sha256: text('sha256').notNull(),
    size: integer('size').notNull(),
    type: text('type'),
    subType: text('sub_type'),
    source: text('source').notNull().default('upload'),
    status: text('status').$type<ImportStatus>().notNull().default('Awaiting'),
    payload: json<Record<string, unknown>>('payload'),
    userId: integer('user_id').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('import_files_sha_idx').on(t.sha256), index('import_files_admin_idx').on(t.administratorId)],
);

/**
 * Kinds of a fund's files (spec: input, standardization, calculation files and work papers),
 * `staging`: a standardization file still being written, which nothing reads until it replaces
 * the previous one (server/jobs/stages/standardization.ts), and `work_paper_previous`: the work
 * paper a rerun replaced, kept (one per fund) so that it can still be downloaded and compared;
 * it counts in no status.
 */
export const FUND_FILE_KINDS = ['input', 'standardization', 'calculation', 'work_paper', 'staging', 'work_paper_previous'] as const;
export type FundFileKind = (typeof FUND_FILE_KINDS)[number];

/** A file attached to a fund request: an identified input file or an output of a later stage. */
export const fundFiles = sqliteTable(
  'fund_files',
  {
    id: id(),
    fundRequestId: integer('fund_request_id')
      .notNull()
      .references(() => fundRequests.id, { onDelete: 'cascade' }),
    importFileId: integer('import_file_id').references(() => importFiles.id),
    sourceFileId: integer('source_file_id'),
    kind: text('kind').$type<FundFileKind>().notNull(),
    fileType: text('file_type').notNull(),
    fileName: text('file_name').notNull(),
    blobKey: text('blob_key'),
    status: text('status').notNull().default('pending'),
    reviewed: bool('reviewed').notNull().default(false),
    disabled: bool('disabled').notNull().default(false),
    released: bool('released').notNull().default(false),
    rowCount: integer('row_count'),
    validationStatus: text('validation_status'),
    validation: json<Record<string, unknown>>('validation'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('fund_files_fund_idx').on(t.fundRequestId, t.kind)],
);

/** A file (or sheet set) whose type could not be identified. */
export const unidentifiedFiles = sqliteTable('unidentified_files', {
  id: id(),
  importFileId: integer('import_file_id').references(() => importFiles.id, { onDelete: 'cascade' }),
  fileName: text('file_name').notNull(),
  administratorId: integer('administrator_id').references(() => administrators.id),
  assignedToId: integer('assigned_to_id').references(() => users.id),
  action: text('action'),
  userId: integer('user_id').references(() => users.id),
  errors: json<unknown[]>('errors').notNull(),
  createdAt: createdAt(),
});

/** An identified file whose rows match no fund request. */
export const unmatchedFiles = sqliteTable('unmatched_files', {
  id: id(),
  importFileId: integer('import_file_id').references(() => importFiles.id, { onDelete: 'cascade' }),
  fileName: text('file_name').notNull(),
  fileType: text('file_type').notNull(),
  fundCode: text('fund_code'),
  fundId: integer('fund_id').references(() => fundRequests.id),
  administratorId: integer('administrator_id').references(() => administrators.id),
  assignedToId: integer('assigned_to_id').references(() => users.id),
  action: text('action'),
  userId: integer('user_id').references(() => users.id),
  payload: json<Record<string, unknown>>('payload'),
  createdAt: createdAt(),
});

/** Files swept from the inbox folder (the spec's MOVEit files). */
export const sweptFiles = sqliteTable('swept_files', {
  id: id(),
  originalFileName: text('original_file_name').notNull(),
  administratorId: integer('administrator_id').references(() => administrators.id),
  importFileId: integer('import_file_id').references(() => importFiles.id),
  fileUploaderRealName: text('file_uploader_real_name'),
  fileUploaderEmail: text('file_uploader_email'),
  filePathOnMoveit: text('file_path_on_moveit').notNull(),
  fileUploadDate: text('file_upload_date'),
  fileDownloadDate: createdAt(),
});

/**
 * PowerBI input files (delivery spec "PowerBI inputs"): a csv of one input type kept in the blob
 * store, with the short-lived download token (the spec's SAS token) PowerBI reads it with; the
 * raw token is shown once, the row keeps its id and last characters.
 */
export const pbiInputFiles = sqliteTable(
  'pbi_input_files',
  {
    id: id(),
    pbiInputType: text('pbi_input_type').notNull(),
    fileName: text('file_name').notNull(),
    blobKey: text('blob_key').notNull(),
    size: integer('size'),
    rowCount: integer('row_count'),
    uploadedById: integer('uploaded_by_id').references(() => users.id),
    tokenId: integer('token_id').references(() => tokens.id, { onDelete: 'set null' }),
    tokenHint: text('token_hint'),
    tokenExpiryDate: text('token_expiry_date'),
    uploadDate: createdAt(),
  },
  (t) => [index('pbi_input_files_created_idx').on(t.uploadDate)],
);

/**
 * Standardized rows of a standardization file in chunks of consecutive rows (pipeline/sdm/row-chunks.ts:
 * one JSON document of up to 1,000 rows each, with its line range and row count), so later stages
 * and exports stream them a chunk at a time instead of holding whole files in memory.
 */
export const sdmChunks = sqliteTable(
  'sdm_chunks',
  {
    id: id(),
    fundFileId: integer('fund_file_id')
      .notNull()
      .references(() => fundFiles.id, { onDelete: 'cascade' }),
    sdmType: text('sdm_type').notNull(),
    firstLine: integer('first_line').notNull(),
    lastLine: integer('last_line').notNull(),
    rowCount: integer('row_count').notNull(),
    /** One JSON document, kept as text in both databases (written and read whole). */
    data: text('data').notNull(),
  },
  (t) => [index('sdm_chunks_file_idx').on(t.fundFileId, t.firstLine)],
);
