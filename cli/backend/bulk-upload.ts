/**
 * The backend of `fund-audit bulk-upload`: validate a bulk-upload csv and save its rows through the
 * API (in process on the local install, or on a server: cli/operation.ts), in one session until `close`.
 */
import type { BulkResultRow, BulkUploadResult, FailedFund, SavedFund } from '../../server/services/bulk-upload/bulk-upload.js';
import type { GlobalOptions } from '../global.js';
import { openApi } from '../operation.js';

export interface BulkUploadBackend {
  validate(fileName: string, bytes: Uint8Array): Promise<BulkUploadResult>;
  /** Saves at most MAX_BULK_SAVE rows (overwriting requests for rows marked editable). */
  save(requestDate: string | undefined, funds: BulkResultRow[]): Promise<{ saved: SavedFund[]; failed: FailedFund[] }>;
  close(): Promise<void>;
}

/** The backend of the global options: the API, on the server with `--server`, else in process (open until `close`). */
export async function bulkUploadBackend(g: GlobalOptions): Promise<BulkUploadBackend> {
  const api = await openApi(g);
  return {
    validate: async (fileName, bytes) => {
      const form = new FormData();
      form.append('upload', new Blob([new Uint8Array(bytes)]), fileName);
      return (await api.call('POST /api/v2.0/funds/upload', { body: form })) as BulkUploadResult;
    },
    save: async (requestDate, funds) =>
      (await api.call('POST /api/v2.0/funds', { body: { requestDate, funds: funds as Array<Record<string, unknown>> } })) as {
        saved: SavedFund[];
        failed: FailedFund[];
      },
    close: () => api.close(),
  };
}
