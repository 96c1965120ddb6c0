/**
 * Response payload schemas of the Input files issue lists (delivery spec section 3 "Unidentified
 * file" and "Unmatched file"), mirroring `UnidentifiedRow`, `UnmatchedRow` and the answers of
 * server/services/files/file-lists.ts.
 */
import { z } from 'zod';
import { ISSUE_ACTIONS } from '../../services/files/file-lists.js';
import { paginationSchema } from './funds.js';

const int = z.number().int();

/** One sheet's identification error. */
export const sheetErrorSchema = z.strictObject({
  sheet_name: z.string().nullable(),
  error_code: z.string().nullable(),
  error_message: z.string(),
  columns_missing: z.array(z.string()),
  closest_match: z.string().nullable(),
  column_match_percent: z.number().nullable(),
});

const issueRow = {
  id: int,
  file_name: z.string(),
  tpa_id: int.nullable(),
  tpa: z.string().nullable(),
  assignedToId: int.nullable(),
  assignedTo: z.string().nullable(),
  action: z.string(),
  import_file_id: int.nullable(),
  source_file_paths: z.array(z.string()),
  user_auth_id: int.nullable(),
  timestamp: z.string(),
};

/** An unidentified file. */
export const unidentifiedRowSchema = z.strictObject({ ...issueRow, errors: z.array(sheetErrorSchema) });

/** An identified file without a matching fund request. */
export const unmatchedRowSchema = z.strictObject({
  ...issueRow,
  file_type: z.string(),
  fund_code: z.string().nullable(),
  fund_id: int.nullable(),
  payload: z.record(z.string(), z.unknown()),
});

/** A page of an Input files list (issues, swept files, logs). */
export const issuePageOf = <R extends z.ZodType>(row: R) => z.strictObject({ rows: z.array(row), pagination: paginationSchema });

/** The answers of assign, action and remove. */
export const issueAssignedSchema = z.strictObject({ ids: z.array(int), userId: int.nullable() });
export const issueActionSetSchema = z.strictObject({ ids: z.array(int), action: z.enum(ISSUE_ACTIONS) });
export const issueRemovedSchema = z.strictObject({ removed: z.array(int) });

/** A file swept from the MOVEit inbox (`listSweptFiles`). */
export const sweptRowSchema = z.strictObject({
  id: int,
  original_file_name: z.string(),
  tpa_id: int.nullable(),
  tpa: z.string().nullable(),
  import_file_id: int.nullable(),
  file_uploader_real_name: z.string().nullable(),
  file_uploader_email: z.string().nullable(),
  file_path_on_moveit: z.string(),
  file_upload_date: z.string().nullable(),
  file_download_date: z.string().nullable(),
});

/** A fund's orchestration log entry (`LogRow` of server/services/files/logs.ts). */
export const logRowSchema = z.strictObject({
  id: int,
  created_at: z.string(),
  stage: z.string(),
  status: z.string(),
  type: z.string().nullable(),
  sub_type: z.string().nullable(),
  payload: z.record(z.string(), z.unknown()),
});

/** An Errors tab entry: the log entry with its message and warnings (`ErrorLogRow`). */
export const errorLogRowSchema = logRowSchema.extend({ message: z.string(), warnings: z.array(z.string()) });
