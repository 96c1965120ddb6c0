/**
 * The backend of `fund-audit import`: store TPA files and wait until each is identified, on the
 * local data directory (the pipeline run in process to its end, as the first Admin) or on a server
 * (uploaded, then the server's import list polled until each file is identified).
 */
import { openAsBlob } from 'node:fs';
import { Engine } from '../../server/jobs/engine.js';
import { allJobs } from '../../server/jobs/stages/index.js';
import { seedFxRates } from '../../server/services/reference-data/fx-rates.js';
import { importFile, listImports, type ImportView } from '../../server/services/imports/imports.js';
import type { GlobalOptions } from '../global.js';
import { isRemote, remoteOperation } from '../remote.js';
import { asSent, withLocal } from './local.js';

/** A file to import: its name and where it is read from. */
export interface ImportPath {
  fileName: string;
  path: string;
}

/** Import statuses after which identification is over. */
export const IDENTIFIED = ['Success', 'Error', 'Finished'];

export interface ImportsBackend {
  /**
   * Stores the files for a TPA and, with `wait`, waits until each is identified (locally the whole
   * pipeline runs before it resolves).
   * @returns the imports of these files, as listed by `POST /import/list` (on a server, as they are
   *   after `timeoutS` seconds at the latest)
   */
  importFiles(tpa: string, files: ImportPath[], opts: { wait: boolean; timeoutS: number }): Promise<ImportView[]>;
}

function localBackend(g: GlobalOptions): ImportsBackend {
  return {
    importFiles: (tpa, files, { wait }) =>
      withLocal(g, async (ctx, user) => {
        seedFxRates(ctx);
        const views = [];
        for (const f of files)
          views.push(await importFile(ctx, { administratorCode: tpa, fileName: f.fileName, path: f.path, userId: user.id, source: 'cli' }));
        if (wait) await new Engine(ctx, allJobs).drain();
        const ids = new Set(views.map((v) => v.id));
        return asSent((await listImports(ctx, { limit: 1000 })).rows.filter((r) => ids.has(r.id)));
      }),
  };
}

function remoteBackend(g: GlobalOptions): ImportsBackend {
  return {
    importFiles: async (tpa, files, { wait, timeoutS }) => {
      const form = new FormData();
      form.append('administrator', tpa);
      for (const f of files) form.append('upload', await openAsBlob(f.path), f.fileName);
      const views = await remoteOperation(g, 'POST /api/v2.0/import/files', { body: form });
      const ids = new Set(views.map((v) => v.id));
      const deadline = Date.now() + timeoutS * 1000;
      for (;;) {
        const { rows } = await remoteOperation(g, 'POST /api/v2.0/import/list', { body: { pagination: { limit: 1000 } } });
        const mine = rows.filter((r) => ids.has(r.id));
        if (!wait || mine.every((r) => IDENTIFIED.includes(r.status)) || Date.now() > deadline) return mine;
        await new Promise((r) => setTimeout(r, 500));
      }
    },
  };
}

/** The backend of the global options: the server's API with `--server`, else the local data directory. */
export function importsBackend(g: GlobalOptions): ImportsBackend {
  return isRemote(g) ? remoteBackend(g) : localBackend(g);
}
