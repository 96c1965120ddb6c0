/**
 * The backend of `fund-audit reference fx`: the independent FX rates of the local data directory
 * (the reference-data service), or of a server (`/reference/fx-rates`: list, upload, remove).
 */
import { readFileSync, existsSync } from 'node:fs';
import { basename } from 'node:path';
import { NotFoundError } from '../../server/errors.js';
import type { AppContext } from '../../server/context.js';
import type { User } from '../../server/services/auth/tokens.js';
import {
  fxRatesOverview,
  importFxPath,
  removeFxFile,
  seedFxRates,
  type FxRateFile,
  type FxRatesOverview,
} from '../../server/services/reference-data/fx-rates.js';
import type { GlobalOptions } from '../global.js';
import { isRemote, remoteOperation } from '../remote.js';
import { asSent, withLocal } from './local.js';

export interface ReferenceBackend {
  /** The rate files with the dates and currencies each covers, the shipped history, the rules applied. */
  listFx(): Promise<FxRatesOverview>;
  /** Loads a file of independent rates (any layout the product reads). */
  importFx(file: string): Promise<FxRateFile>;
  /** Removes an uploaded file of rates. */
  removeFx(name: string): Promise<{ file: string; removed: true }>;
}

/** The backend of the global options: the server's API with `--server`, else the local data directory. */
export function referenceBackend(g: GlobalOptions): ReferenceBackend {
  if (isRemote(g))
    return {
      listFx: () => remoteOperation(g, 'GET /api/v2.0/reference/fx-rates', {}),
      importFx: async (file) => {
        if (!existsSync(file)) throw new NotFoundError(`No such file: ${file}`);
        const form = new FormData();
        form.append('upload', new Blob([new Uint8Array(readFileSync(file))]), basename(file));
        return remoteOperation(g, 'POST /api/v2.0/reference/fx-rates', { body: form });
      },
      removeFx: (name) => remoteOperation(g, 'DELETE /api/v2.0/reference/fx-rates/:file', { params: { file: name } }),
    };
  // the shipped ECB history is in every data directory a server or worker started on; seeded here for one that has none yet
  const local = <T>(fn: (ctx: AppContext, user: User) => T | Promise<T>) =>
    withLocal(g, async (ctx, user) => {
      seedFxRates(ctx);
      return asSent(await fn(ctx, user));
    });
  return {
    listFx: () => local((ctx) => fxRatesOverview(ctx)),
    importFx: (file) => local((ctx, user) => importFxPath(ctx, file, user)),
    removeFx: (name) => local((ctx, user) => removeFxFile(ctx, name, user)),
  };
}
