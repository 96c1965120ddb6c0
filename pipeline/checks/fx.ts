/**
 * Independent FX rates for price testing (DOMAIN.md 2.4 item 4). Reads the csv format of
 * `fixtures/fx/*.csv` (`currency,rate_date,units_per_usd,source`, ECB-derived, units of currency
 * per 1 USD) into `FxRate[]` (units per base currency) and looks rates up by date.
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
