/**
 * Response payload schema of the fund details (`GET /fund/{id}`, spec section 3 "Fund details"
 * and "File row"), mirroring `getFundDetails` and `fileView` of the funds service.
 */
import { z } from 'zod';
import { DATA_REQUEST_STATUSES } from '../../db/schema/index.js';
import { dataStatusCountsSchema, priceFieldsShape, workPaperStatusCountsSchema } from './funds.js';

const int = z.number().int();
const text = z.string().nullable();
const num = z.number().nullable();

/** The editable scalar fields (`toFundFields`), every one present, null when unset. */
const fundFields = {
  name: z.string(),
  client: z.string(),
  gfis_client_code: text,
  country: text,
  ey_country: text,
  currency: text,
  structure: text,
  fund_sub_type: text,
  audit_type: text,
  job_type: text,
  accounting_standard: text,
  period_start: text,
  period_end: text,
  due_date: text,
  audit_start_date: text,
  nav_close_date: text,
  request_date: text,
  financial_year: text,
  accounting_period: text,
  engagement_code: text,
  output_type: text,
  external_valuations: z.enum(['Y', 'N']),
  ...priceFieldsShape,
  PM: num,
  TE: num,
  SAD: num,
  connected_audit: z.boolean(),
  RTTPlus: num,
  RTTMinus: num,
  /** FX testing tolerance, percent (0-100) of the independent rate; null: the server default (`fxTolerancePct`). */
  fx_tolerance: num,
  soi_rec_type: text,
  fihi_type: text,
  has_investment_analyzer: z.boolean(),
  aggreg_consol_flag: text,
  group_key: text,
  group_work_papers: z.boolean(),
  parentId: int.nullable(),
  is_parent: z.boolean(),
  audit_comments: text,
  administrator_comments: text,
  delivery_comments: text,
  notes: text,
  fund_administrator_contact: text,
  auditor_email_1: text,
  auditor_email_2: text,
  auditor_email_3: text,
  auditor_email_4: text,
  pped_email: text,
  tpa_mailbox: text,
  fr_tpa_contact: text,
  ta_tpa_mailbox: text,
};

const qaStatus = z.enum(['fail', 'warning']);
const qaItem = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('amount'), status: qaStatus, name: z.string(), diff: z.number(), message: z.string().optional() }),
  z.strictObject({
    kind: z.literal('mapping'),
    status: qaStatus,
    column: z.string(),
    file: z.string(),
    name: z.string().optional(),
    error: z.string().optional(),
  }),
  z.strictObject({ kind: z.literal('error'), status: qaStatus, error: z.string() }),
  z.strictObject({
    kind: z.literal('notPerformed'),
    status: qaStatus,
    name: z.string(),
    reason: z.string(),
    file: z.string().optional(),
    line: int.optional(),
  }),
]);
const incompleteFile = z.strictObject({ file: z.string(), sdmType: z.string(), unmappedCodes: int, rowErrors: int });
/** An adjustment line that does not fit the fund's data (decision 0012). */
const incompleteAdjustment = z.strictObject({ adjustment: int, line: int, reason: z.string() });

/** A file row with its display (`fileView`). */
export const fileViewSchema = z.strictObject({
  id: int,
  filename: z.string(),
  timestamp: z.string(),
  status: z.string(),
  statusLabel: z.string(),
  fileType: z.string(),
  name: z.string(),
  disabled: z.boolean(),
  reviewed: z.boolean(),
  released: z.boolean(),
  rowCount: int.nullable(),
  validation_status: text,
  validation: z.record(z.string(), z.unknown()).nullable(),
  qa: z.strictObject({
    failed: z.array(qaItem),
    warnings: z.array(qaItem),
    notPerformed: z.array(qaItem),
    incompleteData: z.array(incompleteFile),
    incompleteAdjustments: z.array(incompleteAdjustment),
    allClear: z.boolean(),
  }),
  importFileId: int.nullable(),
});

/** An input file or a standardization, with whether it is current and what superseded it. */
const inputFileView = z.strictObject({
  ...fileViewSchema.shape,
  current: z.boolean(),
  supersededBy: z.strictObject({ id: int, filename: z.string(), timestamp: z.string() }).optional(),
});

/** The fund details screen's payload. */
export const fundDetailsSchema = z.strictObject({
  id: int,
  ...fundFields,
  fund_code: text,
  fund_codes: z.array(z.strictObject({ id: int, code: z.string(), main: z.boolean() })),
  administrator: z.strictObject({ id: int, code: z.string(), name: z.string() }).nullable(),
  status: z.string(),
  statusLabel: z.string(),
  dataRequestStatus: z.enum(DATA_REQUEST_STATUSES),
  selfOnboarded: z.boolean(),
  rerun_count: int,
  rerun_by: z.strictObject({ id: int, full_name: z.string() }).nullable(),
  rerun_by_role: text,
  rerun_date: text,
  created_at: z.string(),
  updated_at: z.string(),
  administrator_recipients: z.array(z.strictObject({ id: int, full_name: z.string(), email: z.string(), role: z.string() })),
  children: z.array(z.strictObject({ id: int, name: z.string(), client: z.string(), fund_code: text })),
  mappings: z.array(int),
  aggreg_force_run: z.boolean(),
  needs_rerun: z.boolean(),
  inputFiles: z.array(z.strictObject({ ...inputFileView.shape, identifiedFiles: z.array(inputFileView) })),
  standardizationFiles: z.array(inputFileView),
  calculationFiles: z.array(z.strictObject({ ...fileViewSchema.shape, aggDataOversized: z.boolean() })),
  workPapers: z.array(z.strictObject({ ...fileViewSchema.shape, outcome: text })),
  previousWorkPapers: z.array(fileViewSchema),
  hasCsvOutputs: z.boolean(),
  dataStatusCounts: dataStatusCountsSchema,
  workPaperStatusCounts: workPaperStatusCountsSchema,
  isLate: z.boolean(),
  dataStatusUIField: z.string(),
  workPaperStatusUIField: z.string(),
  isParentUIField: text,
  processStatus: z.enum(['Processing', 'Ready', 'Idle']),
  calculationStatus: text,
  editable: z.strictObject({
    rows: z.boolean(),
    reason: text,
    comments: z.literal(true),
    recipients: z.literal(true),
    administratorLock: text,
  }),
  assignedCount: int,
  administratorLock: text,
});
