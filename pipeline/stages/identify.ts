/**
 * Identification (DOMAIN.md 2.2): which SDM type a table is, by the TPA's file layouts, and which
 * fund each of its rows belongs to. Pure: tables and layouts in, decisions out (fund requests are
 * matched by the caller, `pipeline/jobs/identification.ts`).
 *
 * Column names are compared case-, space- and punctuation-insensitively (`normalizeColumnName`).
 * `column_match_percent` of a layout = share of its source columns that map to REQUIRED SDM
 * columns (DOMAIN.md 3, `*`) found in the header, 0-100 with one decimal. The best layout at 100%
 * wins (most layout columns present, then fewest header columns the layout does not explain, then
 * layout order); below 100% everywhere the table is unidentified.
 */
import type { Layout } from '../mappings/parse.js';
import type { RawRow, RawTable } from '../readers/table.js';
import { dateParser, isEmptyCell } from '../readers/values.js';
import { requiredColumns, type SdmType } from '../sdm/model.js';

/** Outcome of identifying one table. */
export interface Identification {
  /** The winning layout's SDM type, null when unidentified. */
  sdmType: SdmType | null;
  /** The winning layout (null when unidentified). */
  layout: Layout | null;
  /** SDM column -> index in `table.header`, for the layout's columns found (winner or closest). */
  layoutColumns: Record<string, number>;
  /** Of the winner (100) or of the closest layout; 0 when the TPA has no layouts. */
  columnMatchPercent: number;
  /** SDM type of the closest layout when unidentified (null when identified or no layouts). */
  closestMatch: string | null;
  /** Source names of the closest layout's required columns missing from the header. */
  columnsMissing: string[];
  /** `UNIDENTIFIED` when no layout matches at 100%. */
  error_code: 'UNIDENTIFIED' | null;
  error_message: string | null;
}

/** Per-sheet error of an unidentified file (spec: Input files, Unidentified tab). */
export interface UnidentifiedSheetError {
  /** Worksheet name, or the file name for CSV. */
  sheet_name: string;
  error_code: string;
  error_message: string;
  columns_missing: string[];
  closest_match: string | null;
  column_match_percent: number;
}

/** A column name reduced for comparison: lower case, letters and digits only (`Market Value (Base)` -> `marketvaluebase`). */
export function normalizeColumnName(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Normalized header name -> first index. */
export function headerIndex(header: string[]): Map<string, number> {
  const out = new Map<string, number>();
  header.forEach((h, i) => {
    const k = normalizeColumnName(h);
    if (k && !out.has(k)) out.set(k, i);
  });
  return out;
}

interface Score {
  layout: Layout;
  percent: number;
  present: number;
  unexplained: number;
  columns: Record<string, number>;
  missing: string[];
}

function score(layout: Layout, index: Map<string, number>, headerWidth: number): Score {
  const required = new Set(
    requiredColumns(
      layout.sdmType,
      layout.columns.map((c) => c.sdmColumn),
    ).map((c) => c.name),
  );
  const columns: Record<string, number> = {};
  const missing: string[] = [];
  let requiredTotal = 0;
  let requiredFound = 0;
  for (const c of layout.columns) {
    const at = index.get(normalizeColumnName(c.source));
    if (at !== undefined && !(c.sdmColumn in columns)) columns[c.sdmColumn] = at;
    if (!required.has(c.sdmColumn)) continue;
    requiredTotal++;
    if (at !== undefined) requiredFound++;
    else missing.push(c.source);
  }
  const present = Object.keys(columns).length;
  const percent = requiredTotal ? Math.round((requiredFound / requiredTotal) * 1000) / 10 : 0;
  return { layout, percent, present, unexplained: headerWidth - new Set(Object.values(columns)).size, columns, missing };
}

/**
 * Finds the SDM type of a table by the TPA's layouts.
 * @param table a table from `readTables`
 * @param layouts the TPA's layouts (`buildLayouts`)
 * @returns the winner at 100%, or the closest layout with the required columns it misses and the
 *   `UNIDENTIFIED` error
 */
export function identifyTable(table: Pick<RawTable, 'header'>, layouts: Layout[]): Identification {
  const index = headerIndex(table.header);
  const scores = layouts.map((l) => score(l, index, index.size));
  const better = (a: Score, b: Score) =>
    a.percent > b.percent || (a.percent === b.percent && (a.present > b.present || (a.present === b.present && a.unexplained < b.unexplained)));
  let best: Score | null = null;
  for (const s of scores) if (!best || better(s, best)) best = s;
  if (best && best.percent === 100) {
    return {
      sdmType: best.layout.sdmType,
      layout: best.layout,
      layoutColumns: best.columns,
      columnMatchPercent: 100,
      closestMatch: null,
      columnsMissing: [],
      error_code: null,
      error_message: null,
    };
  }
  const message = best
    ? `No file layout of the TPA matches: closest is ${best.layout.sdmType} (${best.percent}%), missing ${best.missing.join(', ')}`
    : 'No file layout of the TPA matches: the TPA has no file layouts';
  return {
    sdmType: null,
    layout: null,
    layoutColumns: best?.columns ?? {},
    columnMatchPercent: best?.percent ?? 0,
    closestMatch: best?.layout.sdmType ?? null,
    columnsMissing: best?.missing ?? [],
    error_code: 'UNIDENTIFIED',
    error_message: message,
  };
}

/** The Unidentified-tab error of a table that was not identified (`sheet_name` = sheet, else file name). */
export function unidentifiedError(table: Pick<RawTable, 'file' | 'sheetName'>, idf: Identification): UnidentifiedSheetError {
  return {
    sheet_name: table.sheetName ?? table.file,
    error_code: idf.error_code ?? 'UNIDENTIFIED',
    error_message: idf.error_message ?? 'No file layout of the TPA matches',
    columns_missing: idf.columnsMissing,
    closest_match: idf.closestMatch,
    column_match_percent: idf.columnMatchPercent,
  };
}

/** The rows of one fund code in a table. */
export interface FundPart {
  /** Trimmed fund code; '' for a table without a fund_code column (prices) or rows whose code is empty. */
  fundCode: string;
  /** Most common as-of date of the part (`as_of` or `price_date`, ISO), null when none parses. */
  asOf: string | null;
  rows: RawTable['rows'];
  /** Why the part has no fund code (absent for parts with one). */
  note?: string;
}

/** A fund code's share of a table, counted as its rows go by (`createFundSplitter`). */
export interface FundPartSummary extends Omit<FundPart, 'rows'> {
  rowCount: number;
}

/** Sorts rows into fund parts one at a time (see `splitByFund` for the rules). */
export interface FundSplitter {
  /** The fund code the row belongs to ('' for none); its as-of date is counted. */
  add(row: RawRow): string;
  /** The parts so far, in order of first appearance. */
  parts(): FundPartSummary[];
}

/** Lines named in the note of rows without a fund code. */
const NOTE_LINES = 20;

/**
 * Sorts an identified table's rows into fund parts as they are read, keeping per part only its
 * count, its dates' counts and (for rows without a code) the first lines: memory does not grow
 * with the table.
 * @throws Error when the identification has no layout
 */
export function createFundSplitter(idf: Identification): FundSplitter {
  if (!idf.layout) throw new Error('splitByFund needs an identified table');
  const layout = idf.layout;
  const dateColumn = 'as_of' in idf.layoutColumns ? 'as_of' : 'price_date' in idf.layoutColumns ? 'price_date' : null;
  const dateAt = dateColumn ? idf.layoutColumns[dateColumn] : -1;
  const dateFormat = dateColumn ? (layout.columns.find((c) => c.sdmColumn === dateColumn)?.dateFormat ?? null) : null;
  const parseDate = dateParser(dateFormat);
  const fundAt = 'fund_code' in idf.layoutColumns ? idf.layoutColumns.fund_code : -1;
  const groups = new Map<string, { count: number; lines: number[]; dates: Map<string, number> }>();
  return {
    add(row) {
      const cell = fundAt >= 0 ? row.cells[fundAt] : null;
      const code = fundAt >= 0 && !isEmptyCell(cell) ? String(cell instanceof Date ? cell.toISOString() : cell).trim() : '';
      let g = groups.get(code);
      if (!g) groups.set(code, (g = { count: 0, lines: [], dates: new Map() }));
      g.count++;
      if (!code && g.lines.length < NOTE_LINES) g.lines.push(row.line);
      if (dateAt >= 0) {
        const d = parseDate(row.cells[dateAt]);
        if (d.ok && d.value) g.dates.set(d.value, (g.dates.get(d.value) ?? 0) + 1);
      }
      return code;
    },
    parts() {
      const parts: FundPartSummary[] = [];
      for (const [fundCode, g] of groups) {
        let asOf: string | null = null;
        let n = 0;
        for (const [d, c] of g.dates) if (c > n || (c === n && asOf !== null && d > asOf)) [asOf, n] = [d, c];
        const part: FundPartSummary = { fundCode, asOf, rowCount: g.count };
        if (!fundCode) {
          part.note =
            fundAt < 0
              ? 'The file has no fund code column: its rows belong to the fund(s) of the other files of the delivery'
              : `${g.count} row${g.count > 1 ? 's' : ''} without a fund code, on line${g.count > 1 ? 's' : ''} ${g.lines.join(', ')}${g.count > NOTE_LINES ? ', ...' : ''}`;
        }
        parts.push(part);
      }
      return parts;
    },
  };
}

/**
 * Splits an identified table's rows by fund code (trimmed, in order of first appearance).
 *
 * - A table without a fund_code column (prices) is one part with fundCode '': it belongs to the
 *   fund(s) of the other files of the same delivery, which the caller decides.
 * - Rows with an empty fund code are not dropped: they form a part with fundCode '' and a `note`
 *   listing their lines; standardization then reports each one (fund_code is required).
 * - asOf: the most common date of the part's `as_of` (or `price_date`) column, parsed with the
 *   layout's date format (ties: the latest date); trade-dated types (transactions) give null.
 * @throws Error when the identification has no layout
 */
export function splitByFund(table: Pick<RawTable, 'rows'>, idf: Identification): FundPart[] {
  const splitter = createFundSplitter(idf);
  const rows = new Map<string, RawRow[]>();
  for (const row of table.rows) {
    const code = splitter.add(row);
    const list = rows.get(code);
    if (list) list.push(row);
    else rows.set(code, [row]);
  }
  return splitter.parts().map(({ rowCount: _, ...p }) => ({ ...p, rows: rows.get(p.fundCode)! }));
}
