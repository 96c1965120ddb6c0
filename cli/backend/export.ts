/**
 * The backend of `fund-audit export`: request an export, follow it and save its zip, on the local
 * data directory (run at once in process, as the first Admin) or on a server (queued there, polled
 * and downloaded).
 */
import { createWriteStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Engine } from '../../server/jobs/engine.js';
import { exportStageHandler } from '../../server/jobs/exports/job.js';
import { exportDownload, listExports, requestExport } from '../../server/services/exports/exports.js';
import type { ApiResponse } from '../../server/http/contract.js';
import { ensureAdmin } from '../../server/services/users/users.js';
import { openLocal, type GlobalOptions } from '../global.js';
import { isRemote, remoteOperation } from '../remote.js';
import { download } from './download.js';
import { sentAs } from './local.js';

/** An export as the API answers it. */
export type ExportRow = ApiResponse<'POST /api/v2.0/export/files'>;

export interface ExportBackend {
  request(input: Parameters<typeof requestExport>[2]): Promise<ExportRow>;
  /** Runs the queued export (local) or does nothing (the server runs it). */
  run(): Promise<void>;
  status(id: number): Promise<ExportRow | undefined>;
  /** Writes the zip to a file; returns its size in bytes. */
  save(id: number, file: string): Promise<number>;
  /** Milliseconds between status checks. */
  pollMs: number;
  close(): void;
}

const byId = (id: number) => ({ filters: [{ field: 'id', type: 'enum', value: [String(id)] }] });

async function localBackend(g: GlobalOptions): Promise<ExportBackend> {
  const ctx = await openLocal(g);
  const user = (await ensureAdmin(ctx, ctx.config.adminEmail)).user;
  return {
    request: async (input) => sentAs('POST /api/v2.0/export/files', await requestExport(ctx, user, input)),
    run: async () => {
      await new Engine(ctx, { export: exportStageHandler }).drain();
    },
    status: async (id) => sentAs('POST /api/v2.0/export/files/list', await listExports(ctx, user, byId(id))).rows[0],
    save: async (id, file) => {
      const zip = await exportDownload(ctx, user, id);
      await pipeline(zip.open(), createWriteStream(file));
      return zip.size;
    },
    pollMs: 0,
    close: () => ctx.close(),
  };
}

function remoteBackend(g: GlobalOptions): ExportBackend {
  return {
    request: (input) => remoteOperation(g, 'POST /api/v2.0/export/files', { body: input }),
    run: async () => {},
    status: async (id) => (await remoteOperation(g, 'POST /api/v2.0/export/files/list', { body: byId(id) })).rows[0],
    save: async (id, file) => {
      const { res } = await download(g, `export/file/${id}`);
      await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), createWriteStream(file));
      return statSync(file).size;
    },
    pollMs: 1000,
    close: () => {},
  };
}

/** The backend of the global options: the server's API with `--server`, else the local data directory (opened until `close`). */
export async function exportBackend(g: GlobalOptions): Promise<ExportBackend> {
  return isRemote(g) ? remoteBackend(g) : localBackend(g);
}
