/**
 * Shared types and helpers of the audit checks (DOMAIN.md 2.4). Pure: no I/O, no database.
 * Money is in the fund's base currency, dates are ISO `YYYY-MM-DD`, TB signs are debit positive /
 * credit negative (so liabilities and equity carry negative balances).
 */
import type { AccountClass } from '../sdm/model.js';
import { chunksOf, type AdjustmentRef, type FundSdmData, type FxRate, type HoldingRow, type QaRec, type Rows, type TrialBalanceRow } from '../sdm/rows.js';

/**
 * Where a check item that comes from one row points: the row's delivered file and line, and the
 * booked audit adjustments that changed the row (docs/decisions/0012), so that the work paper and
 * `calculations.csv` cite the adjustment as well as the delivered line. No `adjustedBy` key for a
 * row as delivered.
 */
export function sourceOf(r: { file: string; line: number; adjustedBy?: AdjustmentRef[] }): Pick<QaRec, 'file' | 'line' | 'adjustedBy'> {
  return r.adjustedBy?.length ? { file: r.file, line: r.line, adjustedBy: r.adjustedBy } : { file: r.file, line: r.line };
}

/** Materiality amounts in fund currency (pct / 100 x NAV). */
export interface MaterialityAmounts {
  pm: number;
  te: number;
  sad: number;
}

/** What every check receives besides the fund's SDM rows. */
export interface CheckContext {
  fundCode: string;
  /** Period end, ISO date: FX rates are taken on or before it. */
  periodEnd: string;
  /** Fund (base) currency, e.g. 'USD'. */
  currency: string;
  materiality: MaterialityAmounts;
  /** NAV in fund currency (normally from the mapped TB). */
  nav: number;
  /**
   * Independent FX rates, units of currency per one unit of the base currency: the checks take
   * each currency's latest rate dated on or before the period end.
   */
  fxRates?: FxRate[];
  /** Fund request `external_valuations` = Y: price testing runs. */
  externalValuations: boolean;
  /** Standard account -> class (pass `STANDARD_ACCOUNTS`). */
  accountClasses: Record<string, AccountClass>;
  /** Price sources that are the TPA's own (not independent evidence); see price-testing.ts. */
  tpaPriceSources?: string[];
  /** Administrator (TPA) name: a price source it contains, e.g. 'Meridian', is the TPA's own. */
  administrator?: string;
  /**
   * FX: a rate dated more than this many business days (Mon-Fri) before the period end is never
   * used for a conclusion (default 5, `pipeline/fx/age.ts`).
   */
  fxMaxAgeBusinessDays?: number;
  /** FX testing: a TPA rate within this percentage (0-100) of the independent rate is no exception (default 0.5). */
  fxTolerancePct?: number;
  /** Most items one check may list; the rest is summarised in one item (default 1,000). */
  maxItemsPerCheck?: number;
}

/**
 * One audit check: rows in, QA_Rec items out (async when it reads row sources). May throw (or
 * reject); `runChecks` turns that into a fail item.
 */
export type Check = (data: FundSdmData, ctx: CheckContext) => QaRec[] | Promise<QaRec[]>;

/**
 * A check's work over the holdings, fed one row at a time, so that several checks share one pass
 * over rows read back from the database (each row decoded once for all of them).
 */
export interface HoldingsPass {
  /** Takes the next holding (in file order); must not change or keep more than it needs of it. */
  add(h: HoldingRow): void;
  /** The check's items, once every holding was added. */
  finish(): QaRec[];
}

/** Prepares a check's holdings pass (may read the other SDM types, and the holdings in a pre-pass). */
export type HoldingsCheck = (data: FundSdmData, ctx: CheckContext) => HoldingsPass | Promise<HoldingsPass>;

/** Runs a holdings pass over a fund's holdings on its own: the check's items. */
export async function runPass(prepared: HoldingsPass | Promise<HoldingsPass>, holdings: Rows<HoldingRow>): Promise<QaRec[]> {
  const pass = await prepared;
  for await (const chunk of chunksOf(holdings)) for (const h of chunk) pass.add(h);
  return pass.finish();
}

/** Rounding noise allowed on amounts that should agree exactly (half a cent). */
export const ROUNDING = 0.005;

/**
 * A running compensated (Neumaier) sum: stays exact to the cent over hundreds of thousands of
 * amounts, added one at a time.
 */
export class Sum {
  private s = 0;
  private c = 0;
  add(v: number): this {
    const t = this.s + v;
    this.c += Math.abs(this.s) >= Math.abs(v) ? this.s - t + v : v - t + this.s;
    this.s = t;
    return this;
  }
  get value(): number {
    return this.s + this.c;
  }
}

/** Compensated (Neumaier) sum of amounts (see `Sum`). */
export function sum(values: Iterable<number>): number {
  const s = new Sum();
  for (const v of values) s.add(v);
  return s.value;
}

/** Rounds to `dp` decimals (half away from zero), never returning -0. */
export function round(x: number, dp = 2): number {
  const f = 10 ** dp;
  const r = (Math.sign(x) * Math.round(Math.abs(x) * f + 1e-9)) / f;
  return r === 0 ? 0 : r;
}

/** One formatter per number of decimals: `toLocaleString` builds a new one on every call. */
const FORMATTERS = new Map<number, Intl.NumberFormat>();

/** `1234567.891` -> `1,234,567.89` (for messages; exactly `x.toLocaleString('en-US', ...)` with `dp` decimals). */
export function fmt(x: number, dp = 2): string {
  let f = FORMATTERS.get(dp);
  if (!f) FORMATTERS.set(dp, (f = new Intl.NumberFormat('en-US', { minimumFractionDigits: dp, maximumFractionDigits: dp })));
  return f.format(x);
}

/** Status of a difference against the usual pair of thresholds: fail above `fail`, warning above `warn`. */
export function statusFor(diff: number, warn: number, fail: number): QaRec['status'] {
  const d = Math.abs(diff);
  if (d > fail + ROUNDING / 10) return 'fail';
  if (d > warn + ROUNDING / 10) return 'warning';
  return 'pass';
}

/** Worst of several statuses. */
export function worst(statuses: Iterable<QaRec['status']>): QaRec['status'] {
  let out: QaRec['status'] = 'pass';
  for (const s of statuses) {
    if (s === 'fail') return 'fail';
    if (s === 'warning') out = 'warning';
  }
  return out;
}

/** Class of a TB row by its standard account, or null when unmapped or not a standard account. */
export function accountClass(row: TrialBalanceRow, classes: Record<string, AccountClass>): AccountClass | null {
  return (row.standard_account && classes[row.standard_account]) || null;
}

/** Sum of TB balance_base per account class, plus the unmapped total. */
export function tbByClass(rows: TrialBalanceRow[], classes: Record<string, AccountClass>) {
  const buckets: Record<AccountClass | 'unmapped', number[]> = { asset: [], liability: [], equity: [], income: [], expense: [], unmapped: [] };
  for (const r of rows) buckets[accountClass(r, classes) ?? 'unmapped'].push(r.balance_base);
  const t = Object.fromEntries(Object.entries(buckets).map(([k, v]) => [k, sum(v)])) as Record<AccountClass | 'unmapped', number>;
  return { ...t, unmappedRows: buckets.unmapped.length };
}

/** Sum of TB balance_base of the rows mapped to any of `accounts`. */
export function tbAccounts(rows: TrialBalanceRow[], accounts: string[]): number {
  return sum(rows.filter((r) => r.standard_account !== null && accounts.includes(r.standard_account)).map((r) => r.balance_base));
}

/** A holding is a derivative when its standard instrument type is DERIVATIVE. */
export const isDerivative = (h: HoldingRow) => h.standard_instrument === 'DERIVATIVE';

/** Number of decimals a price is given with (from its shortest decimal form). */
export function decimalsOf(x: number): number {
  const s = String(Math.abs(x));
  if (s.includes('e')) {
    const e = /e-(\d+)$/.exec(s);
    if (e) return Number(e[1]) + (s.split('e')[0].split('.')[1]?.length ?? 0);
    return s.split('.')[1]?.length ?? 0;
  }
  const dot = s.indexOf('.');
  return dot < 0 ? 0 : s.length - dot - 1;
}

/** The holding's local market value: as delivered, else base value x the TPA's FX rate. */
export function localValue(h: HoldingRow): number | null {
  if (h.market_value_local !== null && h.market_value_local !== undefined) return h.market_value_local;
  if (h.fx_rate) return h.market_value_base * h.fx_rate;
  return null;
}

/**
 * Price quotation of a holding: 100 when the price is per 100 of nominal (bonds quoted in percent),
 * 1 when per unit. Decided by which convention brings quantity x price closer to the local market
 * value; without a local value, DEBT is taken as per 100 and everything else per unit.
 */
export function priceFactor(h: HoldingRow): 1 | 100 {
  const local = localValue(h);
  if (local === null || !Number.isFinite(h.quantity * h.price)) return h.standard_instrument === 'DEBT' ? 100 : 1;
  const perUnit = Math.abs(h.quantity * h.price - local);
  const per100 = Math.abs((h.quantity * h.price) / 100 - local);
  return per100 < perUnit ? 100 : 1;
}

/** Key used for "is this the base currency": empty / missing currency counts as base. */
export const isBaseCurrency = (ccy: string | null | undefined, base: string) => !ccy || ccy.toUpperCase() === base.toUpperCase();

/** Default of `CheckContext.maxItemsPerCheck`. */
export const DEFAULT_MAX_ITEMS_PER_CHECK = 1000;

const RANK = { fail: 0, warning: 1, pass: 2 } as const;

/** Name of the item that says how many items a check did not list. */
export const ITEMS_NOT_LISTED = 'Items not listed';

/**
 * The items a check lists, at most `max` (DOMAIN.md 2.4: a result too large to list is said so,
 * not dropped silently), collected as the check produces them, so a check over any number of
 * rows holds at most `max` items. Up to `max` items are all listed. Beyond that, the first
 * `max - 1` in the order fail, warning, pass (each in production order) are listed, in
 * production order, and one last item says how many were left out and their worst status.
 */
export class ItemLimit {
  /** Kept items by rank (fail, warning, pass), each in production order. */
  private readonly kept: Array<Array<{ it: QaRec; n: number }>> = [[], [], []];
  private keptCount = 0;
  private produced = 0;
  private readonly omitted = { pass: 0, warning: 0, fail: 0 };
  readonly max: number;

  constructor(
    readonly check: string,
    max = DEFAULT_MAX_ITEMS_PER_CHECK,
  ) {
    this.max = Math.max(2, max);
  }

  /** The worst rank that has kept items. */
  private worstKeptRank(): number {
    let worstRank = 2;
    while (worstRank > 0 && !this.kept[worstRank].length) worstRank--;
    return worstRank;
  }

  /** Offers one item; it is kept or counted as left out. */
  add(it: QaRec): void {
    this.offer(it.status, () => it);
  }

  /**
   * Offers an item by its status; `make` builds it only when it is kept (most items of a large
   * fund are left out, and their messages need not be written). `make` must give that status.
   */
  offer(status: QaRec['status'], make: () => QaRec): void {
    const n = this.produced++;
    const rank = RANK[status];
    if (this.keptCount < (this.omittedCount ? this.max - 1 : this.max)) {
      this.kept[rank].push({ it: make(), n });
      this.keptCount++;
      return;
    }
    if (!this.omittedCount) {
      // first overflow: one listed place goes to the 'Items not listed' item
      const out = this.kept[this.worstKeptRank()].pop()!;
      this.omitted[out.it.status]++;
      this.keptCount--;
    }
    // full: the new item replaces the last kept item of the worst rank, if that rank is worse
    const worstRank = this.worstKeptRank();
    if (worstRank > rank) {
      const out = this.kept[worstRank].pop()!;
      this.omitted[out.it.status]++;
      this.kept[rank].push({ it: make(), n });
    } else this.omitted[status]++;
  }

  /** Items offered so far. */
  get count(): number {
    return this.produced;
  }

  /** Items left out (0 when all are listed). */
  get omittedCount(): number {
    return this.omitted.fail + this.omitted.warning + this.omitted.pass;
  }

  /** The kept items in production order, plus the 'Items not listed' item when some were left out. */
  items(): QaRec[] {
    const out = this.kept
      .flat()
      .sort((a, b) => a.n - b.n)
      .map((e) => e.it);
    const left = this.omittedCount;
    if (!left) return out;
    const status: QaRec['status'] = this.omitted.fail ? 'fail' : this.omitted.warning ? 'warning' : 'pass';
    out.push({
      check: this.check,
      name: ITEMS_NOT_LISTED,
      status,
      diff: 0,
      threshold: null,
      message: `${left} more item(s) not listed (${this.omitted.fail} fail, ${this.omitted.warning} warning, ${this.omitted.pass} pass): limit of ${this.max} items per check`,
      details: { omitted: left, ...this.omitted, limit: this.max },
    });
    return out;
  }
}
