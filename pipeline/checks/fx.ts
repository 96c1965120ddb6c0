/**
 * Independent FX rates for price testing (DOMAIN.md 2.4 item 4). Reads two csv formats into
 * `FxRate[]` (units per base currency) and looks rates up by date:
 * - cross rates, as in `fixtures/fx/*.csv`: `currency,rate_date,units_per_usd,source` (ECB-derived,
 *   units of currency per 1 USD);
 * - the ECB's `eurofxref-hist.csv` as published: `Date,USD,JPY,...`, one row per day, units of
 *   each currency per 1 EUR, `N/A` for currencies not quoted that day.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { FxRate } from '../sdm/rows.js';

const REQUIRED = ['currency', 'rate_date', 'units_per_usd'] as const;

/**
 * Parses the FX csv. `base` (default 'USD') is the fund currency: for another base every rate is
 * divided by that currency's units per USD on the same date (dates without it are dropped).
 * Rates given as `N/A` or empty (ECB: withdrawn currencies) are skipped. Throws Error naming the
 * line on a missing column, a bad date or a non-positive / non-numeric rate.
 */
export function parseFxCsv(text: string, base = 'USD', fileName = 'fx.csv'): FxRate[] {
  if (isEcbHistory(text)) return ecbPerBase(parseEcbHistory(text, fileName), base);
  const records = parse(text.replace(/^\uFEFF/, ''), { columns: true, skip_empty_lines: true, trim: true, info: true }) as Array<{
    record: Record<string, string>;
    info: { lines: number };
  }>;
  const perUsd: FxRate[] = [];
  for (const { record: r, info } of records) {
    for (const c of REQUIRED) if (!(c in r)) throw new Error(`${fileName}: column "${c}" missing`);
    const raw = r.units_per_usd;
    if (raw === '' || /^n\/?a$/i.test(raw)) continue;
    const rate = Number(raw);
    if (!Number.isFinite(rate) || rate <= 0) throw new Error(`${fileName} line ${info.lines}: bad rate "${raw}"`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(r.rate_date)) throw new Error(`${fileName} line ${info.lines}: bad date "${r.rate_date}" (YYYY-MM-DD expected)`);
    if (!/^[A-Za-z]{3}$/.test(r.currency)) throw new Error(`${fileName} line ${info.lines}: bad currency "${r.currency}"`);
    perUsd.push({ currency: r.currency.toUpperCase(), rate_date: r.rate_date, units_per_base: rate, source: r.source ?? fileName });
  }
  return base.toUpperCase() === 'USD' ? perUsd : rebase(perUsd, base);
}

/** Reads and parses an FX csv file (see `parseFxCsv`). */
export function loadFxCsv(path: string, base = 'USD'): FxRate[] {
  return parseFxCsv(readFileSync(path, 'utf8'), base, path);
}

/** Re-expresses rates per `base`: units per base = units per old base / base's units per old base (same date). */
export function rebase(rates: FxRate[], base: string): FxRate[] {
  const b = base.toUpperCase();
  const baseByDate = new Map(rates.filter((r) => r.currency === b).map((r) => [r.rate_date, r.units_per_base]));
  return rates.flatMap((r) => {
    const d = baseByDate.get(r.rate_date);
    return d ? [{ ...r, units_per_base: r.currency === b ? 1 : r.units_per_base / d }] : [];
  });
}

type Index = Map<string, FxRate[]>;
const indexes = new WeakMap<FxRate[], Index>();

/** Rates per currency sorted by date, cached per array (so lookups stay O(log n) for big inputs). */
function indexOf(rates: FxRate[]): Index {
  let idx = indexes.get(rates);
  if (!idx) {
    idx = new Map();
    for (const r of rates) {
      const k = r.currency.toUpperCase();
      const list = idx.get(k) ?? [];
      list.push(r);
      idx.set(k, list);
    }
    for (const list of idx.values()) list.sort((a, b) => (a.rate_date < b.rate_date ? -1 : a.rate_date > b.rate_date ? 1 : 0));
    indexes.set(rates, idx);
  }
  return idx;
}

/**
 * The latest rate of `currency` dated on or before `date` (ISO), or undefined when there is none.
 * Note: the cache is per array; do not mutate an array after the first lookup.
 */
export function rateFor(rates: FxRate[], currency: string, date: string): FxRate | undefined {
  const list = indexOf(rates).get(currency.toUpperCase());
  if (!list) return undefined;
  let lo = 0;
  let hi = list.length - 1;
  let hit: FxRate | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].rate_date <= date) {
      hit = list[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return hit;
}

/** Whether a csv is in the ECB `eurofxref-hist` layout (first header cell `Date`, then currency codes). */
export function isEcbHistory(text: string): boolean {
  const header = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const cells = header.split(',').map((c) => c.trim());
  return cells[0] === 'Date' && cells.length > 1 && /^[A-Z]{3}$/.test(cells[1]);
}

/**
 * Parses an ECB `eurofxref-hist` csv (see the module's description) into rates per EUR (EUR itself
 * is 1 on every date); `source` names the file, the date and the ECB figure. The trailing empty
 * column is ignored; `N/A` and empty values are skipped. Throws Error naming the file and line on
 * a bad date, a non-positive or non-numeric rate, a header without `Date` and currency codes, or
 * a file with no rate at all.
 */
export function parseEcbHistory(text: string, fileName = 'eurofxref-hist.csv'): FxRate[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = lines[0].split(',').map((c) => c.trim());
  if (header[0] !== 'Date') throw new Error(`${fileName}: not an ECB eurofxref-hist file (the first column must be "Date")`);
  const currencies = header.slice(1);
  currencies.forEach((c, i) => {
    if (c && !/^[A-Z]{3}$/.test(c)) throw new Error(`${fileName} line 1: column ${i + 2} "${c}" is not a currency code`);
  });
  const out: FxRate[] = [];
  for (let n = 1; n < lines.length; n++) {
    const line = lines[n].trim();
    if (!line) continue;
    const cells = line.split(',').map((c) => c.trim());
    const date = cells[0];
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`)))
      throw new Error(`${fileName} line ${n + 1}: bad date "${date}" (YYYY-MM-DD expected)`);
    out.push({ currency: 'EUR', rate_date: date, units_per_base: 1, source: `${fileName} ECB ${date}: EUR 1` });
    currencies.forEach((ccy, i) => {
      const raw = cells[i + 1] ?? '';
      if (!ccy || raw === '' || /^n\/?a$/i.test(raw)) return;
      const rate = Number(raw);
      if (!Number.isFinite(rate) || rate <= 0) throw new Error(`${fileName} line ${n + 1}: bad ${ccy} rate "${raw}"`);
      out.push({ currency: ccy, rate_date: date, units_per_base: rate, source: `${fileName} ECB ${date}: ${raw} ${ccy} per EUR` });
    });
  }
  if (out.length === 0) throw new Error(`${fileName}: no rate in the file`);
  return out;
}

/** Dates a set of rates covers: first and last date, number of dates and currencies. */
export interface FxCoverage {
  firstDate: string | null;
  lastDate: string | null;
  dates: number;
  currencies: string[];
}

/** What dates and currencies `rates` cover. */
export function fxCoverage(rates: FxRate[]): FxCoverage {
  const dates = new Set<string>();
  const currencies = new Set<string>();
  let first: string | null = null;
  let last: string | null = null;
  for (const r of rates) {
    dates.add(r.rate_date);
    currencies.add(r.currency);
    if (first === null || r.rate_date < first) first = r.rate_date;
    if (last === null || r.rate_date > last) last = r.rate_date;
  }
  return { firstDate: first, lastDate: last, dates: dates.size, currencies: [...currencies].sort() };
}

/** ECB rates per EUR re-expressed per `base`, each source also naming the base's ECB figure of that date. */
function ecbPerBase(perEur: FxRate[], base: string): FxRate[] {
  const b = base.toUpperCase();
  if (b === 'EUR') return perEur;
  const baseByDate = new Map(perEur.filter((r) => r.currency === b).map((r) => [r.rate_date, r.units_per_base]));
  return rebase(perEur, b).map((r) => ({ ...r, source: `${r.source} / ${baseByDate.get(r.rate_date)} ${b} per EUR` }));
}
