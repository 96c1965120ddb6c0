/**
 * Runs every audit check of DOMAIN.md 2.4 on one fund's SDM data, in order: TB balance,
 * investments reconciliation, NAV, price testing, share capital roll-forward, holdings integrity.
 * A check that throws becomes one 'fail' item carrying the error message; the run never crashes.
 * Each check lists at most `ctx.maxItemsPerCheck` items (default 1,000, the "too large" limit of
 * DOMAIN.md 2.4); the rest are replaced by one item saying how many were left out and their worst
 * status. `summary` counts the items returned; `omitted` (check id -> count) what the limit cut.
 */
import type { FundSdmData, QaRec } from '../sdm/rows.js';
import { ItemLimit, ITEMS_NOT_LISTED, worst, type Check, type CheckContext } from './common.js';
import { CAPITAL_ROLL_FORWARD, capitalRollForward } from './capital-roll-forward.js';
import { HOLDINGS_INTEGRITY, holdingsIntegrity } from './holdings-integrity.js';
import { INVESTMENTS_RECONCILIATION, investmentsReconciliation } from './investments-reconciliation.js';
import { NAV, navCheck } from './nav.js';
import { PRICE_TESTING, priceTesting } from './price-testing.js';
import { TB_BALANCE, tbBalance } from './tb-balance.js';

export type { Check, CheckContext, MaterialityAmounts } from './common.js';

/** Check id -> human name, in run order. */
export const CHECK_LABELS: Record<string, string> = {
  [TB_BALANCE]: 'Trial balance',
  [INVESTMENTS_RECONCILIATION]: 'Investments reconciliation',
  [NAV]: 'NAV',
  [PRICE_TESTING]: 'Price testing',
  [CAPITAL_ROLL_FORWARD]: 'Share capital roll-forward',
  [HOLDINGS_INTEGRITY]: 'Holdings integrity',
};

/** The checks in run order. */
export const CHECKS: Array<[id: string, check: Check]> = [
  [TB_BALANCE, tbBalance],
  [INVESTMENTS_RECONCILIATION, investmentsReconciliation],
  [NAV, navCheck],
  [PRICE_TESTING, priceTesting],
  [CAPITAL_ROLL_FORWARD, capitalRollForward],
  [HOLDINGS_INTEGRITY, holdingsIntegrity],
];

export { DEFAULT_MAX_ITEMS_PER_CHECK } from './common.js';

export interface CheckRun {
  items: QaRec[];
  summary: { pass: number; warning: number; fail: number };
  status: QaRec['status'];
  /** Items left out per check by the item limit (only checks that hit it). */
  omitted?: Record<string, number>;
}

export function runChecks(data: FundSdmData, ctx: CheckContext): CheckRun {
  const items: QaRec[] = [];
  const omitted: Record<string, number> = {};
  for (const [id, check] of CHECKS) {
    let out: QaRec[];
    try {
      out = check(data, ctx);
    } catch (e) {
      out = [{ check: id, name: `${CHECK_LABELS[id]} could not run`, status: 'fail', diff: 0, threshold: null, message: `${CHECK_LABELS[id]} failed with an error: ${e instanceof Error ? e.message : String(e)}` }];
    }
    // checks over rows that grow with the fund limit their items as they go (ItemLimit); this
    // limits the others, and keeps the count of what a check itself left out
    const limit = new ItemLimit(id, ctx.maxItemsPerCheck);
    for (const it of out) limit.add(it);
    const kept = limit.items();
    const last = kept[kept.length - 1];
    const n = limit.omittedCount || (last?.name === ITEMS_NOT_LISTED ? Number(last.details?.omitted ?? 0) : 0);
    if (n) omitted[id] = n;
    for (const it of kept) items.push(it);
  }
  const summary = { pass: 0, warning: 0, fail: 0 };
  for (const it of items) summary[it.status]++;
  return { items, summary, status: worst(items.map((i) => i.status)), ...(Object.keys(omitted).length ? { omitted } : {}) };
}
