/** Wire types of the delivery pages (field names as the server sends them). */
import type { ActionFund, ActionResult } from '../../../server/services/funds/actions.js';
import type { DataStatusCounts } from '../../../server/services/funds/derive.js';
import type { FundListingRow } from '../../../server/services/funds/listing.js';

/** Shapes the server defines once; the screens read them as they are. */
export type { ActionFund, ActionResult, DataStatusCounts, FundListingRow };

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
export type ListingFilter =
  | { field: string; type: 'enum'; value: string[] }
  | { field: string; type: 'text'; value: string }
  | { field: string; type: 'date'; value: { from?: string; to?: string } }
  | { field: string; type: 'number'; value: { min?: number; max?: number } };

export type FilterType = ListingFilter['type'];

/** One sort term; the list order is the sort priority. */
export interface SortSpec {
  field: string;
  order: 'asc' | 'desc';
}

/** A saved listing filter (fixed ones have ids 1-3). */
export interface SavedFilter {
  id: number;
  title: string;
  filter: ListingFilter[];
  fixed: boolean;
}

/** Body of the listing call and of the xlsx export. */
export interface ListingQuery {
  filters: ListingFilter[];
  sorting: SortSpec[];
  search: string | null;
  offset: number;
  pagination: { limit: number };
}

/** Import file statuses (spec section 4). */
export type ImportStatus = 'Awaiting' | 'Finished' | 'Pending' | 'Processing' | 'Success' | 'Error';

/** A row of the Import files grid. */
export interface ImportFileRow {
  id: number;
  administrator: string | null;
  administratorCode: string | null;
  fileName: string;
  type: string | null;
  subType: string | null;
  status: ImportStatus | string;
  created_at: string;
  payload: { error?: string; warning?: string; [key: string]: unknown };
}

/** A fund of an export, as `payload.fund_requests[id]`. */
export interface ExportFund {
  name: string;
  fundCode: string | null;
  client: string;
  administrator: string | null;
}

/** A row of the Export files grid. */
export interface ExportRow {
  id: number;
  user: string | null;
  user_auth_id: number | null;
  administrators: string[];
  status: 'pending' | 'running' | 'done' | 'error' | string;
  created_at: string;
  finished_at: string | null;
  payload: {
    fund_requests: Record<string, ExportFund>;
    inputs?: { fundRequests: number[]; fundRequestStages: string[] };
    error?: string;
    files?: number;
    size?: number;
    warnings?: string[];
  };
  fileName: string;
}

/** One sheet's identification error of an unidentified file. */
export interface SheetError {
  sheet_name: string | null;
  error_code: string | null;
  error_message: string;
  columns_missing: string[];
  closest_match: string | null;
  column_match_percent: number | null;
}

/** Fields shared by the two issue lists of Input files. */
export interface IssueRowBase {
  id: number;
  file_name: string;
  tpa_id: number | null;
  tpa: string | null;
  assignedToId: number | null;
  assignedTo: string | null;
  action: string;
  import_file_id: number | null;
  source_file_paths: string[];
  user_auth_id: number | null;
  timestamp: string;
}

/** An unidentified file. */
export interface UnidentifiedRow extends IssueRowBase {
  errors: SheetError[];
}

/** An identified file without a matching fund. */
export interface UnmatchedRow extends IssueRowBase {
  file_type: string;
  fund_code: string | null;
  fund_id: number | null;
  payload: { reason?: string; [key: string]: unknown };
}

/** A file swept from the MOVEit inbox. */
export interface SweptRow {
  id: number;
  original_file_name: string;
  tpa_id: number | null;
  tpa: string | null;
  import_file_id: number | null;
  file_uploader_real_name: string | null;
  file_uploader_email: string | null;
  file_path_on_moveit: string;
  file_upload_date: string | null;
  file_download_date: string | null;
}

/** A reference data entry; `alt_code` is the label. */
export interface RefEntry {
  code: string;
  alt_code: string;
  deprecated: boolean;
}

/** Reference data lists (`GET /nrd`). */
export type Nrd = Record<string, RefEntry[]> & { administrators: RefEntry[]; users: RefEntry[] };
