/**
 * The backend of `fund-audit bulk-upload`: validate a bulk-upload csv and save its rows, on the local
 * data directory (services in process, as the first Admin) or on a server (the API).
 */
import {
  MAX_BULK_SAVE,
  saveBulkFunds,
  validateBulkUpload,
  type BulkResultRow,
  type BulkUploadResult,
  type FailedFund,
  type SavedFund,
} from '../../server/services/bulk-upload/bulk-upload.js';
import { ensureAdmin } from '../../server/services/users/users.js';
import { openLocal, type GlobalOptions } from '../global.js';
import { isRemote, remoteOperation } from '../remote.js';
import { asSent } from './local.js';

export interface BulkUploadBackend {
  validate(fileName: string, bytes: Uint8Array): Promise<BulkUploadResult>;
  /** Saves at most MAX_BULK_SAVE rows (overwriting requests for rows marked editable). */
  save(requestDate: string | undefined, funds: BulkResultRow[]): Promise<{ saved: SavedFund[]; failed: FailedFund[] }>;
  close(): void;
}

async function localBackend(g: GlobalOptions): Promise<BulkUploadBackend> {
  const ctx = await openLocal(g);
  const { user } = await ensureAdmin(ctx, ctx.config.adminEmail);
  return {
    validate: async (fileName, bytes) => asSent(await validateBulkUpload(ctx, fileName, bytes)),
    save: async (requestDate, funds) => asSent(await saveBulkFunds(ctx, user, { requestDate, funds }, { overwrite: true, maxRows: MAX_BULK_SAVE })),
    close: () => ctx.close(),
  };
}

function remoteBackend(g: GlobalOptions): BulkUploadBackend {
  return {
    validate: async (fileName, bytes) => {
      const form = new FormData();
      form.append('upload', new Blob([new Uint8Array(bytes)]), fileName);
      return remoteOperation(g, 'POST /api/v2.0/funds/upload', { body: form });
    },
    save: (requestDate, funds) => remoteOperation(g, 'POST /api/v2.0/funds', { body: { requestDate, funds } }),
    close: () => {},
  };
}

/** The backend of the global options: the server's API with `--server`, else the local data directory (opened until `close`). */
export async function bulkUploadBackend(g: GlobalOptions): Promise<BulkUploadBackend> {
  return isRemote(g) ? remoteBackend(g) : localBackend(g);
}
