/**
 * The backend of `fund-audit import`: upload TPA files through the API (cli/operation.ts) and wait
 * until each is identified: in process the pipeline is run here to its end; on a server the import
 * list is polled until each file is identified.
 */
import { openAsBlob } from 'node:fs';
import { allJobs } from '../../server/jobs/stages/index.js';
import type { ImportView } from '../../server/services/imports/imports.js';
import type { GlobalOptions } from '../global.js';
import { withApi } from '../operation.js';

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

/** The backend of the global options: the API, on the server with `--server`, else in process on the local install. */
export function importsBackend(g: GlobalOptions): ImportsBackend {
  return {
    importFiles: (tpa, files, { wait, timeoutS }) =>
      withApi(g, async (api) => {
        const form = new FormData();
        form.append('administrator', tpa);
        for (const f of files) form.append('upload', await openAsBlob(f.path), f.fileName);
        const views = await api.call('POST /api/v2.0/import/files', { body: form });
        // in process the pipeline runs here to its end; a server's job threads run it meanwhile
        if (wait) await api.runQueuedJobs(allJobs);
        const ids = new Set(views.map((v) => v.id));
        const deadline = Date.now() + timeoutS * 1000;
        for (;;) {
          const { rows } = await api.call('POST /api/v2.0/import/list', { body: { pagination: { limit: 1000 } } });
          const mine = rows.filter((r) => ids.has(r.id));
          if (!wait || mine.every((r) => IDENTIFIED.includes(r.status)) || Date.now() > deadline) return mine;
          await new Promise((r) => setTimeout(r, 500));
        }
      }),
  };
}
