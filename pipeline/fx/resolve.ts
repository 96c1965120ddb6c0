/**
 * Independent FX rates for a fund's base currency from quotes against any base (ECB per EUR, Fed
 * per USD, uploaded files per their own base), docs/decisions/0021-fx-rates.md: the rate of a
 * currency per one unit of the fund's base on a date is, in this order of preference, a quote of
 * the pair (base -> currency), its inverse (currency -> base), or a cross rate through EUR, then
 * USD, then another currency the quotes are against: (currency per pivot) / (base per pivot), both
 * legs of the same date. `resolve` takes the latest date on or before a given date on which the
 * rate can be made that way. Quotes of the same pair and date from several files: the first file
 * in the resolver's order wins (uploaded files before the shipped history).
 */
import type { FxRate } from '../sdm/rows.js';
import type { FxQuote } from './sources.js';

/** An independent rate for a base currency, with how it was made. */
export interface ResolvedRate extends FxRate {
  /** The fund's base currency the rate is per. */
  base: string;
  /** 'quoted', 'inverse' or 'cross via EUR' (USD, ...). */
  how: string;
}

const PIVOTS = ['EUR', 'USD'];

/** One leg: the units of `to` per one `from` on a date, from a quote or its inverse. */
interface Leg {
  rate: number;
  q: FxQuote;
  inverse: boolean;
}

const legText = (l: Leg) => (l.inverse ? `${l.q.figure} (inverted)` : l.q.figure);
const legSource = (l: Leg) => (l.inverse ? `${l.q.source} (inverted)` : l.q.source);

/** Resolves rates per base currency from a set of quotes (see the module's description). */
export class FxResolver {
  /** date -> `BASE/CCY` -> the first quote of that pair on that date. */
  private readonly byDate = new Map<string, Map<string, FxQuote>>();
  /** date -> the bases quoted that day. */
  private readonly basesByDate = new Map<string, Set<string>>();
  /** Dates, newest first. */
  private readonly dates: string[];
  private readonly universe = new Set<string>();

  /** @param quotes in order of preference (the first quote of a pair and date wins) */
  constructor(quotes: Iterable<FxQuote>) {
    for (const q of quotes) {
      let day = this.byDate.get(q.rate_date);
      if (!day) {
        this.byDate.set(q.rate_date, (day = new Map()));
        this.basesByDate.set(q.rate_date, new Set());
      }
      const key = `${q.base}/${q.currency}`;
      if (!day.has(key)) day.set(key, q);
      this.basesByDate.get(q.rate_date)!.add(q.base);
      this.universe.add(q.base);
      this.universe.add(q.currency);
    }
    this.dates = [...this.byDate.keys()].sort().reverse();
  }

  /** Every currency that appears in a quote (as base or quoted), sorted. */
  currencies(): string[] {
    return [...this.universe].sort();
  }

  /** The first and last date of the quotes (null when there are none). */
  range(): { firstDate: string | null; lastDate: string | null } {
    return { firstDate: this.dates[this.dates.length - 1] ?? null, lastDate: this.dates[0] ?? null };
  }

  private leg(day: Map<string, FxQuote>, from: string, to: string): Leg | null {
    const q = day.get(`${from}/${to}`);
    if (q) return { rate: q.units_per_base, q, inverse: false };
    const r = day.get(`${to}/${from}`);
    return r ? { rate: 1 / r.units_per_base, q: r, inverse: true } : null;
  }

  /** The rate of `currency` per one `base` made from the quotes of one date, or null. */
  private onDate(date: string, base: string, currency: string): ResolvedRate | null {
    const day = this.byDate.get(date)!;
    const direct = this.leg(day, base, currency);
    if (direct) return { base, currency, rate_date: date, units_per_base: direct.rate, source: legSource(direct), how: direct.inverse ? 'inverse' : 'quoted' };
    const pivots = [...PIVOTS, ...[...this.basesByDate.get(date)!].filter((b) => !PIVOTS.includes(b)).sort()];
    for (const x of pivots) {
      if (x === base || x === currency) continue;
      const toCcy = this.leg(day, x, currency);
      if (!toCcy) continue;
      const toBase = this.leg(day, x, base);
      if (!toBase) continue;
      const sameFile = toCcy.q.file === toBase.q.file && toCcy.q.ref === toBase.q.ref;
      const source = sameFile ? `${legSource(toCcy)} / ${legText(toBase)}` : `${legSource(toCcy)} / ${legSource(toBase)}`;
      return { base, currency, rate_date: date, units_per_base: toCcy.rate / toBase.rate, source, how: `cross via ${x}` };
    }
    return null;
  }

  /**
   * The rate of `currency` per one unit of `base` on the latest date on or before `onOrBefore`
   * (ISO) on which it can be made; 1 on that date's terms for the base itself is not given (the
   * caller knows a position in the base needs no rate). Null when no date on or before has it.
   */
  resolve(base: string, currency: string, onOrBefore: string): ResolvedRate | null {
    const b = base.toUpperCase();
    const c = currency.toUpperCase();
    if (b === c) return null;
    for (const date of this.dates) {
      if (date > onOrBefore) continue;
      const r = this.onDate(date, b, c);
      if (r) return r;
    }
    return null;
  }

  /** For every currency of the quotes but the base, its rate per `base` on or before `onOrBefore` (those that have one). */
  ratesAt(base: string, onOrBefore: string): ResolvedRate[] {
    const b = base.toUpperCase();
    return this.currencies()
      .filter((c) => c !== b)
      .map((c) => this.resolve(b, c, onOrBefore))
      .filter((r): r is ResolvedRate => r !== null);
  }

  /** Every rate per `base` on every date of the quotes (for conversions at several dates, e.g. fund aggregation). */
  history(base: string): FxRate[] {
    const b = base.toUpperCase();
    const out: FxRate[] = [];
    for (const date of this.dates) {
      const day = this.byDate.get(date)!;
      const currencies = new Set<string>();
      for (const key of day.keys()) for (const c of key.split('/')) currencies.add(c);
      for (const c of currencies) {
        if (c === b) continue;
        const r = this.onDate(date, b, c);
        if (r) out.push({ currency: r.currency, rate_date: r.rate_date, units_per_base: r.units_per_base, source: r.source });
      }
    }
    return out;
  }
}
