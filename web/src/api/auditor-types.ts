/** Wire types of the auditor area's calls (auditor spec sections 3 and 7; field names as on the wire). */
import type { IncompleteFile, QaItem, QaValidations } from '../../../server/services/files/display.js';
import type { ActionFund, ActionResult } from '../../../server/services/funds/actions.js';
import type { DataStatusCounts, WorkPaperStatusCounts } from '../../../server/services/funds/derive.js';
import type { AuditorFundRow } from '../../../server/services/funds/listing.js';
import type { FundGroup, NameCount, StatusReport } from '../../../server/services/funds/status-report.js';
import type { ApiResponse } from '../../../server/http/contract';
import type { ApiErrorEntry } from './types';

/** Shapes the server defines once; the screens read them as they are. */
export type {
  ActionFund,
  ActionResult,
  AuditorFundRow,
  DataStatusCounts,
  FundGroup,
  IncompleteFile,
  NameCount,
  QaItem,
  QaValidations,
  StatusReport,
  WorkPaperStatusCounts,
};

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

/** A page of the auditor funds listing: its rows, and paging with a count capped at 10,000 and the cursors of the pages around it. */
export type AuditorFundPage = ApiResponse<'GET /api/v2.0/user/funds/:offset/:limit'>;

/** `GET /fund/{id}`: every field the details screens show. */
export type FundDetails = ApiResponse<'GET /api/v2.0/fund/:id'>;

type InputFile = FundDetails['inputFiles'][number];

/**
 * A file of a fund (spec "File row"), whichever group it comes from: the input and standardization
 * files add whether they are current and what superseded them, the input files the files
 * identified in them; work papers the
 * overall status their Summary gives.
 */
export type FundFile = Omit<FundDetails['standardizationFiles'][number], 'current' | 'supersededBy'> &
  Partial<Pick<InputFile, 'current' | 'supersededBy' | 'identifiedFiles'>> &
  Partial<Pick<FundDetails['workPapers'][number], 'outcome'>> &
  Partial<Pick<FundDetails['calculationFiles'][number], 'aggDataOversized'>>;

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
export type ChildFund = FundDetails['children'][number];

/** A validation error of a fund save: text, or a structured 'Duplicate Fund' entry. */
export type FundError = string | ApiErrorEntry;

/** `POST /fund-request/bulk`: the rows saved and refused (with their faults and warnings) and how many the CSV had. */
export type BulkResult = ApiResponse<'POST /api/v2.0/fund-request/bulk'>;

/** An export row (`POST /export/files/list`). */
export type ExportRow = ApiResponse<'POST /api/v2.0/export/files/list'>['rows'][number];

/** A fund of an export (`payload.fund_requests[id]`). */
export type ExportFund = ExportRow['payload']['fund_requests'][string];

/** `GET /wiki-data`. */
export type WikiData = ApiResponse<'GET /api/v2.0/wiki-data'>;

/** An item of the wiki. */
export type WikiItem = WikiData['sections'][number]['items'][number];

/** Reference data lists by name (`GET /nrd`). */
export type Nrd = ApiResponse<'GET /api/v2.0/nrd'> & Record<string, RefEntry[]>;

/** A reference-data entry; `alt_code` is the label. */
export type RefEntry = ApiResponse<'GET /api/v2.0/nrd'>['administrators'][number];
