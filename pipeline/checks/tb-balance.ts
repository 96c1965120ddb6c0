/**
 * TB balance (DOMAIN.md 2.4 item 1): the sum of every trial-balance balance_base must be 0
 * (debits = credits), mapped or not. One item: fail when |sum| > SAD amount, warning when
 * |sum| > 0.005 (more than rounding) but within SAD, pass otherwise. diff = the sum (fund
 * currency, signed: positive = debits exceed credits); threshold = SAD amount.
 * Then one warning per account whose balance has the wrong side for its class (standard account):
 * a credit on an asset account or a debit on a liability account (an overdraft left in cash, a
 * payable mapped as an asset, a mapping on the wrong side). The item names the account, its file
 * and line and the balance; diff 0 (it is a presentation to confirm, not a measured difference).
 */
import type { FundSdmData, QaRec, TrialBalanceRow } from '../sdm/rows.js';
import { accountClass, fmt, round, ROUNDING, sum, type CheckContext } from './common.js';

export const TB_BALANCE = 'tb_balance';

export function tbBalance(data: FundSdmData, ctx: CheckContext): QaRec[] {
  const rows = data.trial_balance;
  const sad = ctx.materiality.sad;
  if (!rows.length) {
    return [
      {
        check: TB_BALANCE,
        name: 'Trial balance sums to zero',
        status: 'fail',
        diff: 0,
        threshold: sad,
        message: 'No trial balance rows: the TB balance cannot be checked',
        notPerformed: 'no trial balance rows delivered',
      },
    ];
  }
  const debits = sum(rows.filter((r) => r.balance_base > 0).map((r) => r.balance_base));
  const credits = sum(rows.filter((r) => r.balance_base < 0).map((r) => r.balance_base));
  const total = round(sum(rows.map((r) => r.balance_base)), 2);
  const abs = Math.abs(total);
  const status: QaRec['status'] = abs > sad + ROUNDING / 10 ? 'fail' : abs > ROUNDING ? 'warning' : 'pass';
  const unmapped = rows.filter((r) => !r.standard_account).length;
  const message =
    status === 'pass'
      ? `Debits ${fmt(debits)} = credits ${fmt(-credits)} (${rows.length} accounts)`
      : `TB does not balance: debits ${fmt(debits)} - credits ${fmt(-credits)} = ${fmt(total)} ${ctx.currency}, ${status === 'fail' ? 'above' : 'within'} SAD ${fmt(sad)}`;
  return [
    {
      check: TB_BALANCE,
      name: 'Trial balance sums to zero',
      status,
      diff: total,
      threshold: sad,
      message,
      details: { accounts: rows.length, debits: round(debits), credits: round(credits), unmappedAccounts: unmapped },
    },
    ...wrongSideBalances(rows, ctx),
  ];
}

/** The accounts whose balance is on the wrong side for their class: credits on assets, debits on liabilities. */
export function wrongSideBalances(rows: TrialBalanceRow[], ctx: CheckContext): QaRec[] {
  const out: QaRec[] = [];
  for (const r of rows) {
    const cls = accountClass(r, ctx.accountClasses);
    const wrong = (cls === 'asset' && r.balance_base < -ROUNDING) || (cls === 'liability' && r.balance_base > ROUNDING);
    if (!wrong) continue;
    const side = cls === 'asset' ? 'Credit balance on asset account' : 'Debit balance on liability account';
    out.push({
      check: TB_BALANCE,
      name: `${side} ${r.account_code}`,
      status: 'warning',
      diff: 0,
      threshold: null,
      file: r.file,
      line: r.line,
      message: `${side} ${r.account_code} ${r.account_name} (${r.standard_account}): balance ${fmt(r.balance_base)} ${ctx.currency}, ${cls === 'asset' ? 'a credit' : 'a debit'} where ${cls === 'asset' ? 'a debit' : 'a credit'} is expected: confirm the account's mapping or reclassify it`,
      details: { account: r.account_code, standardAccount: r.standard_account, class: cls, balance: r.balance_base },
    });
  }
  return out;
}
