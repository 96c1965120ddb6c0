/**
 * Independent FX rates (docs/decisions/0021-fx-rates.md): which files of rates the checks read,
 * the shipped ECB history's last date, the age limit and the default tolerance; upload a file of
 * rates in a layout the product reads, remove an uploaded one. The developer tools keep their list.
 */
import { z } from 'zod';
import { removeFxFile } from '../../services/reference-data/fx-rates.js';
import { fxRatesOverviewOffThread, importFxFileOffThread } from '../../threads/reference-data/fx-rates-off-thread.js';
import { formFiles, readStaged, type StagedUpload } from '../multipart.js';
import { defineRoute } from '../route.js';
import { fxRateFileRemovedSchema, fxRateFileSchema, fxRateFilesSchema, fxRatesOverviewSchema } from '../schemas/reference-fx.js';

export const referenceFxRoutes = [
  defineRoute({
    method: 'GET',
    path: '/reference/fx-rates',
    group: 'shared',
    tag: 'reference',
    summary:
      'The files of independent FX rates the checks read, in order of preference (uploaded first), each with its layout and the dates and currencies it covers; the shipped ECB history with its last date; the age limit (business days) and the default FX tolerance',
    response: fxRatesOverviewSchema,
    handler: ({ ctx }) => fxRatesOverviewOffThread(ctx),
  }),
  defineRoute({
    method: 'POST',
    path: '/reference/fx-rates',
    // independent rates are audit evidence: the auditors load them
    group: 'auditor',
    tag: 'reference',
    multipart: true,
    form: z.object({
      upload: formFiles({
        what: 'file of FX rates',
        description:
          'A .csv of independent rates: ECB eurofxref-hist or daily file, Fed H.10 (Date,Country,Exchange rate) or the rates csv rate_date,currency,units_per_XXX[,source] (or XXX_per_unit)',
      }),
    }),
    summary: 'Upload a file of independent FX rates (replaces an uploaded file of the same name); used from the next calculation on',
    response: fxRateFileSchema,
    handler: async ({ ctx, form, user }) => {
      const [file] = await readStaged((form as { upload: StagedUpload[] }).upload);
      return importFxFileOffThread(ctx, file, user);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/reference/fx-rates/:file',
    group: 'auditor',
    tag: 'reference',
    summary: 'Remove an uploaded file of independent FX rates (the shipped ECB history cannot be removed)',
    response: fxRateFileRemovedSchema,
    handler: ({ ctx, params, user }) => removeFxFile(ctx, z.string().min(1).parse(params.file), user),
  }),
  defineRoute({
    method: 'GET',
    path: '/dev-tools/fx-rates',
    group: 'devTools',
    tag: 'dev-tools',
    summary: 'The independent FX rate files the checks read -> [{file, format, shipped, rates, firstDate, lastDate, dates, currencies, loadedAt}]',
    response: fxRateFilesSchema,
    handler: async ({ ctx }) => (await fxRatesOverviewOffThread(ctx)).files,
  }),
];
