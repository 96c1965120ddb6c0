/** Response payload schemas of the independent FX rates (`/reference/fx-rates`, `/dev-tools/fx-rates`). */
import { z } from 'zod';
import { FX_SOURCE_LAYOUTS } from '../../../pipeline/fx/sources.js';

/** One file of independent rates and what it covers (`FxRateFile`). */
export const fxRateFileSchema = z.strictObject({
  file: z.string(),
  format: z.enum(FX_SOURCE_LAYOUTS),
  shipped: z.boolean(),
  rates: z.number().int(),
  firstDate: z.string().nullable(),
  lastDate: z.string().nullable(),
  dates: z.number().int(),
  currencies: z.array(z.string()),
  loadedAt: z.string(),
});

export const fxRateFilesSchema = z.array(fxRateFileSchema);

/** `GET /reference/fx-rates` (`FxRatesOverview`). */
export const fxRatesOverviewSchema = z.strictObject({
  files: fxRateFilesSchema,
  shipped: z.strictObject({ file: z.string(), firstDate: z.string().nullable(), lastDate: z.string().nullable() }).nullable(),
  maxAgeBusinessDays: z.number().int(),
  defaultTolerancePct: z.number(),
  layouts: z.array(z.string()),
});

export const fxRateFileRemovedSchema = z.strictObject({ file: z.string(), removed: z.literal(true) });
