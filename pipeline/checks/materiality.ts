/**
 * Materiality (DOMAIN.md 1 and 2.4): PM, TE and SAD are entered as percentages of NAV (0-100);
 * amount = pct / 100 x |NAV|, in fund currency, rounded to the cent. NAV is given, or taken from
 * the mapped trial balance as total assets - total liabilities.
 */
import type { AccountClass } from '../sdm/model.js';
import type { TrialBalanceRow } from '../sdm/rows.js';
import { round, sum, type MaterialityAmounts } from './common.js';

/**
 * NAV from the mapped TB: sum of balance_base over accounts of class asset and liability (debits
 * positive, credits negative, so this is assets - liabilities). Unmapped accounts are left out.
 */
export function navFromTrialBalance(rows: TrialBalanceRow[], classes: Record<string, AccountClass>): number {
  return round(
    sum(
      rows
        .filter((r) => r.standard_account && (classes[r.standard_account] === 'asset' || classes[r.standard_account] === 'liability'))
        .map((r) => r.balance_base),
    ),
    2,
  );
}

export interface MaterialityInput {
  /** NAV in fund currency; when missing, computed from `trialBalance` + `accountClasses`. */
  nav?: number | null;
  trialBalance?: TrialBalanceRow[];
  accountClasses?: Record<string, AccountClass>;
  /** Percentages of NAV, 0-100. */
  pm: number;
  te: number;
  sad: number;
}

/**
 * PM / TE / SAD amounts in fund currency. Throws RangeError when a percentage is not a number in
 * 0-100, or when neither a NAV nor a trial balance is given.
 */
export function materiality(input: MaterialityInput): MaterialityAmounts {
  let nav = input.nav;
  if (nav === undefined || nav === null) {
    if (!input.trialBalance || !input.accountClasses) throw new RangeError('materiality needs a NAV or a trial balance with account classes');
    nav = navFromTrialBalance(input.trialBalance, input.accountClasses);
  }
  if (!Number.isFinite(nav)) throw new RangeError(`NAV is not a number: ${nav}`);
  const amount = (name: string, pct: number) => {
    if (typeof pct !== 'number' || !Number.isFinite(pct) || pct < 0 || pct > 100) throw new RangeError(`${name} must be a percentage 0-100, got ${pct}`);
    return round((pct / 100) * Math.abs(nav as number), 2);
  };
  return { pm: amount('PM', input.pm), te: amount('TE', input.te), sad: amount('SAD', input.sad) };
}
