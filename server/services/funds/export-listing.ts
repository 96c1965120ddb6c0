/**
 * Export of the whole current listing to `fundrequests.xlsx` (delivery spec section 7
 * `POST /funds/export-all`): every fund matching the filters, search and sorting (no paging), the
 * listing columns in the spec's order (section 2, Fund request listing) with their header labels.
 * Numbers stay numbers (PM, TE and SAD as fractions with a % format, so 5 shows as 5.00%), dates
 * are real dates shown DD/MM/YYYY, booleans Yes/No, and text beginning with = + - @ (or a tab or
 * carriage return) is prefixed with ' so that no cell is read as a formula (DOMAIN.md 2.6).
 * The workbook is written with exceljs's streaming writer, 1,000 funds at a time.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { AppContext } from '../../context.js';
import { heavyWork } from '../../lib/guard.js';
import type { User } from '../auth/tokens.js';
import { buildFundQuery, fundsByIds, queryFundIds, toListingRows, withNames, type FundListingRow, type ListingInput } from './listing.js';

export const EXPORT_FILE_NAME = 'fundrequests.xlsx';
export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

type Kind = 'text' | 'number' | 'percent' | 'date' | 'datetime' | 'bool';
interface Column {
  header: string;
  kind: Kind;
  value: (r: FundListingRow) => unknown;
  width?: number;
}

const col = (header: string, kind: Kind, value: (r: FundListingRow) => unknown, width = 16): Column => ({ header, kind, value, width });

/** Aggregation columns, shown when the aggregation feature is on (spec section 2). */
const AGGREGATION_COLUMNS: Column[] = [
  col('Is Parent', 'text', (r) => r.isParentUIField),
  col('Aggreg Consol Key', 'text', (r) => r.group_key),
  col('Aggreg Consol Flag', 'text', (r) => r.aggreg_consol_flag),
  col('Needs rerun', 'bool', (r) => r.needs_rerun),
  col('Parent', 'number', (r) => r.parentId),
];

/** The export's columns in the spec's order. */
export function exportColumns(aggregation: boolean): Column[] {
  return [
    col('Administrator', 'text', (r) => r.administrator, 24),
    col('Country', 'text', (r) => r.country),
    col('Request date', 'date', (r) => r.requestDate),
    col('Period end', 'date', (r) => r.period_end),
    col('Status', 'text', (r) => r.statusLabel),
    col('Error flag', 'bool', (r) => r.hasErrors),
    col('Process status', 'text', (r) => r.processStatus),
    col('Data status', 'text', (r) => r.dataStatusUIField, 20),
    col('Work papers', 'text', (r) => r.workPaperStatusUIField, 20),
    col('Data Requested Status', 'text', (r) => r.dataRequestStatusLabel, 20),
    col('Self Onboarded', 'bool', (r) => r.selfOnboarded),
    col('Client', 'text', (r) => r.client, 28),
    col('Fund Name', 'text', (r) => r.name, 32),
    col('Fund Code', 'text', (r) => r.fundCode),
    col('Alternate Codes', 'text', (r) => r.alternateCodes.join(', '), 24),
    ...(aggregation ? AGGREGATION_COLUMNS : []),
    col('Currency', 'text', (r) => r.currency),
    col('Engagement Code', 'text', (r) => r.engagementCode),
    col('Accounting standard', 'text', (r) => r.accounting_standard),
    col('Group', 'text', (r) => r.group_key),
    col('PM', 'percent', (r) => r.PM, 10),
    col('TE', 'percent', (r) => r.TE, 10),
    col('SAD', 'percent', (r) => r.SAD, 10),
    col('Connected Audit', 'bool', (r) => r.connected_audit),
    col('RTT+', 'number', (r) => r.RTTPlus, 10),
    col('RTT-', 'number', (r) => r.RTTMinus, 10),
    col('GFIS Client Code', 'text', (r) => r.gfisClientCode),
    col('Output Type', 'text', (r) => r.outputType),
    col('NAV Close', 'date', (r) => r.navClose),
    col('Period Start', 'date', (r) => r.periodStart),
    col('Audit Start', 'date', (r) => r.auditStart),
    col('Data Due', 'date', (r) => r.dataDue),
    col('Fund structure', 'text', (r) => r.structure),
    col('External valuations', 'text', (r) => r.external_valuations),
    col('Price type 1', 'text', (r) => r.price_type_1),
    col('Price type 2', 'text', (r) => r.price_type_2),
    col('Price type 3', 'text', (r) => r.price_type_3),
    col('Price type 4', 'text', (r) => r.price_type_4),
    col('Price source 1', 'text', (r) => r.price_source_1),
    col('Price source 2', 'text', (r) => r.price_source_2),
    col('Price source 3', 'text', (r) => r.price_source_3),
    col('Notes', 'text', (r) => r.notes, 32),
    col('Created by', 'text', (r) => r.created_by, 20),
    col('Rerun Date', 'datetime', (r) => r.rerunDate, 20),
    col('Rerun by', 'text', (r) => r.rerun_by, 20),
    col('Rerun by role', 'text', (r) => r.rerun_by_role),
  ];
}

/** Text that a spreadsheet would read as a formula gets a leading quote. */
export function neutralise(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

const NUM_FMT: Partial<Record<Kind, string>> = { percent: '0.00%', date: 'dd/mm/yyyy', datetime: 'dd/mm/yyyy hh:mm:ss' };

/** A cell value of a column kind. */
function cellValue(kind: Kind, v: unknown): ExcelJS.CellValue {
  if (v === null || v === undefined || v === '') return null;
  switch (kind) {
    case 'number':
      return typeof v === 'number' ? v : Number.isFinite(Number(v)) ? Number(v) : neutralise(String(v));
    case 'percent':
      return typeof v === 'number' ? v / 100 : null;
    case 'bool':
      return v ? 'Yes' : 'No';
    case 'date':
    case 'datetime': {
      const s = String(v);
      const d = new Date(kind === 'date' || s.length <= 10 ? `${s.slice(0, 10)}T00:00:00Z` : s);
      return Number.isNaN(d.getTime()) ? neutralise(s) : d;
    }
    default:
      return neutralise(String(v));
  }
}

/** The query of an export: the listing's filters, search and sorting. */
export type ExportListingInput = Pick<ListingInput, 'filters' | 'sorting' | 'search' | 'filterId'>;

/** An exported listing: the workbook, its file name and the number of funds in it. */
export interface ExportedListing {
  bytes: Buffer;
  fileName: string;
  count: number;
}

/**
 * Writes the listing of a query to an xlsx workbook.
 * @returns the file bytes, its name ('fundrequests.xlsx') and the number of funds
 * @throws ValidationError for bad filters or sorting; NotFoundError for an unknown filterId
 */
export async function exportListing(ctx: AppContext, user: User | null, input: ExportListingInput = {}): Promise<ExportedListing> {
  heavyWork('the listing xlsx export');
  const q = await buildFundQuery(ctx, user, input);
  const ids = await queryFundIds(ctx, q.where, q.order);
  const columns = exportColumns(ctx.config.aggregation);
  const out = new PassThrough();
  const parts: Buffer[] = [];
  out.on('data', (chunk: Buffer) => parts.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    out.on('end', resolve);
    out.on('error', reject);
  });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Fund requests', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c, i) => ({ header: c.header, key: `c${i}`, width: c.width, style: NUM_FMT[c.kind] ? { numFmt: NUM_FMT[c.kind] } : {} }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  for (let i = 0; i < ids.length; i += 1000) {
    const chunk = ids.slice(i, i + 1000);
    const rows = await toListingRows(ctx, await withNames(ctx, await fundsByIds(ctx, chunk)));
    for (const r of rows) sheet.addRow(columns.map((c) => cellValue(c.kind, c.value(r)))).commit();
  }
  sheet.commit();
  await workbook.commit();
  await done;
  return { bytes: Buffer.concat(parts), fileName: EXPORT_FILE_NAME, count: ids.length };
}
