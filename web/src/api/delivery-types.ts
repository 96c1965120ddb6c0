/** Wire types of the delivery pages (field names as the server sends them): where a route declares its answer, an alias of the API contract. */
import type { ApiResponse } from '../../../server/http/contract';

/** The answer of a status action: every fund with its status, and the warning when some did not move. */
export type ActionResult = ApiResponse<'POST /api/v2.0/fund/approve'>;
/** One fund of a status action's answer. */
export type ActionFund = ActionResult['funds'][number];
/** A page of the delivery fund listing: its rows, and paging with a count capped at 10,000 and the cursors of the pages around it. */
export type FundListingPage = ApiResponse<'POST /api/v2.0/funds/listing'>;
/** A row of the delivery fund listing. */
export type FundListingRow = FundListingPage['rows'][number];
/** A fund's input-file counts. */
export type DataStatusCounts = FundListingRow['dataStatusCounts'];

/** Paging of a list answer (offset starts at 0). */
export interface Pagination {
  offset: number;
  limit: number;
  count: number;
}

/** One page of rows. */
export interface PageOf<R> {
  rows: R[];
  pagination: Pagination;
}

/** Filter of the grid model: `{field, type, value}` (server `query-filters.ts`). */
export type ListingFilter = SavedFilter['filter'][number];

export type FilterType = ListingFilter['type'];

/** One sort term; the list order is the sort priority. */
export interface SortSpec {
  field: string;
  order: 'asc' | 'desc';
}

/** A saved listing filter (fixed ones have ids 1-3). */
export type SavedFilter = ApiResponse<'GET /api/v2.0/filters'>[number];

/** Body of the listing call and of the xlsx export. */
export interface ListingQuery {
  filters: ListingFilter[];
  sorting: SortSpec[];
  search: string | null;
  offset: number;
  pagination: { limit: number };
}

/** Import file statuses (spec section 4). */
export type ImportStatus = ImportFileRow['status'];

/** A row of the Import files grid. */
export type ImportFileRow = ApiResponse<'POST /api/v2.0/import/list'>['rows'][number];

/** A row of the Export files grid. */
export type ExportRow = ApiResponse<'POST /api/v2.0/export/files/list'>['rows'][number];

/** A fund of an export, as `payload.fund_requests[id]`. */
export type ExportFund = ExportRow['payload']['fund_requests'][string];

/** An unidentified file. */
export type UnidentifiedRow = ApiResponse<'POST /api/v2.0/files/not-identified/list'>['rows'][number];

/** One sheet's identification error of an unidentified file. */
export type SheetError = UnidentifiedRow['errors'][number];

/** An identified file without a matching fund. */
export type UnmatchedRow = ApiResponse<'POST /api/v2.0/files/not-matched/list'>['rows'][number];

/** Fields shared by the two issue lists of Input files. */
export type IssueRowBase = Omit<UnidentifiedRow, 'errors'>;

/** A file swept from the MOVEit inbox. */
export type SweptRow = ApiResponse<'POST /api/v2.0/files/sweeper/logs/list'>['rows'][number];

/** Reference data lists (`GET /nrd`). */
export type Nrd = ApiResponse<'GET /api/v2.0/nrd'> & Record<string, RefEntry[]>;

/** A reference data entry; `alt_code` is the label. */
export type RefEntry = ApiResponse<'GET /api/v2.0/nrd'>['administrators'][number];
