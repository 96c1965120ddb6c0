/** Typed calls of the delivery Bulk upload screen (delivery spec section 7: `POST funds/upload`, `POST funds`, `GET fund-request/download`). */
import type { ApiResponse } from '../../../server/http/contract';
import { call } from './client';

/** The rows of a validated CSV, classified accepted, editable and declined. */
export type BulkUploadResult = ApiResponse<'POST /api/v2.0/funds/upload'>;
/** A row of a validated CSV. */
export type BulkResultRow = BulkUploadResult['accepted'][number];
/** The answer of a save: the rows saved and the rows refused with their errors. */
export type BulkSaveResult = ApiResponse<'POST /api/v2.0/funds'>;

/** Validates one CSV without saving; rows come back accepted, editable or declined. Failures are handled by the caller. */
export function validateBulkCsv(file: File): Promise<BulkUploadResult> {
  const form = new FormData();
  form.append('upload', file, file.name);
  return call('POST /api/v2.0/funds/upload', { body: form }, { suppressError: true, suppressSuccess: true });
}

/** Saves up to 100 rows (the server refuses more); answers the saved and the failed ones with their errors. */
export function saveBulkRows(requestDate: string, funds: BulkResultRow[]): Promise<BulkSaveResult> {
  return call('POST /api/v2.0/funds', { body: { requestDate, funds } }, { suppressError: true, suppressSuccess: true });
}
