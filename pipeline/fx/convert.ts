/**
 * Holdings delivered in local currency only, converted to the fund's base currency with the TPA's
 * FX table (SDM type `fx_rates`, docs/decisions/0021-fx-rates.md, "Conversion"):
 * - a holding whose layout maps `market_value_local` and not `market_value_base` gets
 *   base = local / rate, rounded to the fund currency's ISO 4217 minor units;
 * - the rate is the holding's own `fx_rate` when delivered, else the table's rate of its price
 *   currency: the latest dated on or before the period end (units of the currency per one unit of
 *   the fund currency; a table quoted against another currency is crossed through that currency's
 *   own rate for the fund currency on the same date); a holding in the fund currency takes 1;
 * - a rate dated more than `maxAgeBusinessDays` business days before the period end (`age.ts`) is
 *   never used: the currency's positions are not converted;
 * - a currency the table does not give, or gives only too old, is reported once, per currency,
 *   on the holdings file ("no CHF rate for 2026-02-28 ...", "GBP rate dated 2026-02-18, 10 days
 *   before the period end 2026-02-28 ..."), with its positions' count and first lines; those
 *   positions are left out of the standardized rows (a base value cannot be made up).
 * A converted holding keeps the rate (`fx_rate`), its date, the table's file and line and its
 * `rate_source`, which the Holdings sheet, FX testing and the lineage show.
 */
import { round } from '../checks/common.js';
import type { FxTableRow, HoldingRow, RowError } from '../sdm/rows.js';
import { DEFAULT_FX_MAX_AGE_BUSINESS_DAYS, describeAge, rateAge } from './age.js';
import { fmtRate } from './format.js';

/** The rate a currency converts with, from the FX table. */
export interface TableRate {
  currency: string;
  /** Units of the currency per one unit of the fund currency. */
  units_per_base: number;
  rate_date: string;
  file: string;
  line: number;
  /** The table's `rate_source`, and for a cross rate how it was made. */
  source: string | null;
}

/** Why a currency cannot be converted, or its rate. */
type Resolution = { rate: TableRate } | { problem: string };

/** Converts holdings one at a time; the problems are reported per currency at the end. */
export interface FxTableConverter {
  /**
   * The holding with its base value, or null when it has none and cannot be converted (counted
   * against its currency, reported by `finish`). A holding that has a base value keeps it.
   */
  convert(h: HoldingRow): HoldingRow | null;
  /** One row error per currency that could not be converted, on the holdings file. */
  finish(): RowError[];
}

const LINES_SHOWN = 20;

/**
 * Finds the rate of every currency of an FX table at a period end (see the module's description).
 * @param table the fund's FX table rows (any order; `units_per_base` per `base_currency`, null = the fund's)
 * @returns currency (upper case) -> its rate, or why there is none that may be used
 */
export function tableRatesAt(
  table: readonly FxTableRow[],
  opts: { currency: string; periodEnd: string; maxAgeBusinessDays?: number },
): (currency: string) => Resolution {
  const base = opts.currency.toUpperCase();
  const maxAge = opts.maxAgeBusinessDays ?? DEFAULT_FX_MAX_AGE_BUSINESS_DAYS;
  /** `QUOTE/CCY` -> date -> the first row of that pair and date. */
  const byPair = new Map<string, Map<string, FxTableRow>>();
  for (const r of table) {
    const key = `${(r.base_currency ?? base).toUpperCase()}/${r.currency.toUpperCase()}`;
    let dates = byPair.get(key);
    if (!dates) byPair.set(key, (dates = new Map()));
    if (!dates.has(r.rate_date)) dates.set(r.rate_date, r);
  }
  /** The latest row of a pair on or before the period end, and the dates after it the table has. */
  const latest = (key: string): FxTableRow | null => {
    let best: FxTableRow | null = null;
    for (const [d, r] of byPair.get(key) ?? []) if (d <= opts.periodEnd && (!best || d > best.rate_date)) best = r;
    return best;
  };
  const asRate = (r: FxTableRow, units: number, source: string | null): TableRate => ({
    currency: r.currency.toUpperCase(),
    units_per_base: units,
    rate_date: r.rate_date,
    file: r.file,
    line: r.line,
    source,
  });
  const cache = new Map<string, Resolution>();
  const resolve = (ccy: string): Resolution => {
    const direct = latest(`${base}/${ccy}`);
    let found: TableRate | null = direct ? asRate(direct, direct.units_per_base, direct.rate_source) : null;
    if (!found) {
      // quoted against another currency X: (ccy per X) / (base per X), both of the same date
      for (const key of byPair.keys()) {
        const [quote, c] = key.split('/');
        if (c !== ccy || quote === base) continue;
        const leg = latest(key);
        const baseLeg = leg && byPair.get(`${quote}/${base}`)?.get(leg.rate_date);
        if (!leg || !baseLeg) continue;
        const how = `cross via ${quote}: ${fmtRate(leg.units_per_base)} ${ccy} per ${quote} / ${fmtRate(baseLeg.units_per_base)} ${base} per ${quote} (line ${baseLeg.line})`;
        found = asRate(leg, leg.units_per_base / baseLeg.units_per_base, leg.rate_source ? `${leg.rate_source}, ${how}` : how);
        break;
      }
    }
    if (!found) {
      const later = [...byPair.entries()]
        .filter(([k]) => k.endsWith(`/${ccy}`))
        .flatMap(([, dates]) => [...dates.keys()])
        .filter((d) => d > opts.periodEnd)
        .sort();
      const why = table.length
        ? later.length
          ? `the FX table's ${ccy} rates are dated after the period end (from ${later[0]})`
          : `the FX table has no ${ccy} rate on or before the period end`
        : 'no FX table was delivered';
      return { problem: `no ${ccy} rate for ${opts.periodEnd}: ${why}` };
    }
    const age = rateAge(found.rate_date, opts.periodEnd, maxAge);
    if (age.tooOld) return { problem: `${ccy} rate ${describeAge(found.rate_date, opts.periodEnd, age)}: too old to convert with` };
    return { rate: found };
  };
  return (currency: string) => {
    const ccy = currency.toUpperCase();
    let r = cache.get(ccy);
    if (!r) cache.set(ccy, (r = resolve(ccy)));
    return r;
  };
}

/**
 * Prepares the conversion of a fund's holdings (see the module's description).
 * @param opts the fund's FX table rows, its `currency` and `periodEnd` (ISO), the currency's ISO
 *   4217 `minorUnits` (default 2), the age limit, and the holdings' source column of the local
 *   value (named in the errors)
 */
export function createFxTableConverter(opts: {
  table: readonly FxTableRow[];
  currency: string;
  periodEnd: string;
  minorUnits?: number;
  maxAgeBusinessDays?: number;
  localColumn?: string;
}): FxTableConverter {
  const base = opts.currency.toUpperCase();
  const dp = opts.minorUnits ?? 2;
  const rateOf = tableRatesAt(opts.table, opts);
  const failed = new Map<string, { problem: string; file: string; positions: number; lines: number[] }>();
  const fail = (h: HoldingRow, ccy: string, problem: string): null => {
    let f = failed.get(ccy);
    if (!f) failed.set(ccy, (f = { problem, file: h.file, positions: 0, lines: [] }));
    f.positions++;
    if (f.lines.length < LINES_SHOWN) f.lines.push(h.line);
    return null;
  };
  // every row comes out with the same columns in the same order (the rows of a file are stored in one shape)
  const noTableRate = { fx_rate_date: null, fx_rate_file: null, fx_rate_line: null, fx_rate_source: null };
  return {
    convert(h) {
      if (h.market_value_base !== null && h.market_value_base !== undefined) return { ...h, ...noTableRate };
      const local = h.market_value_local;
      const ccy = (h.price_currency ?? '').trim().toUpperCase();
      if (local === null || local === undefined) return fail(h, ccy || base, 'no local market value to convert');
      if (!ccy || ccy === base) return { ...h, market_value_base: round(local, dp), ...noTableRate };
      if (h.fx_rate) return { ...h, market_value_base: round(local / h.fx_rate, dp), ...noTableRate };
      const r = rateOf(ccy);
      if ('problem' in r) return fail(h, ccy, r.problem);
      const { rate } = r;
      return {
        ...h,
        market_value_base: round(local / rate.units_per_base, dp),
        fx_rate: rate.units_per_base,
        fx_rate_date: rate.rate_date,
        fx_rate_file: rate.file,
        fx_rate_line: rate.line,
        fx_rate_source: rate.source,
      };
    },
    finish() {
      return [...failed]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([ccy, f]) => ({
          file: f.file,
          line: f.lines[0],
          column: opts.localColumn ?? 'market_value_local',
          error: `${f.problem}; ${f.positions} ${ccy} position${f.positions === 1 ? '' : 's'} not converted to ${base} (line${f.positions === 1 ? '' : 's'} ${f.lines.join(', ')}${f.positions > f.lines.length ? ', ...' : ''})`,
        }));
    },
  };
}
