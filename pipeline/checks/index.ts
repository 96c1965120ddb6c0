/**
 * Runs every audit check of DOMAIN.md 2.4 on one fund's SDM data, in order: TB balance,
 * investments reconciliation, NAV, price testing, share capital roll-forward, holdings integrity.
 * A check that throws becomes one 'fail' item carrying the error message; the run never crashes.
 * Each check lists at most `ctx.maxItemsPerCheck` items (default 1,000, the "too large" limit of
 * DOMAIN.md 2.4); the rest are replaced by one item saying how many were left out and their worst
 * status. `summary` counts the items returned; `omitted` (check id -> count) what the limit cut.
 */
import { chunksOf, type FundSdmData, type QaRec } from '../sdm/rows.js';
import { ItemLimit, ITEMS_NOT_LISTED, worst, type Check, type CheckContext, type HoldingsCheck, type HoldingsPass, type MaterialityAmounts } from './common.js';
import { CAPITAL_ROLL_FORWARD, capitalRollForward } from './capital-roll-forward.js';
import { HOLDINGS_INTEGRITY, holdingsIntegrity, holdingsIntegrityPass } from './holdings-integrity.js';
import { INVESTMENTS_RECONCILIATION, investmentsReconciliation, investmentsReconciliationPass, type InvestmentTotals } from './investments-reconciliation.js';
import { NAV, navCheck } from './nav.js';
import { PRICE_TESTING, priceTesting, priceTestingPass } from './price-testing.js';
import { TB_BALANCE, tbBalance } from './tb-balance.js';

export type { Check, CheckContext, HoldingsCheck, HoldingsPass, MaterialityAmounts } from './common.js';
export type { InvestmentTotals } from './investments-reconciliation.js';
/** One check item (spec: QA_Rec), as the calculations stage stores them. */
export type { QaRec } from '../sdm/rows.js';

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

/** Items of a run (or of a stored calculation file) by status. */
export interface CheckSummary {
  pass: number;
  warning: number;
  fail: number;
}

export interface CheckRun {
  items: QaRec[];
  summary: CheckSummary;
  status: QaRec['status'];
  /** Items left out per check by the item limit (only checks that hit it). */
  omitted?: Record<string, number>;
  /** The holdings and TB totals the investments reconciliation compared (for the work paper). */
  investmentTotals?: InvestmentTotals;
}

/**
 * What the calculations stage stores as a fund's calculation file (`fund_files.validation`); a
 * type, not an interface, so that it fits that JSON column (a record of any keys).
 */
export type CalculationValidation = {
  QA_Rec: QaRec[];
  summary: CheckSummary;
  status: QaRec['status'];
  /** NAV in fund currency. */
  nav: number;
  /** PM / TE / SAD amounts in fund currency. */
  materiality: MaterialityAmounts;
  /** Rows per SDM type the checks read. */
  rowCounts: Record<string, number>;
  /** The investments reconciliation's totals (absent in files stored before they were kept). */
  investmentTotals?: InvestmentTotals;
  /**
   * The delivered files of each SDM type the checks read, with each file's first and last line
   * (`lineageOf` of the work papers): an item computed over many rows is exported with these.
   * Absent in files stored before they were kept.
   */
  sources?: Record<string, Array<{ file: string; first: number; last: number; rows: number }>>;
};

/**
 * The checks that go through the holdings row by row, as passes: `runChecks` feeds them from one
 * read of the holdings (rows read back from the database are decoded once, not once a check).
 */
const HOLDINGS_CHECKS: Record<string, HoldingsCheck> = {
  [INVESTMENTS_RECONCILIATION]: investmentsReconciliationPass,
  [PRICE_TESTING]: priceTestingPass,
  [HOLDINGS_INTEGRITY]: holdingsIntegrityPass,
};

/** A failed check's one item. */
const failItem = (id: string, e: unknown): QaRec => ({
  check: id,
  name: `${CHECK_LABELS[id]} could not run`,
  status: 'fail',
  diff: 0,
  threshold: null,
  message: `${CHECK_LABELS[id]} failed with an error: ${e instanceof Error ? e.message : String(e)}`,
  notPerformed: `the check failed with an error: ${e instanceof Error ? e.message : String(e)}`,
});

/** Runs the holdings passes over one read of the holdings: each check's items or its error. */
async function holdingsPasses(
  data: FundSdmData,
  ctx: CheckContext,
): Promise<{ results: Map<string, () => QaRec[]>; totals: () => InvestmentTotals | undefined }> {
  const live = new Map<string, HoldingsPass>();
  const failed = new Map<string, unknown>();
  for (const [id, prepare] of Object.entries(HOLDINGS_CHECKS)) {
    try {
      live.set(id, await prepare(data, ctx));
    } catch (e) {
      failed.set(id, e);
    }
  }
  const reconciliation = live.get(INVESTMENTS_RECONCILIATION) as ReturnType<typeof investmentsReconciliationPass> | undefined;
  try {
    for await (const chunk of chunksOf(data.holdings)) {
      for (const h of chunk) {
        for (const [id, pass] of live) {
          try {
            pass.add(h);
          } catch (e) {
            live.delete(id);
            failed.set(id, e);
          }
        }
      }
    }
  } catch (e) {
    // reading the rows failed: every check still reading them fails with it
    for (const id of live.keys()) failed.set(id, e);
    live.clear();
  }
  const results = new Map<string, () => QaRec[]>();
  for (const [id, e] of failed)
    results.set(id, () => {
      throw e;
    });
  for (const [id, pass] of live) results.set(id, () => pass.finish());
  return { results, totals: () => (reconciliation && live.has(INVESTMENTS_RECONCILIATION) ? reconciliation.totals() : undefined) };
}

/**
 * Runs every check on a fund's data (see the module's description).
 * @returns the items in check order, their summary and worst status, what the item limit left out,
 *   and the investments reconciliation's totals
 */
export async function runChecks(data: FundSdmData, ctx: CheckContext): Promise<CheckRun> {
  const items: QaRec[] = [];
  const omitted: Record<string, number> = {};
  const passes = await holdingsPasses(data, ctx);
  for (const [id, check] of CHECKS) {
    let out: QaRec[];
    try {
      out = passes.results.get(id)?.() ?? (await check(data, ctx));
    } catch (e) {
      out = [failItem(id, e)];
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
  const investmentTotals = passes.totals();
  return {
    items,
    summary,
    status: worst(items.map((i) => i.status)),
    ...(Object.keys(omitted).length ? { omitted } : {}),
    ...(investmentTotals ? { investmentTotals } : {}),
  };
}
