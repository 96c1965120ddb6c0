/**
 * The backend of `fund-audit reference fx`: the independent FX rates through the API
 * (`/reference/fx-rates`: list, upload, remove; in process on the local install or on a server).
 */
import { readFileSync, existsSync } from 'node:fs';
import { basename } from 'node:path';
import { NotFoundError } from '../../server/errors.js';
import type { FxRateFile, FxRatesOverview } from '../../server/services/reference-data/fx-rates.js';
import type { GlobalOptions } from '../global.js';
import { operation } from '../operation.js';

export interface ReferenceBackend {
  /** The rate files with the dates and currencies each covers, the shipped history, the rules applied. */
  listFx(): Promise<FxRatesOverview>;
  /** Loads a file of independent rates (any layout the product reads). */
  importFx(file: string): Promise<FxRateFile>;
  /** Removes an uploaded file of rates. */
  removeFx(name: string): Promise<{ file: string; removed: true }>;
}

/** The backend of the global options: the API, on the server with `--server`, else in process on the local install. */
export function referenceBackend(g: GlobalOptions): ReferenceBackend {
  return {
    listFx: () => operation(g, 'GET /api/v2.0/reference/fx-rates', {}),
    importFx: async (file) => {
      if (!existsSync(file)) throw new NotFoundError(`No such file: ${file}`);
      const form = new FormData();
      form.append('upload', new Blob([new Uint8Array(readFileSync(file))]), basename(file));
      return operation(g, 'POST /api/v2.0/reference/fx-rates', { body: form });
    },
    removeFx: (name) => operation(g, 'DELETE /api/v2.0/reference/fx-rates/:file', { params: { file: name } }),
  };
}
