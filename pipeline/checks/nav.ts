/**
 * NAV (DOMAIN.md 2.4 item 3). NAV from the mapped TB = total assets - total liabilities (sum of
 * balance_base over accounts whose standard account has class asset or liability; liabilities are
 * credits, i.e. negative). Compared with:
 * - share capital, where given: per share class, shares of the CLOSING row x its nav_per_share
 *   (falling back to the CLOSING amount_base when nav_per_share is missing), summed over classes;
 * - the TB capital accounts: -(equity + income + expense balances), i.e. capital plus the
 *   period's undistributed result when the TB is not closed.
 * diff = TB NAV - other figure (fund currency). Status: fail when |diff| > TE amount, warning when
 * > SAD amount, else pass; `threshold` is TE on a fail, SAD otherwise. No share-capital rows: that
 * item is left out; a share class without a usable CLOSING row: warning, no comparison.
 */
import type { FundSdmData, QaRec } from '../sdm/rows.js';
import { fmt, round, statusFor, sum, tbByClass, type CheckContext } from './common.js';

export const NAV = 'nav';

/** Closing NAV per share class from share capital: shares x NAV per share (or the closing amount). */
export function navFromShareCapital(data: FundSdmData) {
  const classes = new Map<
    string,
    { shares: number; navPerShare: number | null; amount: number | null; value: number | null; basis: string; file: string; line: number }
  >();
  for (const r of data.share_capital) {
    if (r.standard_activity !== 'CLOSING') continue;
    const prev = classes.get(r.share_class);
    const shares = (prev?.shares ?? 0) + r.shares;
    const navPerShare = r.nav_per_share ?? prev?.navPerShare ?? null;
    const amount = r.amount_base === null ? (prev?.amount ?? null) : (prev?.amount ?? 0) + r.amount_base;
    const value = navPerShare !== null ? shares * navPerShare : amount;
    const basis = navPerShare !== null ? 'shares x NAV per share' : amount !== null ? 'closing amount (no NAV per share)' : 'not given';
    classes.set(r.share_class, { shares, navPerShare, amount, value, basis, file: r.file, line: r.line });
  }
  return [...classes].map(([shareClass, c]) => ({ shareClass, ...c, value: c.value === null ? null : round(c.value) }));
}

export function navCheck(data: FundSdmData, ctx: CheckContext): QaRec[] {
  const { sad, te } = ctx.materiality;
  const t = tbByClass(data.trial_balance, ctx.accountClasses);
  const assets = round(t.asset);
  const liabilities = round(-t.liability);
  const navTb = round(t.asset + t.liability);
  const out: QaRec[] = [];
  const compare = (name: string, other: number, label: string, extra: Record<string, unknown>): QaRec => {
    const diff = round(navTb - other);
    const status = statusFor(diff, sad, te);
    return {
      check: NAV,
      name,
      status,
      diff,
      threshold: status === 'fail' ? te : sad,
      message: `NAV from TB ${fmt(navTb)} (assets ${fmt(assets)} - liabilities ${fmt(liabilities)}) vs ${label} ${fmt(other)}: ${status === 'pass' ? 'agree' : `differ by ${fmt(diff)} ${ctx.currency}`}`,
      details: { navTb, assets, liabilities, other, sad, te, ...extra },
    };
  };
  if (!data.trial_balance.some((r) => r.standard_account && ['asset', 'liability'].includes(ctx.accountClasses[r.standard_account]))) {
    out.push({
      check: NAV,
      name: 'NAV from trial balance',
      status: 'fail',
      diff: 0,
      threshold: null,
      message: 'No TB account is mapped to an asset or liability standard account: NAV cannot be computed',
      notPerformed: 'no TB account is mapped to an asset or liability standard account',
    });
    return out;
  }
  if (data.share_capital.length) {
    const classes = navFromShareCapital(data);
    const usable = classes.filter((c) => c.value !== null);
    const missing = classes.filter((c) => c.value === null).map((c) => c.shareClass);
    if (!usable.length || missing.length) {
      const what = usable.length
        ? `share class(es) ${missing.join(', ')} have no CLOSING NAV per share or amount`
        : 'share capital has no CLOSING row with NAV per share or amount';
      out.push({
        check: NAV,
        name: 'NAV vs share capital',
        status: 'warning',
        diff: 0,
        threshold: null,
        message: `NAV from share capital not computed: ${what}`,
        notPerformed: what,
        details: { missing },
      });
    } else {
      const scNav = round(sum(usable.map((c) => c.value as number)));
      const rec = compare(
        'NAV vs share capital',
        scNav,
        `share capital (${usable.map((c) => `${c.shareClass}: ${fmt(c.shares, 3)} x ${c.navPerShare ?? '-'}`).join('; ')})`,
        {
          classes: usable.map(({ shareClass, shares, navPerShare, value, basis }) => ({ shareClass, shares, navPerShare, value, basis })),
        },
      );
      if (usable.length === 1) Object.assign(rec, { file: usable[0].file, line: usable[0].line });
      out.push(rec);
    }
  }
  const capital = round(-(t.equity + t.income + t.expense));
  out.push(
    compare('NAV vs TB capital accounts', capital, 'capital accounts (equity + result)', {
      equity: round(-t.equity),
      result: round(-(t.income + t.expense)),
      unmappedAccounts: t.unmappedRows,
    }),
  );
  return out;
}
