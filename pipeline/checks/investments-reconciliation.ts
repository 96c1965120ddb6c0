/**
 * Investments reconciliation (DOMAIN.md 2.4 item 2). The standard chart keeps investments and
 * derivatives apart (INVESTMENTS_AT_VALUE vs DERIVATIVES_ASSET / DERIVATIVES_LIABILITY), so two
 * items are produced:
 * - non-derivative holdings (standard instrument type other than DERIVATIVE, unmapped included):
 *   sum of market_value_base vs TB accounts mapped to INVESTMENTS_AT_VALUE;
 * - derivative holdings (standard type DERIVATIVE): sum of market_value_base (positive and negative
 *   fair values) vs DERIVATIVES_ASSET + DERIVATIVES_LIABILITY (liability balances are credits, so
 *   negative, like the negative holdings values).
 * diff = holdings - TB (fund currency). Status: fail when |diff| > TE amount, warning when > SAD
 * amount, else pass; `threshold` is TE on a fail, SAD otherwise (both in details).
 */
import { chunksOf, type FundSdmData, type HoldingRow, type QaRec } from '../sdm/rows.js';
import { fmt, isDerivative, round, runPass, statusFor, Sum, tbAccounts, type CheckContext, type HoldingsPass } from './common.js';

export const INVESTMENTS_RECONCILIATION = 'investments_reconciliation';

export const INVESTMENT_ACCOUNTS = ['INVESTMENTS_AT_VALUE'];
export const DERIVATIVE_ACCOUNTS = ['DERIVATIVES_ASSET', 'DERIVATIVES_LIABILITY'];

/** Holdings and TB totals the reconciliation compares (also written to the work paper). */
export interface InvestmentTotals {
  /** Positions and base market value per standard instrument type ('(unmapped)' for none), in order of first appearance. */
  byInstrument: Array<{ instrument: string; count: number; marketValueBase: number }>;
  holdingsInvestments: number;
  holdingsDerivatives: number;
  investmentPositions: number;
  derivativePositions: number;
  tbInvestments: number;
  tbDerivativesAsset: number;
  tbDerivativesLiability: number;
}

/** Investment totals counted one holding at a time (`add`), with the TB's figures at the end (`totals`). */
export function investmentTotalsPass(data: Pick<FundSdmData, 'trial_balance'>) {
  const byInstrument = new Map<string, { count: number; value: Sum }>();
  const inv = new Sum();
  const der = new Sum();
  let invCount = 0;
  let derCount = 0;
  return {
    add(h: HoldingRow): void {
      if (isDerivative(h)) {
        der.add(h.market_value_base);
        derCount++;
      } else {
        inv.add(h.market_value_base);
        invCount++;
      }
      const k = h.standard_instrument ?? '(unmapped)';
      let b = byInstrument.get(k);
      if (!b) byInstrument.set(k, (b = { count: 0, value: new Sum() }));
      b.count++;
      b.value.add(h.market_value_base);
    },
    totals(): InvestmentTotals {
      return {
        byInstrument: [...byInstrument].map(([instrument, b]) => ({ instrument, count: b.count, marketValueBase: round(b.value.value) })),
        holdingsInvestments: round(inv.value),
        holdingsDerivatives: round(der.value),
        investmentPositions: invCount,
        derivativePositions: derCount,
        tbInvestments: round(tbAccounts(data.trial_balance, INVESTMENT_ACCOUNTS)),
        tbDerivativesAsset: round(tbAccounts(data.trial_balance, ['DERIVATIVES_ASSET'])),
        tbDerivativesLiability: round(tbAccounts(data.trial_balance, ['DERIVATIVES_LIABILITY'])),
      };
    },
  };
}

/** Holdings and TB totals the reconciliation compares (one pass over the holdings). */
export async function investmentTotals(data: FundSdmData): Promise<InvestmentTotals> {
  const pass = investmentTotalsPass(data);
  for await (const chunk of chunksOf(data.holdings)) for (const h of chunk) pass.add(h);
  return pass.totals();
}

/** The reconciliation's two items from the totals. */
function reconciliationItems(t: InvestmentTotals, ctx: CheckContext): QaRec[] {
  const { sad, te } = ctx.materiality;
  const item = (name: string, holdings: number, tb: number, what: string, accounts: string, positions: number): QaRec => {
    const diff = round(holdings - tb);
    const status = statusFor(diff, sad, te);
    const verdict =
      status === 'pass' ? 'agree' : `differ by ${fmt(diff)} ${ctx.currency} (${status === 'fail' ? `above TE ${fmt(te)}` : `above SAD ${fmt(sad)}`})`;
    return {
      check: INVESTMENTS_RECONCILIATION,
      name,
      status,
      diff,
      threshold: status === 'fail' ? te : sad,
      message: `${what} (${positions} positions) ${fmt(holdings)} vs TB ${accounts} ${fmt(tb)}: ${verdict}`,
      details: { holdings: holdings, tb, positions, sad, te },
    };
  };
  return [
    item(
      'Investments vs INVESTMENTS_AT_VALUE',
      t.holdingsInvestments,
      t.tbInvestments,
      'Non-derivative holdings',
      'INVESTMENTS_AT_VALUE',
      t.investmentPositions,
    ),
    item(
      'Derivatives vs DERIVATIVES_ASSET + DERIVATIVES_LIABILITY',
      t.holdingsDerivatives,
      round(t.tbDerivativesAsset + t.tbDerivativesLiability),
      'Derivative holdings',
      'DERIVATIVES_ASSET + DERIVATIVES_LIABILITY',
      t.derivativePositions,
    ),
  ];
}

/** The reconciliation as a holdings pass; `totals` gives what it compared once finished. */
export function investmentsReconciliationPass(data: FundSdmData, ctx: CheckContext): HoldingsPass & { totals(): InvestmentTotals } {
  const pass = investmentTotalsPass(data);
  return { add: pass.add, totals: pass.totals, finish: () => reconciliationItems(pass.totals(), ctx) };
}

export function investmentsReconciliation(data: FundSdmData, ctx: CheckContext): Promise<QaRec[]> {
  return runPass(investmentsReconciliationPass(data, ctx), data.holdings);
}
