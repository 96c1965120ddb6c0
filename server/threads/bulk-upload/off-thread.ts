/**
 * Bulk upload for requests: the same services as bulk-upload.ts, with the CSV parsing and the
 * validation of every row done in the parse pool (server/threads/pools.ts) and only the saving
 * transactions on the calling thread (a large file's rows a few hundred to a transaction, with
 * other requests answered between them).
 */
import type { AppContext } from '../../context.js';
import type { EncodedPayload } from '../../lib/encoded.js';
import { movable, runTask } from '../pools.js';
import type { User } from '../../services/auth/tokens.js';
import {
  AUDITOR_UPLOAD,
  commitBulkSave,
  commitBulkSaveInTurns,
  type BulkSaveInput,
  type BulkSaveOptions,
  type FailedFund,
  type SavedFund,
} from '../../services/bulk-upload/bulk-upload.js';

/**
 * `validateBulkUpload` in the parse pool (delivery `POST funds/upload`), answered as the response's bytes (plain and gzip) made
 * there too, so the calling thread neither serialises nor compresses the rows.
 */
export function validateBulkUploadEncoded(ctx: AppContext, fileName: string, bytes: Uint8Array): Promise<EncodedPayload> {
  const file = movable(bytes);
  return runTask(ctx, 'parse', 'bulk-upload.validate', [fileName, file.bytes], file.transfer);
}

/** `saveBulkFunds` with its validation in the parse pool and its transaction here (delivery `POST /funds`). */
export async function saveBulkFundsOffThread(
  ctx: AppContext,
  user: User,
  input: BulkSaveInput,
  opts: BulkSaveOptions,
): Promise<{ saved: SavedFund[]; failed: FailedFund[] }> {
  const prepared = await runTask(ctx, 'parse', 'bulk-upload.prepare-save', [input, opts]);
  return commitBulkSave(ctx, user, input, prepared, opts);
}

/** `uploadAndSaveBulk` with the CSV read and validated in the parse pool (auditor `POST /fund-request/bulk`). */
export async function uploadAndSaveBulkOffThread(
  ctx: AppContext,
  user: User,
  fileName: string,
  bytes: Uint8Array,
): Promise<{ saved: SavedFund[]; failed: FailedFund[]; totalRows: number }> {
  const file = movable(bytes);
  const { input, prepared, totalRows } = await runTask(ctx, 'parse', 'bulk-upload.prepare-upload', [fileName, file.bytes], file.transfer);
  return { ...(await commitBulkSaveInTurns(ctx, user, input, prepared, AUDITOR_UPLOAD)), totalRows };
}
