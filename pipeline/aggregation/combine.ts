/**
 * Aggregation of parent and child funds (spec: parent and child funds, `aggreg_consol_flag`; DOMAIN.md
 * 2.4): a parent whose consolidation flag is set is audited over its children's standardized data
 * combined. `combineChildren` converts each child's rows into the parent's currency (`convert.ts`),
 * joins them into one `FundSdmData` (row sources stay lazy: each child's rows are read and converted
 * as they go by) and computes the per-child figures (rows, NAV, total assets and liabilities, holdings
 * market value, in the child's currency and converted) and their total, with one check item per
 * child naming the rate used (pass), a stale rate (warning) or a missing rate (fail, NOT PERFORMED:
 * the child is left out of the aggregate). Pure: no database, no server imports.
 */
import { STANDARD_ACCOUNTS } from '../sdm/model.js';
import { chunksOf, type FundSdmData, type FxRate, type HoldingRow, type QaRec, type Rows, type RowSource } from '../sdm/rows.js';
import { round, Sum, tbByClass } from '../checks/common.js';
import { childConversion, rowConverters, type ChildConversion } from './convert.js';
import { ConsolidatedHoldings, consolidationKey, SharedSecurities } from './consolidate.js';

/** Check id of the aggregation items (one per child). */
export const AGGREGATION = 'aggregation';

/** SDM types counted in an aggregate's rows. */
export const AGGREGATE_TYPES = ['trial_balance', 'holdings', 'transactions', 'share_capital', 'prices'] as const;
type AggregateType = (typeof AGGREGATE_TYPES)[number];

/** One child fund as the parent's aggregation reads it. */
export interface ChildInput {
  id: number;
  fundCode: string;
  name: string;
  /** The child's own currency (its figures' currency). */
  currency: string;
  /** The child's period end, ISO date: the date its figures are converted at. */
  periodEnd: string;
  data: FundSdmData;
}

/** Money figures of one child (or of the total), in one currency. */
export interface AggregateAmounts {
  nav: number;
  totalAssets: number;
  totalLiabilities: number;
  holdingsMarketValue: number;
}

/** What the aggregation shows of one child. */
export interface ChildFigures {
  id: number;
  fundCode: string;
  name: string;
  currency: string;
  periodEnd: string;
  conversion: ChildConversion;
  /** Rows per SDM type. */
  rows: Record<AggregateType, number>;
  /** In the child's currency. */
  local: AggregateAmounts;
  /** In the parent's currency; null when the child could not be converted (no rate). */
  converted: AggregateAmounts | null;
}

/** The aggregation's figures: per child and in total (parent currency), as stored and shown. */
export interface AggregationSummary {
  /** The parent's currency. */
  currency: string;
  children: ChildFigures[];
  /** Sum of the converted children (children without a rate are left out). */
  total: AggregateAmounts & { rows: Record<AggregateType, number> };
  /** Rows of every child, every type (what the row limit is compared with). */
  rowCount: number;
  /**
   * Securities held by two or more children, each one position of the parent (`positions`), and the
   * children's holdings rows they consolidate (`rows`); the parent's positions are
   * `total.rows.holdings - rows + positions`.
   */
  consolidated: { positions: number; rows: number };
}

/** The combined data and what to show of it. */
export interface Aggregate {
  data: FundSdmData;
  summary: AggregationSummary;
  /** One item per child: its conversion (check id `aggregation`). */
  items: QaRec[];
}

/** Rows of every type of every child: counted from each source's `length`, no row is read. */
export function aggregateRowCount(children: Array<Pick<ChildInput, 'data'>>): number {
  let n = 0;
  for (const c of children) for (const t of AGGREGATE_TYPES) n += c.data[t].length;
  return n;
}

/** A row source reading several sources in turn, each row mapped. */
function concatSources<T>(parts: Array<{ rows: Rows<T>; map: (r: T) => T }>): RowSource<T> {
  return {
    get length() {
      return parts.reduce((n, p) => n + p.rows.length, 0);
    },
    async *[Symbol.asyncIterator]() {
      for (const p of parts) for await (const chunk of chunksOf(p.rows)) yield chunk.map(p.map);
    },
  };
}

/**
 * NAV, total assets and liabilities (positive) of a trial balance, and the holdings' market value,
 * unrounded; `each` sees every holding on the way.
 */
async function amountsOf(data: FundSdmData, each?: (h: HoldingRow) => void): Promise<AggregateAmounts> {
  const tb = tbByClass(data.trial_balance, STANDARD_ACCOUNTS);
  const mv = new Sum();
  for await (const chunk of chunksOf(data.holdings))
    for (const h of chunk) {
      mv.add(h.market_value_base);
      each?.(h);
    }
  return { nav: tb.asset + tb.liability, totalAssets: tb.asset, totalLiabilities: -tb.liability, holdingsMarketValue: mv.value };
}

/** Each amount converted, unrounded. */
const mapExact = (a: AggregateAmounts, f: (x: number) => number): AggregateAmounts => ({
  nav: f(a.nav),
  totalAssets: f(a.totalAssets),
  totalLiabilities: f(a.totalLiabilities),
  holdingsMarketValue: f(a.holdingsMarketValue),
});

/** Each amount converted, then rounded to the cent. */
const mapAmounts = (a: AggregateAmounts, f: (x: number) => number): AggregateAmounts => ({
  nav: round(f(a.nav)),
  totalAssets: round(f(a.totalAssets)),
  totalLiabilities: round(f(a.totalLiabilities)),
  holdingsMarketValue: round(f(a.holdingsMarketValue)),
});

/** The check item of one child's conversion. */
function conversionItem(c: ChildInput, conv: ChildConversion, parentCurrency: string, maxAgeDays: number): QaRec {
  const name = `Child ${c.fundCode} in ${parentCurrency}`;
  const base = { check: AGGREGATION, name, diff: 0, threshold: null, details: { childId: c.id, ...conv } };
  if (conv.unitsPerParent === null)
    return {
      ...base,
      status: 'fail',
      message: `${c.name} (${c.fundCode}) is in ${conv.currency}: no independent ${conv.currency} rate per ${parentCurrency} on or before ${conv.asOf}; its figures are not in the aggregate`,
      notPerformed: `no ${conv.currency} rate per ${parentCurrency} on or before ${conv.asOf}`,
    };
  const rate =
    conv.source === 'same currency'
      ? `already in ${parentCurrency}`
      : `converted at ${Number(conv.unitsPerParent.toFixed(8))} ${conv.currency} per ${parentCurrency} dated ${conv.rateDate} (${conv.source})`;
  if (conv.stale)
    return {
      ...base,
      status: 'warning',
      message: `Stale rate: ${c.name} (${c.fundCode}) ${rate}, ${conv.ageDays} days before its period end ${conv.asOf} (more than ${maxAgeDays})`,
    };
  return { ...base, status: 'pass', message: `${c.name} (${c.fundCode}) ${rate}` };
}

/** The check item saying how many securities several children hold, each consolidated into one position. */
function consolidationItem(c: { positions: number; rows: number }, childCount: number): QaRec {
  return {
    check: AGGREGATION,
    name: 'Consolidated positions',
    status: 'pass',
    diff: 0,
    threshold: null,
    message: `${c.positions} securit${c.positions === 1 ? 'y is' : 'ies are'} held by two or more of the ${childCount} child funds: each is one position of the parent, its quantities and values summed from the children's ${c.rows} rows (each row is checked and named in the Holdings sheet)`,
    details: c,
  };
}

/**
 * Combines the children's data into the parent's currency.
 * Input: the children (each with its own currency and period end), the parent's currency, the
 * independent rates in units per parent currency (`FxRate[]`, as `loadFxRates` gives them for that
 * base), the stale limit in days. Output: the combined data (lazy sources), the per-child and total
 * figures, one item per child. Children without a rate are reported and left out. Reads each child's
 * holdings once (for its market value); the combined sources read them again on each pass.
 */
export async function combineChildren(children: ChildInput[], parentCurrency: string, rates: FxRate[], maxAgeDays: number): Promise<Aggregate> {
  const included: Array<{ child: ChildInput; conv: ReturnType<typeof rowConverters> }> = [];
  const figures: ChildFigures[] = [];
  const items: QaRec[] = [];
  const rawTotal: AggregateAmounts[] = [];
  const shared = new SharedSecurities();
  for (const c of children) {
    const conversion = childConversion(c.currency, parentCurrency, c.periodEnd, rates, maxAgeDays);
    items.push(conversionItem(c, conversion, parentCurrency, maxAgeDays));
    const rows = Object.fromEntries(AGGREGATE_TYPES.map((t) => [t, c.data[t].length])) as Record<AggregateType, number>;
    // the securities of the children in the aggregate (a child with no rate is left out) are noted, to find those several hold
    const index = included.length;
    const raw = await amountsOf(c.data, conversion.unitsPerParent === null ? undefined : (h) => shared.add(consolidationKey(h, c.currency), index));
    const local = mapAmounts(raw, (x) => x);
    let converted: AggregateAmounts | null = null;
    if (conversion.unitsPerParent !== null) {
      const conv = rowConverters(conversion.unitsPerParent, c.currency, c.fundCode);
      included.push({ child: c, conv });
      const exact = mapExact(raw, conv.amount);
      rawTotal.push(exact);
      converted = mapAmounts(exact, (x) => x);
    }
    figures.push({ id: c.id, fundCode: c.fundCode, name: c.name, currency: conversion.currency, periodEnd: c.periodEnd, conversion, rows, local, converted });
  }
  const data: FundSdmData = {
    trial_balance: included.flatMap(({ child, conv }) => child.data.trial_balance.map(conv.trialBalance)),
    holdings: new ConsolidatedHoldings(
      included.map(({ child, conv }) => ({ rows: child.data.holdings, map: conv.holding, currency: child.currency })),
      shared,
    ),
    transactions: concatSources(included.map(({ child, conv }) => ({ rows: child.data.transactions, map: conv.transaction }))),
    share_capital: included.flatMap(({ child, conv }) => child.data.share_capital.map(conv.shareCapital)),
    prices: concatSources(included.map(({ child }) => ({ rows: child.data.prices, map: (r) => r }))),
  };
  shared.compact();
  const consolidated = shared.counts;
  if (consolidated.positions) items.push(consolidationItem(consolidated, included.length));
  const counted = figures.filter((f) => f.converted);
  // the total is the exact sum rounded once (as the work paper's NAV over the combined rows), not a sum of rounded figures
  const add = (k: keyof AggregateAmounts) => round(rawTotal.reduce((sum, a) => sum + a[k], 0));
  const totalRows = Object.fromEntries(AGGREGATE_TYPES.map((t) => [t, counted.reduce((n, f) => n + f.rows[t], 0)])) as Record<AggregateType, number>;
  return {
    data,
    items,
    summary: {
      currency: parentCurrency,
      children: figures,
      total: {
        nav: add('nav'),
        totalAssets: add('totalAssets'),
        totalLiabilities: add('totalLiabilities'),
        holdingsMarketValue: add('holdingsMarketValue'),
        rows: totalRows,
      },
      rowCount: aggregateRowCount(children),
      consolidated,
    },
  };
}

/** A short text of a child's conversion for sheets and logs. */
export function conversionText(f: ChildFigures, parentCurrency: string): string {
  const c = f.conversion;
  if (c.unitsPerParent === null) return `no ${c.currency} rate per ${parentCurrency} on or before ${c.asOf}: not converted`;
  if (c.source === 'same currency') return `same currency (${parentCurrency})`;
  return `${c.unitsPerParent.toFixed(8)} ${c.currency} per ${parentCurrency}, ${c.rateDate}${c.stale ? ' (stale)' : ''}`;
}
