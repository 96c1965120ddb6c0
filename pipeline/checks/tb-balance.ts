/**
 * TB balance (DOMAIN.md 2.4 item 1): the sum of every trial-balance balance_base must be 0
 * (debits = credits), mapped or not. One item: fail when |sum| > SAD amount, warning when
 * |sum| > 0.005 (more than rounding) but within SAD, pass otherwise. diff = the sum (fund
 * currency, signed: positive = debits exceed credits); threshold = SAD amount.
 */
import type { FundSdmData, QaRec } from '../sdm/rows.js';
import { fmt, round, ROUNDING, sum, type CheckContext } from './common.js';

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
  ];
}
