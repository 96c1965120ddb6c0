/**
 * Currency conversion of a child fund's standardized rows into its parent's currency (fund
 * aggregation, spec "parent and child funds"). A child's figures are converted with one independent
 * FX rate: the latest rate of the child's currency dated on or before the child's period end (the
 * date of its figures), from the same rates the checks use (units of a currency per one unit of the
 * parent's currency); a rate dated more than `fxMaxAgeDays` before that date is stale (used, and
 * reported), and a child in a currency with no such rate cannot be converted.
 * Money columns in the base currency (`*_base`, `nav_per_share`) are divided by the rate; local
 * amounts, prices, quantities and shares are left as they are; a holding's `fx_rate` (price
 * currency per base) is multiplied by it, so that local / fx_rate still gives the base value.
 */
import { roundCents } from '../../rules/adjustments.js';
import type { FundAdjustment } from '../adjustments/apply.js';
import { daysBetween } from '../checks/price-evidence.js';
import { rateFor } from '../checks/fx.js';
import type { AdjustmentRef, FxRate, HoldingRow, ShareCapitalRow, TransactionRow, TrialBalanceRow } from '../sdm/rows.js';

/** How one child's figures are brought into the parent's currency. */
export interface ChildConversion {
  /** The child's currency (ISO 4217). */
  currency: string;
  /** The date the rate is looked up for (the child's period end). */
  asOf: string;
  /** Units of the child's currency per one unit of the parent's currency; null when no rate exists. */
  unitsPerParent: number | null;
  /** Date of the rate used (the period end itself for the same currency); null when none. */
  rateDate: string | null;
  /** Where the rate comes from (file and ECB figures), 'same currency' when no conversion is needed. */
  source: string | null;
  /** Days between the rate's date and `asOf`. */
  ageDays: number | null;
  /** The rate is dated more than the stale limit before `asOf`. */
  stale: boolean;
}

/**
 * The conversion of a child's figures: its currency's rate on or before `asOf` in `rates` (units per
 * parent currency). Same currency: rate 1 dated `asOf`. Input: currencies ISO codes, `asOf` ISO date,
 * `maxAgeDays` the stale limit in days. Never throws; a missing rate gives `unitsPerParent: null`.
 */
export function childConversion(childCurrency: string, parentCurrency: string, asOf: string, rates: FxRate[], maxAgeDays: number): ChildConversion {
  const currency = childCurrency.toUpperCase();
  if (currency === parentCurrency.toUpperCase())
    return { currency, asOf, unitsPerParent: 1, rateDate: asOf, source: 'same currency', ageDays: 0, stale: false };
  const rate = asOf ? rateFor(rates, currency, asOf) : undefined;
  if (!rate) return { currency, asOf, unitsPerParent: null, rateDate: null, source: null, ageDays: null, stale: false };
  const ageDays = daysBetween(rate.rate_date, asOf);
  return { currency, asOf, unitsPerParent: rate.units_per_base, rateDate: rate.rate_date, source: rate.source, ageDays, stale: ageDays > maxAgeDays };
}

/** Row converters for one child: each returns a new row with its money in the parent's currency. */
export interface RowConverters {
  amount: (x: number) => number;
  trialBalance: (r: TrialBalanceRow) => TrialBalanceRow;
  holding: (r: HoldingRow) => HoldingRow;
  transaction: (r: TransactionRow) => TransactionRow;
  shareCapital: (r: ShareCapitalRow) => ShareCapitalRow;
}

/**
 * The converters of a child whose currency has `unitsPerParent` units per parent unit, prefixing each
 * share class with the child's fund code (`S000013795 A`) so that classes of two children stay
 * apart in the roll-forward. @throws Error for a rate that is not a positive number.
 */
export function rowConverters(unitsPerParent: number, childCurrency: string, fundCode: string): RowConverters {
  if (!(unitsPerParent > 0) || !Number.isFinite(unitsPerParent)) throw new Error(`Bad conversion rate ${unitsPerParent} for ${fundCode}`);
  const r = unitsPerParent;
  const amount = (x: number) => (r === 1 ? x : x / r);
  const maybe = (x: number | null) => (x === null || x === undefined ? x : amount(x));
  const ccy = childCurrency.toUpperCase();
  // the amounts of the child's own adjustments that changed a row, in the parent's currency too
  const refs = (row: { adjustedBy?: AdjustmentRef[] }) =>
    row.adjustedBy ? { adjustedBy: row.adjustedBy.map((a) => ({ ...a, amount: amount(a.amount) })) } : {};
  return {
    amount,
    trialBalance: (row) => ({ ...row, balance_base: amount(row.balance_base), ...refs(row) }),
    holding: (row) => {
      const inChildBase = !row.price_currency || row.price_currency.toUpperCase() === ccy;
      const fx = row.fx_rate ?? (inChildBase ? 1 : null);
      return {
        ...row,
        fx_rate: fx === null ? null : fx * r,
        market_value_base: amount(row.market_value_base),
        cost_base: maybe(row.cost_base),
        accrued_income_base: maybe(row.accrued_income_base),
        ...(row.delivered ? { delivered: { ...row.delivered, market_value_base: amount(row.delivered.market_value_base) } } : {}),
        ...refs(row),
      };
    },
    transaction: (row) => ({ ...row, amount_base: amount(row.amount_base) }),
    shareCapital: (row) => ({
      ...row,
      share_class: `${fundCode} ${row.share_class}`,
      amount_base: maybe(row.amount_base),
      nav_per_share: maybe(row.nav_per_share),
    }),
  };
}

/**
 * A child's audit adjustments as the parent's work paper lists them: amounts converted into the
 * parent's currency at the child's rate (`unitsPerParent`, rounded to the cent), the description
 * prefixed with the child's fund code. The booked ones are already in the child's figures; the
 * others are unadjusted differences of the group.
 */
export function childAdjustments(adjustments: readonly FundAdjustment[], unitsPerParent: number, fundCode: string): FundAdjustment[] {
  return adjustments.map((a) => ({
    ...a,
    description: `${fundCode}: ${a.description}`,
    lines: a.lines.map((l) => ({ ...l, amount: roundCents(unitsPerParent === 1 ? l.amount : l.amount / unitsPerParent) })),
  }));
}
