/**
 * Response payload schemas of the bulk upload of fund requests (delivery spec section 7 `POST
 * funds/upload`, `POST funds`; auditor spec section 7 `POST /fund-request/bulk`; both documents,
 * section 3 "Bulk upload row"), mirroring server/services/bulk-upload/bulk-upload.ts.
 */
import { z } from 'zod';
import { BULK_UPLOAD_COLUMNS, type BulkUploadColumn } from '../../services/bulk-upload/columns.js';

const int = z.number().int();

/** The template columns a row has values for (as text, the way the CSV gave them). */
const rowValues = Object.fromEntries(BULK_UPLOAD_COLUMNS.map((c) => [c, z.string().optional()])) as Record<BulkUploadColumn, z.ZodOptional<z.ZodString>>;

/** A fault or warning of a row; a 'Duplicate Fund' fault names the existing fund request. */
export const bulkIssueSchema = z.strictObject({
  column: z.string(),
  message: z.string(),
  id: int.optional(),
  type: z.literal('Duplicate Fund').optional(),
});

const rowErrors = z.strictObject({ faults: z.array(bulkIssueSchema), warnings: z.array(bulkIssueSchema) });

/** A row of a validated CSV (`columnName` is its line in the file). */
export const bulkResultRowSchema = z.strictObject({
  ...rowValues,
  id: int,
  columnName: int,
  frBulkuploadStatus: z.enum(['accepted', 'declined', 'editable']),
  isEditable: z.boolean(),
  selected: z.boolean(),
  errors: rowErrors,
  duplicateOfId: int.nullable(),
});

/** `POST /funds/upload`: the rows of a CSV, classified accepted, editable (warnings) and declined (faults). */
export const bulkUploadResultSchema = z.strictObject({
  fileName: z.string(),
  encoding: z.string(),
  totalRows: int,
  accepted: z.array(bulkResultRowSchema),
  editable: z.array(bulkResultRowSchema),
  declined: z.array(bulkResultRowSchema),
});

/** A saved row: its values, the saved request's id and whether it overwrote an existing one. */
export const savedFundSchema = z.strictObject({
  ...rowValues,
  id: int,
  columnName: int,
  fundName: z.string(),
  fundShortCode: z.string(),
  tpa: z.string(),
  overwritten: z.boolean(),
});

/** A row not saved, with its faults and warnings. */
export const failedFundSchema = z.strictObject({ fund: z.strictObject({ ...rowValues, columnName: int.optional() }), errors: rowErrors });

/** `POST /funds`: the rows saved and the rows refused. */
export const bulkSaveResultSchema = z.strictObject({ saved: z.array(savedFundSchema), failed: z.array(failedFundSchema) });

/** `POST /fund-request/bulk`: the rows saved and refused, and how many rows the CSV had. */
export const auditorBulkResultSchema = bulkSaveResultSchema.extend({ totalRows: int });
