/** Response payload schemas of the import files (delivery spec section 4 "Imports"), mirroring `importView`. */
import { z } from 'zod';
import { IMPORT_STATUSES } from '../../db/schema/index.js';
import { paginationSchema } from './funds.js';

/** One import file as the Imports screen shows it. */
export const importViewSchema = z.strictObject({
  id: z.number().int(),
  administrator: z.string().nullable(),
  administratorCode: z.string().nullable(),
  fileName: z.string(),
  type: z.string().nullable(),
  subType: z.string().nullable(),
  status: z.enum(IMPORT_STATUSES),
  source: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  created_at: z.string(),
  payload: z.record(z.string(), z.unknown()),
});

/** A page of import files. */
export const importPageSchema = z.strictObject({ rows: z.array(importViewSchema), pagination: paginationSchema });
