/**
 * Parsing and validation of a TPA's mapping csv files (DOMAIN.md 4): code mappings
 * (`source_code,target_code[,description]`) and file layouts (`FILE_LAYOUT_COLUMNS`), and the
 * compiled forms the pipeline uses (`Layout[]`, code maps). Pure: bytes in, rows and errors out.
 *
 * Validation errors are plain sentences starting with the 1-based line of the csv (`Line 5: ...`);
 * at most `maxErrors` (default 20) are kept and returned, `totalErrorsFound` counts them all (spec:
 * mapping validation result `totalErrorsFound`, `maxErrorsNo`). With `maxRows`, a file with more
 * data rows is refused after reading that many, before any row is checked.
 */
import { parse } from 'csv-parse/sync';
import { decodeText } from '../readers/encoding.js';
import { detectDelimiter } from '../readers/table.js';
import { DATE_FORMATS } from '../readers/values.js';
import { FILE_LAYOUT_COLUMNS, MAPPING_TARGETS, MAPPING_TYPES, SDM_COLUMNS, type MappingType, type SdmType } from '../sdm/model.js';

/** SDM types a file layout can describe (every type but `fund_request`). */
export type LayoutSdmType = Exclude<SdmType, 'fund_request'>;

/** One source column of a layout: where it goes and how its values are written. */
export interface LayoutColumn {
  /** Column name in the TPA's file, as written in the layout. */
  source: string;
  /** SDM column it maps to (`SDM_COLUMNS`). */
  sdmColumn: string;
  /** Date format of a date column (default `YYYY-MM-DD`); null on other columns. */
  dateFormat: string | null;
  decimalSeparator: '.' | ',';
  /** '' (none), ',', '.', ' ' or "'". */
  thousandsSeparator: string;
}

/** A TPA's layout of one SDM type (DOMAIN.md 4.1). */
export interface Layout {
  sdmType: LayoutSdmType;
  columns: LayoutColumn[];
}

/** A code mapping: lower-cased trimmed source code -> standard target. */
export type CodeMap = Map<string, { target: string; description: string | null }>;

/** Outcome of `parseMappingCsv` (spec: mapping validation result). */
export interface MappingParseResult {
  valid: boolean;
  /** Data rows keyed by lower-case column name, values trimmed (none when the file is invalid). */
  rows: Array<Record<string, string>>;
  /** The first `maxErrorsNo` errors, each naming its line. */
  errors: string[];
  totalErrorsFound: number;
  maxErrorsNo: number;
}

/** Key of a source code in a code map: trimmed, lower-cased. */
export const codeKey = (code: string): string => code.trim().toLowerCase();

const LAYOUT_TYPES = Object.keys(SDM_COLUMNS) as LayoutSdmType[];
const CODE_COLUMNS = ['source_code', 'target_code', 'description'] as const;
const THOUSANDS = new Map<string, string>([
  ['', ''],
  [',', ','],
  ['.', '.'],
  [' ', ' '],
  ['space', ' '],
  ["'", "'"],
]);

/** Mapping type named by a file name: `account_mapping.csv` -> `account_mapping`, else null. */
export function mappingTypeFromFileName(fileName: string): MappingType | null {
  const base = fileName.split(/[\\/]/).pop()!.trim().toLowerCase();
  const m = /^(.+)\.csv$/.exec(base);
  return m && (MAPPING_TYPES as readonly string[]).includes(m[1]) ? (m[1] as MappingType) : null;
}

/** Where validation errors go: the first `keep` are kept, every one is counted. */
interface ErrorSink {
  push(message: string): void;
}

/**
 * Parses and validates one mapping csv of a type.
 * @param type the mapping type the file is uploaded as
 * @param fileName for messages
 * @param bytes the csv (any encoding `decodeText` reads; `,` `;` tab or `|` delimited)
 * @param opts `maxErrors`: most errors kept and returned (default 20); `maxRows`: most data rows
 *   (default: no limit)
 */
export function parseMappingCsv(
  type: MappingType,
  fileName: string,
  bytes: Uint8Array,
  opts: { maxErrors?: number; maxRows?: number } = {},
): MappingParseResult {
  const maxErrorsNo = opts.maxErrors ?? 20;
  const kept: string[] = [];
  let total = 0;
  const errors: ErrorSink = {
    push: (message) => {
      total++;
      if (kept.length < maxErrorsNo) kept.push(message);
    },
  };
  const rows: Array<Record<string, string>> = [];
  const done = (): MappingParseResult => ({
    valid: total === 0,
    rows: total === 0 ? rows : [],
    errors: kept,
    totalErrorsFound: total,
    maxErrorsNo,
  });

  const { text } = decodeText(bytes);
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(text.replace(/\r\n?/g, '\n'), {
      delimiter: detectDelimiter(text),
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
      // the header and one row past the limit are enough to refuse a longer file
      ...(opts.maxRows ? { to: opts.maxRows + 2 } : {}),
    }) as unknown as typeof records;
  } catch (err) {
    errors.push(`${fileName} is not a readable csv: ${(err as Error).message}`);
    return done();
  }
  if (opts.maxRows && records.length > opts.maxRows + 1) {
    errors.push(`${fileName} has more than ${opts.maxRows} rows, the most a mapping file may have (setting maxUploadRows)`);
    return done();
  }
  const lineOf = (r: { record: string[]; info: { lines: number } }) => r.info.lines - r.record.reduce((n, v) => n + (v.split('\n').length - 1), 0);
  const nonBlank = records.filter((r) => r.record.some((v) => v.trim() !== ''));
  if (!nonBlank.length) {
    errors.push(
      `Line 1: ${fileName} is empty (expected a header ${type === 'file_layout' ? FILE_LAYOUT_COLUMNS.join(',') : 'source_code,target_code[,description]'})`,
    );
    return done();
  }
  const header = nonBlank[0].record.map((h) => h.trim().toLowerCase().replace(/\s+/g, '_'));
  const expected: readonly string[] = type === 'file_layout' ? FILE_LAYOUT_COLUMNS : CODE_COLUMNS.slice(0, 2);
  const missing = expected.filter((c) => !header.includes(c));
  if (missing.length) {
    errors.push(
      `Line ${lineOf(nonBlank[0])}: missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (expected columns: ${type === 'file_layout' ? FILE_LAYOUT_COLUMNS.join(',') : 'source_code,target_code[,description]'})`,
    );
    return done();
  }
  const known = type === 'file_layout' ? FILE_LAYOUT_COLUMNS : CODE_COLUMNS;
  const width = header.length - [...header].reverse().findIndex((h) => h !== '');
  const lines: number[] = [];
  for (const r of nonBlank.slice(1)) {
    const line = lineOf(r);
    const extra = r.record.slice(width).filter((v) => v.trim() !== '');
    if (extra.length) errors.push(`Line ${line}: ${r.record.length} fields where the header has ${width} (quote values that contain the delimiter)`);
    const row: Record<string, string> = {};
    for (const c of known) {
      const i = header.indexOf(c);
      const raw = i >= 0 ? (r.record[i] ?? '') : '';
      row[c] = c === 'thousands_separator' && raw !== '' && raw.trim() === '' ? ' ' : raw.trim();
    }
    rows.push(row);
    lines.push(line);
  }
  if (type === 'file_layout') validateLayoutRows(rows, lines, errors);
  else validateCodeRows(type, rows, lines, errors);
  return done();
}

function validateCodeRows(type: Exclude<MappingType, 'file_layout'>, rows: Array<Record<string, string>>, lines: number[], errors: ErrorSink): void {
  const allowed = new Map(MAPPING_TARGETS[type].map((t) => [t.toUpperCase(), t]));
  const seen = new Map<string, number>();
  rows.forEach((row, i) => {
    const line = lines[i];
    if (!row.source_code) errors.push(`Line ${line}: source_code is empty`);
    else {
      const key = codeKey(row.source_code);
      const first = seen.get(key);
      if (first !== undefined) errors.push(`Line ${line}: source_code '${row.source_code}' is a duplicate of line ${first}`);
      else seen.set(key, line);
    }
    if (!row.target_code) errors.push(`Line ${line}: target_code is empty`);
    else {
      const canonical = allowed.get(row.target_code.toUpperCase());
      if (canonical) row.target_code = canonical;
      else errors.push(`Line ${line}: target_code '${row.target_code}' is not a valid ${type} target (allowed: ${MAPPING_TARGETS[type].join(', ')})`);
    }
  });
}

function validateLayoutRows(rows: Array<Record<string, string>>, lines: number[], errors: ErrorSink): void {
  const mapped = new Map<LayoutSdmType, { firstLine: number; columns: Map<string, number> }>();
  rows.forEach((row, i) => {
    const line = lines[i];
    const type = row.sdm_type as LayoutSdmType;
    if (!row.sdm_type) return void errors.push(`Line ${line}: sdm_type is empty`);
    if (!LAYOUT_TYPES.includes(type)) return void errors.push(`Line ${line}: sdm_type '${row.sdm_type}' is not an SDM type (${LAYOUT_TYPES.join(', ')})`);
    const entry = mapped.get(type) ?? { firstLine: line, columns: new Map<string, number>() };
    mapped.set(type, entry);
    if (!row.source_column) errors.push(`Line ${line}: source_column is empty`);
    const col = SDM_COLUMNS[type].find((c) => c.name === row.sdm_column);
    if (!row.sdm_column) errors.push(`Line ${line}: sdm_column is empty`);
    else if (!col) errors.push(`Line ${line}: sdm_column '${row.sdm_column}' is not a ${type} column (${SDM_COLUMNS[type].map((c) => c.name).join(', ')})`);
    else if (entry.columns.has(col.name)) errors.push(`Line ${line}: ${type} column ${col.name} is already mapped on line ${entry.columns.get(col.name)}`);
    else entry.columns.set(col.name, line);
    if (row.date_format && !(DATE_FORMATS as readonly string[]).includes(row.date_format.toUpperCase())) {
      errors.push(`Line ${line}: date_format '${row.date_format}' is not one of ${DATE_FORMATS.join(', ')}`);
    }
    if (row.decimal_separator && row.decimal_separator !== '.' && row.decimal_separator !== ',') {
      errors.push(`Line ${line}: decimal_separator '${row.decimal_separator}' must be '.' or ','`);
    }
    const th = THOUSANDS.get(row.thousands_separator.toLowerCase());
    if (th === undefined) errors.push(`Line ${line}: thousands_separator '${row.thousands_separator}' must be empty, ',', '.', ' ' (space) or "'"`);
    else if (th && th === (row.decimal_separator || '.')) errors.push(`Line ${line}: thousands_separator and decimal_separator are both '${th}'`);
  });
  for (const [type, { firstLine, columns }] of mapped) {
    for (const c of SDM_COLUMNS[type]) {
      if (c.required && !columns.has(c.name))
        errors.push(`Line ${firstLine}: the ${type} layout (from this line) maps no source column to the required SDM column ${c.name}`);
    }
  }
}

/**
 * Compiles validated `file_layout` rows into one layout per SDM type (in order of first
 * appearance). Rows with an unknown sdm_type or sdm_column are skipped. Date columns default to
 * `YYYY-MM-DD`, number columns to `.` decimals and no thousands separator.
 */
export function buildLayouts(fileLayoutRows: Array<Record<string, string>>): Layout[] {
  const out = new Map<LayoutSdmType, Layout>();
  for (const row of fileLayoutRows) {
    const type = String(row.sdm_type ?? '').trim() as LayoutSdmType;
    const col = LAYOUT_TYPES.includes(type) ? SDM_COLUMNS[type].find((c) => c.name === String(row.sdm_column ?? '').trim()) : undefined;
    const source = String(row.source_column ?? '').trim();
    if (!col || !source) continue;
    const layout = out.get(type) ?? { sdmType: type, columns: [] };
    out.set(type, layout);
    const th = THOUSANDS.get(String(row.thousands_separator ?? '').toLowerCase()) ?? THOUSANDS.get(String(row.thousands_separator ?? '').trim()) ?? '';
    layout.columns.push({
      source,
      sdmColumn: col.name,
      dateFormat:
        col.kind === 'date'
          ? String(row.date_format ?? '')
              .trim()
              .toUpperCase() || 'YYYY-MM-DD'
          : null,
      decimalSeparator: String(row.decimal_separator ?? '').trim() === ',' ? ',' : '.',
      thousandsSeparator: th,
    });
  }
  return [...out.values()];
}

/** Compiles validated code mapping rows: lower-cased trimmed source code -> target, description. */
export function buildCodeMap(rows: Array<Record<string, string>>): CodeMap {
  const map: CodeMap = new Map();
  for (const row of rows) {
    const source = String(row.source_code ?? '').trim();
    const target = String(row.target_code ?? '').trim();
    if (!source || !target || map.has(codeKey(source))) continue;
    const description = String(row.description ?? '').trim();
    map.set(codeKey(source), { target, description: description || null });
  }
  return map;
}
