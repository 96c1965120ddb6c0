/**
 * The backend of `fund-audit export`: request an export, follow it and save its zip through the API
 * (cli/operation.ts). In process the queued export is run here at once; on a server its job
 * threads run it while the export is polled, then the zip is downloaded.
 */
import { createWriteStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { exportStageHandler } from '../../server/jobs/exports/job.js';
import type { requestExport } from '../../server/services/exports/exports.js';
import type { ApiResponse } from '../../server/http/contract.js';
import type { GlobalOptions } from '../global.js';
import { openApi } from '../operation.js';

/** An export as the API answers it. */
export type ExportRow = ApiResponse<'POST /api/v2.0/export/files'>;

export interface ExportBackend {
  request(input: Parameters<typeof requestExport>[2]): Promise<ExportRow>;
  /** Runs the queued export (in process) or does nothing (the server runs it). */
  run(): Promise<void>;
  status(id: number): Promise<ExportRow | undefined>;
  /** Writes the zip to a file; returns its size in bytes. */
  save(id: number, file: string): Promise<number>;
  /** Milliseconds between status checks. */
  pollMs: number;
  close(): Promise<void>;
}

const byId = (id: number) => ({ filters: [{ field: 'id', type: 'enum', value: [String(id)] }] });

/** The backend of the global options: the API, on the server with `--server`, else in process (open until `close`). */
export async function exportBackend(g: GlobalOptions): Promise<ExportBackend> {
  const api = await openApi(g);
  return {
    request: (input) => api.call('POST /api/v2.0/export/files', { body: input }),
    run: () => api.runQueuedJobs({ export: exportStageHandler }),
    status: async (id) => (await api.call('POST /api/v2.0/export/files/list', { body: byId(id) })).rows[0],
    save: async (id, file) => {
      const { res } = await api.file('GET /api/v2.0/export/file/:id', { params: { id } });
      await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), createWriteStream(file));
      return statSync(file).size;
    },
    pollMs: api.inProcess ? 0 : 1000,
    close: () => api.close(),
  };
}
