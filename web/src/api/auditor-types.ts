/** Wire types of the auditor area's calls (auditor spec sections 3 and 7; field names as on the wire). */
import type { QaItem, QaValidations } from '../../../server/services/files/display.js';
import type { ActionFund, ActionResult } from '../../../server/services/funds/actions.js';
import type { DataStatusCounts, WorkPaperStatusCounts } from '../../../server/services/funds/derive.js';
import type { AuditorFundRow } from '../../../server/services/funds/listing.js';
import type { FundGroup, NameCount, StatusReport } from '../../../server/services/funds/status-report.js';
import type { ApiResponse } from '../../../server/http/contract';
import type { ApiErrorEntry } from './types';

/** Shapes the server defines once; the screens read them as they are. */
export type { ActionFund, ActionResult, AuditorFundRow, DataStatusCounts, FundGroup, NameCount, QaItem, QaValidations, StatusReport, WorkPaperStatusCounts };

/** Paging of a list answer. */
export interface Pagination {
  offset: number;
  limit: number;
  count: number;
}

/** A page of rows. */
export interface PageOf<T> {
  rows: T[];
  pagination: Pagination;
}

/** A QA validation entry of a file. */
export interface QaEntry {
  status?: string;
  name?: string;
  defined_name?: string;
  diff?: string | number;
  column?: string;
  file?: string;
  error?: string;
}

/** A file of a fund (spec "File row"). */
export interface FundFile {
  id: number;
  filename: string;
  timestamp: string | null;
  status: string;
  fileType: string | null;
  name: string | null;
  disabled: boolean;
  reviewed: boolean;
  released?: boolean;
  rowCount?: number | null;
  validation_status?: string | null;
  validation?: { QA_Rec?: QaEntry[]; QA_Mapping?: QaEntry[] } | null;
  /** the status cell as the server derives it (spec section 4 "File status") */
  statusLabel: string;
  /** the QA Validations popover's groups; a work paper carries its fund's calculation checks */
  qa: QaValidations;
  identifiedFiles?: FundFile[];
}

/** A recipient of a fund's reports. */
export interface Recipient {
  id?: number;
  /** temporary client-side key of a recipient not saved yet */
  key?: string;
  full_name: string;
  email: string;
  role: string;
}

/** A child fund. */
export interface ChildFund {
  id: number;
  name: string;
  client: string;
  fund_code: string | null;
}

/** `GET /fund/{id}`: every field the details modal shows. */
export interface FundDetails extends Record<string, unknown> {
  id: number;
  name: string;
  client: string;
  fund_code: string | null;
  fund_codes: Array<{ id?: number; code: string; main: boolean }>;
  administrator: { id: number; code: string; name: string } | null;
  status: string;
  statusLabel: string;
  rerun_count: number;
  rerun_by: { id: number; full_name: string } | null;
  rerun_date: string | null;
  external_valuations: string | null;
  connected_audit: boolean | null;
  administrator_recipients: Recipient[];
  children: ChildFund[];
  inputFiles: FundFile[];
  standardizationFiles: FundFile[];
  calculationFiles: FundFile[];
  workPapers: FundFile[];
  hasCsvOutputs: boolean;
  dataStatusCounts: DataStatusCounts;
  editable: { rows: boolean; reason: string | null; comments: boolean; recipients: boolean; administratorLock?: string | null };
  assignedCount: number;
  is_parent: boolean | null;
  parentId: number | null;
}

/** A validation error of a fund save: text, or a structured 'Duplicate Fund' entry. */
export type FundError = string | ApiErrorEntry;

/** A row issue of a bulk upload. */
export interface BulkIssue {
  column: string;
  message: string;
  /** the existing fund request of a 'Duplicate Fund' fault */
  id?: number;
  type?: 'Duplicate Fund';
}

/** A saved bulk row: its CSV values (columnName is the CSV line) and the saved request's id. */
export interface BulkSaved {
  id: number;
  columnName?: number;
  fundName: string;
  clientName?: string;
  dataDueDate?: string;
  fundShortCode: string;
  tpa: string;
  overwritten: boolean;
}

/** A rejected bulk row: its CSV values (columnName is the CSV line) and errors. */
export interface BulkFailed {
  fund: Record<string, string | number | undefined> & { columnName?: number };
  errors: { faults: BulkIssue[]; warnings: BulkIssue[] };
}

/** `POST /fund-request/bulk`. */
export interface BulkResult {
  saved: BulkSaved[];
  failed: BulkFailed[];
  totalRows: number;
}

/** An export row (`POST /export/files/list`). */
export type ExportRow = ApiResponse<'POST /api/v2.0/export/files/list'>['rows'][number];

/** A fund of an export (`payload.fund_requests[id]`). */
export type ExportFund = ExportRow['payload']['fund_requests'][string];

/** `GET /wiki-data`. */
export type WikiData = ApiResponse<'GET /api/v2.0/wiki-data'>;

/** An item of the wiki. */
export type WikiItem = WikiData['sections'][number]['items'][number];

/** A reference-data entry (`GET /nrd`). */
export interface RefEntry {
  code: string;
  alt_code: string;
  deprecated?: boolean;
}

/** Reference data lists by name. */
export type Nrd = Record<string, RefEntry[]>;
