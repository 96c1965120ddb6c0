/**
 * The backend of `fund-audit reference fx`: the independent FX rate files of the local data
 * directory, or the list of a server's (`GET /dev-tools/fx-rates`). Loading a file changes files
 * of the data directory itself, so it is done on the server host.
 */
import { ValidationError } from '../../server/errors.js';
import { importEcbFxFile, listFxRates, type FxRateFile } from '../../server/services/reference-data/fx-rates.js';
import type { GlobalOptions } from '../global.js';
import { isRemote, remoteOperation } from '../remote.js';
import { asSent, withLocal } from './local.js';

export interface ReferenceBackend {
  /** The loaded rate files with the dates and currencies each covers. */
  listFx(): Promise<FxRateFile[]>;
  /** Loads an ECB eurofxref-hist csv. @throws ValidationError on a server (done on its host only) */
  importFx(file: string): Promise<FxRateFile>;
}

/** The backend of the global options: the server's API with `--server`, else the local data directory. */
export function referenceBackend(g: GlobalOptions): ReferenceBackend {
  if (isRemote(g))
    return {
      listFx: async () => (await remoteOperation(g, 'GET /api/v2.0/dev-tools/fx-rates', {})) as FxRateFile[],
      importFx: async () => {
        throw new ValidationError('reference fx import works on the local data directory only: run it on the server host with --data-dir');
      },
    };
  return {
    listFx: () => withLocal(g, (ctx) => asSent(listFxRates(ctx))),
    importFx: (file) => withLocal(g, (ctx) => asSent(importEcbFxFile(ctx, file))),
  };
}
