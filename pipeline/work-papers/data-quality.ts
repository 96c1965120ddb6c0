/**
 * What a work paper says about the data behind its figures: the mapping versions the
 * standardization applied (named in the Summary), whether the standardization was complete (an
 * Invalid file makes the overall outcome 'Incomplete data', never PASS or WARNING), each unmapped
 * code and row error as an exception with its file, line and column, and checks that could not be
 * performed shown NOT PERFORMED with their reason.
 */
import type { UnappliedLine } from '../adjustments/unapplied.js';
import type { QaMapping, QaRec, RowError } from '../sdm/rows.js';
import { skippedSheetsText, type SkippedSheet } from '../../rules/files.js';
import type { SheetWriter } from './sheet-writer.js';

/** A mapping version a standardization applied (as the standardization file records it). */
export interface MappingUsed {
  type: string;
  id: number;
  kind: 'master' | 'custom';
  description: string;
  version: number;
  sha256: string;
}

/** The standardization outcome of one current input file. */
export interface StandardizedFile {
  file: string;
  sdmType: string;
  validationStatus: string;
  qaMapping: QaMapping[];
  rowErrors: RowError[];
  /** Row errors found (`rowErrors` may hold only the first ones). */
  rowErrorsTotal: number;
  /** The other sheets of the workbook the file came from that no file layout matched (not used). */
  skippedSheets?: SkippedSheet[];
}

/** The overall outcome when a standardization is Invalid. */
export const INCOMPLETE_DATA = 'Incomplete data';
export const NOT_PERFORMED = 'NOT PERFORMED';

/** Invalid files among the standardized ones. */
export const invalidFiles = (files: StandardizedFile[] | undefined) => (files ?? []).filter((f) => f.validationStatus !== 'Valid');

/**
 * The overall status text: 'Incomplete data' when any standardization is Invalid or an audit
 * adjustment line does not fit the fund's data (`unapplied`), else the checks' worst status.
 */
export function overallStatusText(status: QaRec['status'], files: StandardizedFile[] | undefined, unapplied: readonly UnappliedLine[] = []): string {
  return invalidFiles(files).length || unapplied.length ? INCOMPLETE_DATA : status.toUpperCase();
}

/** Summary row: the audit adjustment lines that do not fit the fund's data, when there are any. */
export function writeUnappliedSummary(s: Pick<SheetWriter, 'row'>, unapplied: readonly UnappliedLine[]): void {
  if (!unapplied.length) return;
  s.row([
    'Audit adjustments',
    'Incomplete data',
    null,
    null,
    null,
    null,
    null,
    `${unapplied.length} adjustment line(s) do not fit the fund's data: ${unapplied.map((u) => u.reason).join('; ')}. See Exceptions.`,
  ]);
}

/**
 * Exceptions rows for the audit adjustment lines that do not fit the fund's data (file `Adjustment
 * #<id>`, prefixed with the child's fund code for a child's line in a parent's work paper; line =
 * the adjustment's line). Columns as `writeDataExceptions`. @returns the rows written
 */
export function writeUnappliedExceptions(s: Pick<SheetWriter, 'row'>, unapplied: readonly UnappliedLine[]): number {
  for (const u of unapplied)
    s.row([
      'Audit adjustments',
      u.securityId ? `Security ${u.securityId}` : `Account ${u.account}`,
      INCOMPLETE_DATA.toUpperCase(),
      null,
      null,
      u.reason,
      `${u.fundCode ? `${u.fundCode}: ` : ''}Adjustment #${u.adjustment}`,
      [u.line, 'int'],
      u.securityId ? 'securityId' : 'account',
    ]);
  return unapplied.length;
}

/** An item's status text: NOT PERFORMED for a check that could not be performed. */
export function itemStatusText(it: Pick<QaRec, 'status' | 'notPerformed'>): string {
  return it.notPerformed ? NOT_PERFORMED : it.status.toUpperCase();
}

/** An item's Difference cell: empty for a check that could not be performed (it measured nothing, which is not a nil difference). */
export function itemDifference(it: Pick<QaRec, 'diff' | 'notPerformed'>): number | null {
  return it.notPerformed ? null : it.diff;
}

/**
 * Counts of items by status (the overall status is the worst of them), and how many of them could
 * not be performed: a check not performed keeps its status (a warning, or a fail where data the
 * check needs is missing), so that the counts and the overall status always agree.
 */
export function outcomeCounts(items: QaRec[]): { pass: number; warning: number; fail: number; notPerformed: number } {
  const out = { pass: 0, warning: 0, fail: 0, notPerformed: 0 };
  for (const it of items) {
    out[it.status]++;
    if (it.notPerformed) out.notPerformed++;
  }
  return out;
}

/** The Summary's counts row: label and value (`7 / 9 / 0, of which 1 not performed`). */
export function outcomeCountsRow(items: QaRec[]): [string, string] {
  const c = outcomeCounts(items);
  return ['Items passed / warnings / failed', `${c.pass} / ${c.warning} / ${c.fail}${c.notPerformed ? `, of which ${c.notPerformed} not performed` : ''}`];
}

/** Summary rows: the standardization's completeness and every mapping version applied. */
export function writeDataSummary(s: SheetWriter, files: StandardizedFile[] | undefined, mappings: MappingUsed[] | undefined): void {
  const invalid = invalidFiles(files);
  if (files?.length) {
    s.row([
      'Standardization',
      invalid.length ? 'Invalid' : 'Valid',
      null,
      null,
      null,
      null,
      null,
      invalid.length
        ? `Incomplete data: ${invalid
            .map((f) => `${f.file} (${f.sdmType}): ${f.qaMapping.length} unmapped code(s), ${f.rowErrorsTotal} row error(s)`)
            .join('; ')}. The checks below ran on incomplete data; see Exceptions.`
        : `${files.length} file(s) standardized with no unmapped code and no row error`,
    ]);
    // a workbook's sheets no layout matched ('Read Me', notes): named, so that nothing delivered goes unmentioned
    const skipped = new Map<string, SkippedSheet[]>();
    for (const f of files) if (f.skippedSheets?.length) skipped.set(f.file.replace(/#[^#]*$/, ''), f.skippedSheets);
    const count = [...skipped.values()].reduce((n, sheets) => n + sheets.length, 0);
    if (count)
      s.row([
        'Sheets not used',
        `${count} sheet(s)`,
        null,
        null,
        null,
        null,
        null,
        [...skipped].map(([workbook, sheets]) => `${workbook}: ${skippedSheetsText(sheets)}`).join('. '),
      ]);
  }
  s.blank();
  s.row(['Mappings applied', 'Name', 'Version', null, 'Kind', null, null, 'Content (sha256)'], true);
  if (!mappings?.length) s.row(['(none recorded)']);
  for (const m of [...(mappings ?? [])].sort((a, b) => a.type.localeCompare(b.type)))
    s.row([m.type, m.description, [m.version, 'int'], null, m.kind, null, null, `mapping id ${m.id}, version ${m.version}, sha256 ${m.sha256}`]);
}

/**
 * Exceptions rows for the standardization: each unmapped code (its first line, every line in the
 * message) and each row error, with file, line and column. Columns: Check, Item, Status,
 * Difference, Threshold, Message, File, Line, Column.
 * @returns the number of rows written
 */
export function writeDataExceptions(s: Pick<SheetWriter, 'row'>, files: StandardizedFile[] | undefined): number {
  let n = 0;
  for (const f of invalidFiles(files)) {
    for (const q of f.qaMapping) {
      const lines = q.lines.length > 20 ? `${q.lines.slice(0, 20).join(', ')} and ${q.lines.length - 20} more` : q.lines.join(', ');
      s.row([
        'Standardization',
        `Unmapped code ${q.name}`,
        INCOMPLETE_DATA.toUpperCase(),
        null,
        null,
        `${q.error}: code '${q.name}' in column ${q.column} (${f.sdmType}) has no mapping; line(s) ${lines} have no standard value, so the checks could not classify them`,
        q.file || f.file,
        [q.lines[0], 'int'],
        q.column,
      ]);
      n++;
    }
    for (const e of f.rowErrors) {
      s.row(['Standardization', `Row error line ${e.line}`, INCOMPLETE_DATA.toUpperCase(), null, null, e.error, e.file || f.file, [e.line, 'int'], e.column]);
      n++;
    }
    if (f.rowErrorsTotal > f.rowErrors.length) {
      s.row([
        'Standardization',
        'Row errors not listed',
        INCOMPLETE_DATA.toUpperCase(),
        null,
        null,
        `${f.rowErrorsTotal - f.rowErrors.length} more row error(s) in ${f.file}; see the file's Errors tab`,
        f.file,
      ]);
      n++;
    }
  }
  return n;
}
