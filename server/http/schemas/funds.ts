/**
 * Response payload schemas of the fund listings and the status report (delivery spec section 3
 * "Fund request (listing row)", auditor spec section 3 "Fund (listing row, auditor)" and 2.3),
 * mirroring `FundListingRow`, `AuditorFundRow` and `StatusReport` of the funds services.
 */
import { z } from 'zod';

const int = z.number().int();
const text = z.string().nullable();

/** The price types (1-4) and price sources (1-3) of a fund request's valuations, as the listing and the fund's details send them. */
export const priceFieldsShape = {
  price_type_1: text,
  price_type_2: text,
  price_type_3: text,
  price_type_4: text,
  price_source_1: text,
  price_source_2: text,
  price_source_3: text,
};

/** `{offset, limit, count}` of a listing page. */
export const paginationSchema = z.strictObject({ offset: int, limit: int, count: int });

/**
 * The paging of a fund listing page (`Pagination` of listing-page.ts): count up to 10,000 with
 * `countCapped` when there are more, and the cursors of the next and previous pages.
 */
export const fundPaginationSchema = z.strictObject({
  offset: int,
  limit: int,
  count: int,
  countCapped: z.boolean(),
  next: z.string().nullable(),
  previous: z.string().nullable(),
});

/** An exact count of listing funds. */
export const fundCountSchema = z.strictObject({ count: int });

/** A fund's input-file counts (`DataStatusCounts`). */
export const dataStatusCountsSchema = z.strictObject({
  rawCount: int,
  pendingCount: int,
  processingCount: int,
  processedCount: int,
  assignedCount: int,
  errorCount: int,
  onBoardingCount: int,
  notRequiredCount: int,
  notReviewedCount: int,
  total: int,
});

/** A fund's work-paper counts (`WorkPaperStatusCounts`). */
export const workPaperStatusCountsSchema = z.strictObject({ total: int, reviewedCount: int, notReviewedCount: int, notRequiredCount: int });

/** One delivery listing row. */
export const fundListingRowSchema = z.strictObject({
  id: int,
  name: z.string(),
  client: z.string(),
  fundCode: text,
  alternateCodes: z.array(z.string()),
  status: z.string(),
  statusLabel: z.string(),
  administrator: text,
  administratorCode: text,
  administratorId: int.nullable(),
  country: text,
  currency: text,
  engagementCode: text,
  accounting_standard: text,
  structure: text,
  outputType: text,
  requestDate: text,
  period_end: text,
  periodStart: text,
  auditStart: text,
  navClose: text,
  dataDue: text,
  hasErrors: z.boolean(),
  runningProcesses: z.array(z.strictObject({ status: z.string(), stage: z.string() })),
  dataStatusCounts: dataStatusCountsSchema,
  workPaperStatusCounts: workPaperStatusCountsSchema,
  dataRequestStatus: z.string(),
  dataRequestStatusLabel: z.string(),
  selfOnboarded: z.boolean(),
  hasCsvOutputs: z.boolean(),
  group_key: text,
  aggreg_consol_flag: text,
  needs_rerun: z.boolean(),
  parentId: int.nullable(),
  children: z.array(int),
  aggreg_force_run: z.boolean(),
  mappings: z.array(int),
  external_valuations: z.string(),
  ...priceFieldsShape,
  audit_comments: text,
  administrator_comments: text,
  delivery_comments: text,
  created_by: text,
  rerunDate: text,
  rerun_by: text,
  rerun_by_role: text,
  PM: z.number().nullable(),
  TE: z.number().nullable(),
  SAD: z.number().nullable(),
  RTTPlus: z.number().nullable(),
  RTTMinus: z.number().nullable(),
  gfisClientCode: text,
  connected_audit: z.boolean(),
  notes: text,
  processStatus: z.enum(['Processing', 'Ready', 'Idle']),
  dataStatusUIField: z.string(),
  workPaperStatusUIField: z.string(),
  isParentUIField: text,
  isLate: z.boolean(),
});

/** A page of the delivery listing. */
export const fundListingPageSchema = z.strictObject({ rows: z.array(fundListingRowSchema), pagination: fundPaginationSchema });

/** One auditor listing row. */
export const auditorFundRowSchema = z.strictObject({
  id: int,
  name: z.string(),
  client: z.string(),
  type: text,
  administrator: text,
  dueDate: text,
  uploadStatus: z.string(),
  dataRequestStatus: z.string(),
  dataStatus: z.string(),
  dataStatusUIField: z.string(),
  dataStatusCounts: dataStatusCountsSchema,
  workPaperStatusCounts: workPaperStatusCountsSchema,
  workPaperStatusUIField: z.string(),
  isLate: z.boolean(),
  calculationStatus: text,
  isStatusUnChanged: z.boolean(),
  isParentUIField: text,
  group_key: text,
  aggreg_consol_flag: text,
  parentId: int.nullable(),
});

/** A page of the auditor listing. */
export const auditorFundPageSchema = z.strictObject({ rows: z.array(auditorFundRowSchema), pagination: fundPaginationSchema });

const nameCounts = z.array(z.strictObject({ name: z.string(), count: int }));
const fundGroup = z.strictObject({ count: int, clients: nameCounts, administrators: nameCounts, funds: z.array(auditorFundRowSchema) });

/** The auditor status report (`StatusReport`). */
export const statusReportSchema = z.strictObject({
  totalFunds: z.strictObject({ count: int }),
  activeFunds: z.strictObject({ count: int }),
  lateFunds: fundGroup,
  onTimeFunds: fundGroup,
});

/** The answer of a status action (`ActionResult`): every fund asked for, and a warning when any did not move. */
export const actionResultSchema = z.strictObject({
  funds: z.array(z.strictObject({ id: int, status: z.string(), statusLabel: z.string(), isStatusUnChanged: z.boolean() })),
  warning: z.string().optional(),
});

/** A page of a fund's user trail, newest first (`TrailRow`). */
export const trailPageSchema = z.strictObject({
  rows: z.array(z.strictObject({ id: int, user: text, userId: int.nullable(), date: z.string(), action: z.string(), before: z.unknown(), after: z.unknown() })),
  pagination: paginationSchema,
});

/** The problems `POST /fund/validate` finds: messages, or `{id, type: 'Duplicate Fund', message}` and the like (`ErrorItem`). */
export const fundValidationSchema = z.strictObject({
  errors: z.array(
    z.union([
      z.string(),
      z.strictObject({ id: int.optional(), type: z.string().optional(), message: z.string(), row: int.optional(), column: z.string().optional() }),
    ]),
  ),
});
