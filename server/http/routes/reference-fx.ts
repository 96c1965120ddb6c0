/**
 * Independent FX rates in the developer tools: which files of rates price testing reads and the
 * dates and currencies each covers (loading a file is `fund-audit reference fx import`).
 */
import { listFxRates } from '../../services/reference-data/fx-rates.js';
import { defineRoute } from '../route.js';
import { fxRateFilesSchema } from '../schemas/dev-tools.js';

export const referenceFxRoutes = [
  defineRoute({
    method: 'GET',
    path: '/dev-tools/fx-rates',
    group: 'devTools',
    tag: 'dev-tools',
    summary: 'The independent FX rate files price testing reads (<data dir>/reference/fx) -> [{file, format, rates, firstDate, lastDate, dates, currencies}]',
    response: fxRateFilesSchema,
    handler: ({ ctx }) => listFxRates(ctx),
  }),
];
