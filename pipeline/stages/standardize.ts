/**
 * Standardization (DOMAIN.md 2.3): turns an identified table into typed SDM rows
 * (`pipeline/sdm/rows.ts`) through the TPA's layout and the fund's code mappings, with the
 * validation results the spec shows: QA_Mapping entries (codes not in a mapping) and row errors
 * (unparseable numbers or dates, missing required values), each with the file's line number and the
 * source column name. Any of them makes the file Invalid.
 *
 * - Columns are renamed by the layout (header names compared as in identification).
 * - Numbers: by the column's decimal and thousands separators, `(1)` and `1-` negatives, spaces and
 *   currency symbols stripped; xlsx numbers kept. Dates: by the column's format; xlsx Dates kept.
 * - Codes: `account_mapping` -> `standard_account`, `instrument_mapping` -> `standard_instrument`,
 *   `transaction_mapping` -> `standard_transaction`, `share_capital_mapping` -> `standard_activity`;
 *   lookup is trimmed and case-insensitive. An unmapped code leaves the standard field null.
 * - A row with an error in a required column is left out of `rows` (it cannot be a typed SDM row);
 *   an unparseable optional value is reported and left null.
 * - A required column the layout leaves out because it maps its `requiredUnless` alternative
 *   (`pipeline/sdm/model.ts`) is derived from it, and the alternative is then required: an FX
 *   table's `units_per_base` = 1 / `base_per_unit`; a holding's `market_value_base` is left null
 *   here and converted with the fund's FX table by the standardization job (`pipeline/fx/convert.ts`).
 * - FX table rows: currency codes upper case, a rate must be a positive number.
 * Single pass, one object per row: use `createStandardizer` to feed rows from a stream.
 */
import type { CodeMap, Layout } from '../mappings/parse.js';
import type { RawRow, RawTable } from '../readers/table.js';
import { cellText, dateParser, numberParser, showCell, type Cell, type NumberFormat, type Parsed } from '../readers/values.js';
import { CODE_MAPPING_COLUMN, requiredColumns, SDM_COLUMNS, type MappingType, type SdmType } from '../sdm/model.js';
import type { FxTableRow, HoldingRow, PriceRow, QaMapping, RowError, ShareCapitalRow, TrialBalanceRow, TransactionRow } from '../sdm/rows.js';
import { headerIndex, normalizeColumnName } from './identify.js';

/** Any typed SDM row. */
export type SdmRow = TrialBalanceRow | HoldingRow | TransactionRow | ShareCapitalRow | PriceRow | FxTableRow;

/** Code maps by mapping type (`buildCodeMap`). */
export type CodeMaps = Partial<Record<MappingType, CodeMap>>;

/** Outcome of standardizing one table. */
export interface StandardizeResult {
  rows: SdmRow[];
  errors: RowError[];
  qaMapping: QaMapping[];
  validationStatus: 'Valid' | 'Invalid';
}

/** Field each code mapping type fills. */
export const STANDARD_FIELD: Record<Exclude<MappingType, 'file_layout'>, string> = {
  account_mapping: 'standard_account',
  instrument_mapping: 'standard_instrument',
  transaction_mapping: 'standard_transaction',
  share_capital_mapping: 'standard_activity',
};

interface Plan {
  name: string;
  kind: 'text' | 'number' | 'date';
  required: boolean;
  at: number;
  source: string;
  fmt: NumberFormat;
  dateFormat: string | null;
  /** The number or date parser of the column (null for text). */
  parse: ((cell: Cell | undefined) => Parsed<number | string>) | null;
  code: { type: Exclude<MappingType, 'file_layout'>; field: string; map: CodeMap | undefined } | null;
}

/** A row-by-row standardizer of one table. */
export interface Standardizer {
  /** Standardizes one raw row: the SDM row, or null when a required value is missing or bad. */
  add(row: RawRow): SdmRow | null;
  /** Row errors and QA_Mapping entries so far, and the validation status. */
  finish(): Omit<StandardizeResult, 'rows'>;
}

/**
 * Prepares standardization of rows under a header.
 * @param opts `file` (for `file` on rows and errors), `header`, `headerLine`, the `layout` of
 *   `sdmType`, the fund's `codeMaps`
 * @throws Error for `fund_request` (not a layout type)
 */
export function createStandardizer(opts: {
  file: string;
  header: string[];
  headerLine: number;
  layout: Layout;
  sdmType: SdmType;
  codeMaps: CodeMaps;
}): Standardizer {
  const { file, sdmType } = opts;
  if (sdmType === 'fund_request') throw new Error('fund_request files are not standardized by a layout');
  const index = headerIndex(opts.header);
  const errors: RowError[] = [];
  const codeType = (Object.keys(CODE_MAPPING_COLUMN) as Array<keyof typeof CODE_MAPPING_COLUMN>).find((t) => CODE_MAPPING_COLUMN[t].sdmType === sdmType);
  // required columns the layout derives from their alternative, and those alternatives (then required)
  const mappedNames = opts.layout.columns.map((l) => l.sdmColumn);
  const required = new Set(requiredColumns(sdmType, mappedNames).map((c) => c.name));
  const derived = SDM_COLUMNS[sdmType].filter((c) => c.required && !required.has(c.name) && c.requiredUnless);
  for (const c of derived) required.add(c.requiredUnless as string);
  const plans: Plan[] = SDM_COLUMNS[sdmType].map((col) => {
    const c = { ...col, required: required.has(col.name) };
    const lc =
      opts.layout.columns.find((l) => l.sdmColumn === c.name && index.has(normalizeColumnName(l.source))) ??
      opts.layout.columns.find((l) => l.sdmColumn === c.name);
    const at = lc ? (index.get(normalizeColumnName(lc.source)) ?? -1) : -1;
    if (c.required && at < 0) {
      errors.push({
        file,
        line: opts.headerLine,
        column: lc?.source ?? c.name,
        error: lc
          ? `Required column ${lc.source} (${c.name}) is not in the file's header`
          : `The ${sdmType} layout maps no column to the required SDM column ${c.name}`,
      });
    }
    const code =
      codeType && CODE_MAPPING_COLUMN[codeType].column === c.name ? { type: codeType, field: STANDARD_FIELD[codeType], map: opts.codeMaps[codeType] } : null;
    const fmt: NumberFormat = { decimalSeparator: lc?.decimalSeparator ?? '.', thousandsSeparator: lc?.thousandsSeparator ?? '' };
    const dateFormat = lc?.dateFormat ?? null;
    const parse = c.kind === 'number' ? numberParser(fmt) : c.kind === 'date' ? dateParser(dateFormat) : null;
    return { name: c.name, kind: c.kind, required: c.required, at, source: lc?.source ?? c.name, code, fmt, dateFormat, parse };
  });
  const unusable = errors.length > 0;
  const unmapped = new Map<string, QaMapping>();

  const add = (row: RawRow): SdmRow | null => {
    if (unusable) return null;
    const out: Record<string, unknown> = { file, line: row.line };
    let ok = true;
    for (const p of plans) {
      const cell: Cell | undefined = p.at >= 0 ? row.cells[p.at] : null;
      let value: string | number | null;
      let problem: string | null = null;
      if (p.parse === null) value = cellText(cell);
      else {
        const parsed = p.parse(cell);
        value = parsed.ok ? parsed.value : null;
        if (!parsed.ok) {
          problem = `Unparseable ${p.kind} ${showCell(cell as Cell)} in ${p.required ? 'required ' : ''}column ${p.name}${p.kind === 'date' ? ` (expected ${p.dateFormat ?? 'YYYY-MM-DD'})` : ''}`;
        }
      }
      if (!problem && value === null && p.required) problem = `Missing value in required column ${p.name}`;
      if (problem) {
        errors.push({ file, line: row.line, column: p.source, error: problem });
        if (p.required) ok = false;
      }
      out[p.name] = value;
      if (p.code) {
        let target: string | null = null;
        if (typeof value === 'string') {
          const key = value.toLowerCase();
          const hit = p.code.map?.get(key);
          if (hit) target = hit.target;
          else {
            const qa = unmapped.get(key);
            if (qa) qa.lines.push(row.line);
            else unmapped.set(key, { name: value, column: p.source, file, error: `'${value}' is not in the ${p.code.type} of this TPA`, lines: [row.line] });
          }
        }
        out[p.code.field] = target;
      }
    }
    if (ok && sdmType === 'fx_rates') ok = fxTableRow(out, row.line);
    return ok ? (out as unknown as SdmRow) : null;
  };

  const sourceOf = (name: string) => plans.find((p) => p.name === name)?.source ?? name;
  /** An FX table row made whole: codes upper case, the rate per base derived, both rates positive. */
  const fxTableRow = (out: Record<string, unknown>, line: number): boolean => {
    out.currency = String(out.currency).trim().toUpperCase();
    if (typeof out.base_currency === 'string') out.base_currency = out.base_currency.trim().toUpperCase() || null;
    for (const name of ['units_per_base', 'base_per_unit']) {
      const v = out[name];
      if (typeof v === 'number' && !(v > 0)) {
        errors.push({ file, line, column: sourceOf(name), error: `Rate ${v} in column ${name} is not a positive number` });
        return false;
      }
    }
    if (out.units_per_base === null && typeof out.base_per_unit === 'number') out.units_per_base = 1 / out.base_per_unit;
    return true;
  };

  const finish = (): Omit<StandardizeResult, 'rows'> => {
    const qaMapping = [...unmapped.values()];
    return { errors, qaMapping, validationStatus: errors.length || qaMapping.length ? 'Invalid' : 'Valid' };
  };
  return { add, finish };
}

/**
 * Standardizes an identified table (or the part of it given as `rows`, any iterable).
 * @param input `table` (file, header, headerLine and rows), optional `rows` subset (e.g. one fund's
 *   part from `splitByFund`), the `layout` of `sdmType`, the fund's `codeMaps`
 * @returns typed SDM rows (money as in the file, dates ISO), row errors, QA_Mapping entries, status
 */
export function standardizeTable(input: {
  table: Pick<RawTable, 'file' | 'header' | 'headerLine'> & { rows?: Iterable<RawRow> };
  rows?: Iterable<RawRow>;
  layout: Layout;
  sdmType: SdmType;
  codeMaps: CodeMaps;
}): StandardizeResult {
  const std = createStandardizer({
    file: input.table.file,
    header: input.table.header,
    headerLine: input.table.headerLine,
    layout: input.layout,
    sdmType: input.sdmType,
    codeMaps: input.codeMaps,
  });
  const rows: SdmRow[] = [];
  for (const raw of input.rows ?? input.table.rows ?? []) {
    const r = std.add(raw);
    if (r) rows.push(r);
  }
  return { rows, ...std.finish() };
}
