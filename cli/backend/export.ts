/**
 * The backend of `fund-audit export`: request an export, follow it and save its zip, on the local
 * data directory (run at once in process, as the first Admin) or on a server (queued there, polled
 * and downloaded).
 */
import { createWriteStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Engine } from '../../server/jobs/engine.js';
import { exportDownload, exportStageHandler, listExports, requestExport, type ExportView } from '../../server/services/exports/exports.js';
import { ensureAdmin } from '../../server/services/users/users.js';
import { openLocal, type GlobalOptions } from '../global.js';
import { isRemote, remoteCall } from '../remote.js';
import { download } from './download.js';
import { asSent } from './local.js';

export interface ExportBackend {
  request(input: Parameters<typeof requestExport>[2]): Promise<ExportView>;
  /** Runs the queued export (local) or does nothing (the server runs it). */
  run(): Promise<void>;
  status(id: number): Promise<ExportView | undefined>;
  /** Writes the zip to a file; returns its size in bytes. */
  save(id: number, file: string): Promise<number>;
  /** Milliseconds between status checks. */
  pollMs: number;
  close(): void;
}

const byId = (id: number) => ({ filters: [{ field: 'id', type: 'enum', value: [String(id)] }] });

async function localBackend(g: GlobalOptions): Promise<ExportBackend> {
  const ctx = await openLocal(g);
  const user = ensureAdmin(ctx, ctx.config.adminEmail).user;
  return {
    request: async (input) => asSent(requestExport(ctx, user, input)),
    run: async () => {
      await new Engine(ctx, { export: exportStageHandler }).drain();
    },
    status: async (id) => asSent(listExports(ctx, user, byId(id)).rows[0]),
    save: async (id, file) => {
      const zip = exportDownload(ctx, user, id);
      await pipeline(zip.open(), createWriteStream(file));
      return zip.size;
    },
    pollMs: 0,
    close: () => ctx.close(),
  };
}

function remoteBackend(g: GlobalOptions): ExportBackend {
  return {
    request: (input) => remoteCall<ExportView>(g, 'POST', 'export/files', input),
    run: async () => {},
    status: async (id) => (await remoteCall<{ rows: ExportView[] }>(g, 'POST', 'export/files/list', byId(id))).rows[0],
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
