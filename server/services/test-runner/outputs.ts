/**
 * The outputs a test case compares, in the form they are kept under `expected/`: standardized rows
 * as CSV (the SDM columns of `pipeline/sdm/model.ts` in order, then the standard code column the
 * code mapping gave) and a snapshot of the audit checks (`checks.json`: overall status, summary,
 * key figures and, per check id, the statuses and each item's status and difference, with the
 * tolerance figures are compared with).
 */
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { SDM_COLUMNS, type SdmColumn } from '../../../pipeline/sdm/model.js';
import type { LayoutSdmType } from '../../../pipeline/mappings/parse.js';
import type { QaRec } from '../../../pipeline/sdm/rows.js';

/** Standard code column each SDM type gets from its code mapping. */
export const STANDARD_COLUMN: Partial<Record<LayoutSdmType, string>> = {
  trial_balance: 'standard_account',
  holdings: 'standard_instrument',
  transactions: 'standard_transaction',
  share_capital: 'standard_activity',
};

/** Columns that identify a row, for pairing expected and actual rows and naming them in messages. */
export const KEY_COLUMNS: Record<LayoutSdmType, string[]> = {
  trial_balance: ['account_code'],
  holdings: ['security_id'],
  transactions: ['trade_date', 'security_id', 'transaction_type'],
  share_capital: ['share_class', 'activity_type'],
  prices: ['security_id'],
  fx_rates: ['currency', 'rate_date'],
};

/** Column definitions of a standardized CSV, in order. */
export function standardizedColumns(type: LayoutSdmType): SdmColumn[] {
  const std = STANDARD_COLUMN[type];
  return [...SDM_COLUMNS[type], ...(std ? [{ name: std, kind: 'text' as const, required: false }] : [])];
}

/** A value as written in a CSV cell: numbers in shortest form, null as empty. */
export function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Object.is(v, -0) ? '0' : String(v);
  return String(v);
}

/** Standardized rows (objects from the pipeline) as cell records. */
export function toCells(type: LayoutSdmType, rows: Array<Record<string, unknown>>): Array<Record<string, string>> {
  const cols = standardizedColumns(type).map((c) => c.name);
  return rows.map((r) => Object.fromEntries(cols.map((c) => [c, cell(r[c])])));
}

/** Writes standardized rows as CSV text (header, LF line ends). */
export function writeStandardizedCsv(type: LayoutSdmType, rows: Array<Record<string, unknown>>): string {
  const cols = standardizedColumns(type).map((c) => c.name);
  return stringify(toCells(type, rows), { header: true, columns: cols, record_delimiter: '\n' });
}

/** Reads an expected standardized CSV into cell records. @throws Error when a column is missing */
export function readStandardizedCsv(type: LayoutSdmType, text: string): Array<Record<string, string>> {
  let header: string[] = [];
  const rows = parse(text, {
    columns: (names: string[]) => (header = names),
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
  }) as Array<Record<string, string>>;
  const cols = standardizedColumns(type).map((c) => c.name);
  const missing = cols.filter((c) => !header.includes(c));
  if (missing.length) throw new Error(`${type}.csv lacks the column(s) ${missing.join(', ')}`);
  return rows.map((r) => Object.fromEntries(cols.map((c) => [c, r[c] ?? ''])));
}

/** A figure compared within a tolerance. */
export interface Figure {
  value: number;
  tolerance: number;
}

/** The snapshot of one check. */
export interface CheckSnapshot {
  statuses: Partial<Record<QaRec['status'], number>>;
  /** Tolerance on each item's `diff`. */
  tolerance: number;
  items: Array<{ name: string; status: QaRec['status']; diff: number }>;
}

/** `expected/checks.json`. */
export interface ChecksSnapshot {
  status: QaRec['status'];
  summary: { pass: number; warning: number; fail: number };
  figures: Record<string, Figure>;
  checks: Record<string, CheckSnapshot>;
}

/** Default tolerance on amounts: one cent. */
export const AMOUNT_TOLERANCE = 0.01;

/** The calculation file's validation (what the calculations job stores). */
export interface CalculationValidation {
  QA_Rec: QaRec[];
  summary: { pass: number; warning: number; fail: number };
  status: QaRec['status'];
  nav: number;
  materiality: { pm: number; te: number; sad: number };
}

/** Snapshot of a calculation file's checks. */
export function checksSnapshot(v: CalculationValidation): ChecksSnapshot {
  const checks: Record<string, CheckSnapshot> = {};
  for (const it of v.QA_Rec) {
    const c = (checks[it.check] ??= { statuses: {}, tolerance: AMOUNT_TOLERANCE, items: [] });
    c.statuses[it.status] = (c.statuses[it.status] ?? 0) + 1;
    c.items.push({ name: it.name, status: it.status, diff: it.diff });
  }
  const fig = (value: number): Figure => ({ value, tolerance: AMOUNT_TOLERANCE });
  return {
    status: v.status,
    summary: v.summary,
    figures: { nav: fig(v.nav), 'materiality.pm': fig(v.materiality.pm), 'materiality.te': fig(v.materiality.te), 'materiality.sad': fig(v.materiality.sad) },
    checks,
  };
}
