/** Typed calls of the delivery Bulk upload screen (delivery spec section 7: `POST funds/upload`, `POST funds`, `GET fund-request/download`). */
import type { BulkResultRow, BulkUploadResult, FailedFund, SavedFund } from '../../../server/services/bulk-upload/bulk-upload.js';
import { api } from './client';

export type { BulkResultRow, BulkUploadResult, FailedFund, SavedFund };

/** Validates one CSV without saving; rows come back accepted, editable or declined. Failures are handled by the caller. */
export function validateBulkCsv(file: File): Promise<BulkUploadResult> {
  const form = new FormData();
  form.append('upload', file, file.name);
  return api.upload<BulkUploadResult>('/funds/upload', form, { suppressError: true, suppressSuccess: true });
}

/** Saves up to 100 rows (the server refuses more); answers the saved and the failed ones with their errors. */
export function saveBulkRows(requestDate: string, funds: BulkResultRow[]): Promise<{ saved: SavedFund[]; failed: FailedFund[] }> {
  return api.post<{ saved: SavedFund[]; failed: FailedFund[] }>('/funds', { requestDate, funds }, { suppressError: true, suppressSuccess: true });
}
