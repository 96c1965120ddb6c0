/** Response payload schemas of the PowerBI inputs (delivery spec section 7), mirroring `PbiInputView` of server/services/pbi-inputs/pbi-inputs.ts. */
import { z } from 'zod';
import { paginationSchema } from './funds.js';

/** A stored PowerBI input file; its token masked. */
export const pbiInputViewSchema = z.strictObject({
  id: z.number().int(),
  pbi_input_type: z.string(),
  pbi_input_type_name: z.string(),
  file_name: z.string(),
  sas_token: z.string().nullable(),
  uploaded_by: z.string().nullable(),
  token_expiry_date: z.string().nullable(),
  token_expired: z.boolean(),
  upload_date: z.string(),
  created_at: z.string(),
  size: z.number().int().nullable(),
  row_count: z.number().int().nullable(),
});

/** A page of PowerBI input files. */
export const pbiInputPageSchema = z.strictObject({ rows: z.array(pbiInputViewSchema), pagination: paginationSchema });

/** A saved input file: its row, the file token (shown once) and the address that reads it with the token (`savePbiInput`). */
export const savedPbiInputSchema = z.strictObject({ ...pbiInputViewSchema.shape, token: z.string(), url: z.string() });
