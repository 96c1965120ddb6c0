/**
 * Test-only: the pieces the recomputed work-paper figures (expected.ts) and check items
 * (expected-items.ts) share: the account classes, the shapes of expected items, rates and
 * currencies, a fund's terms, and the arithmetic in cents and business days they are judged with.
 */
import type { DeliveredRow, IndependentRate } from './delivered.js';

/** Standard account -> class, for the accounts the fixtures' TPAs map to. */
export const ACCOUNT_CLASS: Record<string, 'asset' | 'liability' | 'equity' | 'income' | 'expense'> = {
  INVESTMENTS_AT_VALUE: 'asset',
  DERIVATIVES_ASSET: 'asset',
  CASH: 'asset',
  RECEIVABLES: 'asset',
  OTHER_ASSETS: 'asset',
  DERIVATIVES_LIABILITY: 'liability',
  PAYABLES: 'liability',
  OTHER_LIABILITIES: 'liability',
  CAPITAL: 'equity',
  DISTRIBUTABLE_EARNINGS: 'equity',
};

/** A check item as the Summary lists it. */
export interface ExpectedItem {
  check: string;
  name: string;
  status: 'PASS' | 'WARNING' | 'FAIL' | 'NOT PERFORMED';
  diff: number;
  threshold: number | null;
  file: string | null;
  line: number | string | null;
  /** Why not performed (the reason the schedule lists), else null. */
  notPerformed: string | null;
  /** A difference in money the schedule of unadjusted differences lists. */
  moneyDifference: boolean;
  /** The item's message with its figures (compared as the work paper words it). */
  message?: string;
}

/** One distinct TPA rate of a currency tested against the independent rate. */
export interface ExpectedRate {
  rate: number;
  positions: number;
  base: number;
  diffPct: number;
  exception: boolean;
  impact: number;
}

/** FX testing of one currency: tested against the independent rate, or not performed with the reason. */
export interface ExpectedCurrency {
  currency: string;
  positions: number;
  rateMin: number;
  rateMax: number;
  weighted: number;
  rate: IndependentRate | null;
  ageDays: number | null;
  ageBusinessDays: number | null;
  local: number;
  baseTpa: number;
  baseIndependent: number | null;
  exceptionImpact: number;
  byRate: ExpectedRate[];
  notPerformed: string | null;
}

export interface FundTerms {
  periodEnd: string;
  pm: number;
  te: number;
  sad: number;
  /** external_valuations = Y */
  externalValuations: boolean;
  /** A rate dated more than this many business days before the period end is not used (default 5). */
  fxMaxAgeBusinessDays?: number;
  /** The FX tolerance in percent (default 0.5). */
  fxTolerancePct?: number;
}

/** Whole days from a rate's date to the period end. */
export const ageDays = (date: string, periodEnd: string) => (Date.parse(periodEnd) - Date.parse(date)) / 86_400_000;

/** Weekdays (Mon-Fri) after `date` up to the last weekday on or before `periodEnd`, counted day by day. */
export function businessDays(date: string, periodEnd: string): number {
  const day = 86_400_000;
  let end = Date.parse(periodEnd);
  while ([0, 6].includes(new Date(end).getUTCDay())) end -= day;
  let n = 0;
  for (let t = Date.parse(date) + day; t <= end; t += day) if (![0, 6].includes(new Date(t).getUTCDay())) n++;
  return n;
}

/** A rate's age as the work paper words it: `dated 2022-12-30, 91 days before the period end 2023-03-31 (65 business days; limit 5)`. */
export function ageText(date: string, periodEnd: string, limit: number): string {
  const days = ageDays(date, periodEnd);
  const bd = businessDays(date, periodEnd);
  if (days === 0) return `dated ${date}, the period end`;
  if (bd <= 0) return `dated ${date}, the last business day on or before the period end ${periodEnd}`;
  return `dated ${date}, ${days} day${days === 1 ? '' : 's'} before the period end ${periodEnd} (${bd} business day${bd === 1 ? '' : 's'}; limit ${limit})`;
}

export const cents = (x: number) => Math.round(x * 100);
/** `1234567.891` -> `1,234,567.89`, as messages show amounts. */
export const fmt = (x: number, dp = 2) => x.toLocaleString('en-US', { minimumFractionDigits: dp, maximumFractionDigits: dp });
export const sumCents = (xs: number[]) => xs.reduce((a, x) => a + cents(x), 0) / 100;
export const round2 = (x: number) => {
  const r = (Math.sign(x) * Math.round(Math.abs(x) * 100 + 1e-9)) / 100;
  return r === 0 ? 0 : r;
};
export const num = (r: DeliveredRow, k: string) => r.v[k] as number;
export const str = (r: DeliveredRow, k: string) => r.v[k] as string;

/** `a.csv` and `5-60` (or `a.csv; b.csv` and `5-60; 2-9`) for the rows of some SDM types. */
export function fileLines(...groups: DeliveredRow[][]): [string, string] {
  const files: Array<{ file: string; first: number; last: number }> = [];
  for (const rows of groups) {
    const group: typeof files = [];
    for (const r of rows) {
      const f = group.find((x) => x.file === r.file);
      if (f) {
        f.first = Math.min(f.first, r.line);
        f.last = Math.max(f.last, r.line);
      } else group.push({ file: r.file, first: r.line, last: r.line });
    }
    files.push(...group);
  }
  return [files.map((f) => f.file).join('; '), files.map((f) => (f.first === f.last ? String(f.first) : `${f.first}-${f.last}`)).join('; ')];
}

/** One share class: shares and amounts per standard activity, the computed closing and its difference. */
export interface ClassFigures {
  shareClass: string;
  shares: Record<string, number>;
  amounts: Record<string, number | null>;
  computed: number;
  diff: number;
  closingRow: DeliveredRow;
  navPerShare: number | undefined;
}

/** What FX testing of a fund's holdings comes to (`fxTestingFigures`): per currency, and the tolerance and age limit used. */
export interface FxTestingFigures {
  currencies: ExpectedCurrency[];
  tolerance: number;
  limit: number;
  foreign: number;
}
