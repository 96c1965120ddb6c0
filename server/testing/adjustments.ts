/**
 * Test support: adjustments as a user enters them on a fund request, for the service tests on
 * either database.
 */

/** A balanced main adjustment, not booked by the TPA: an audit fee of 250,000 (fund currency) accrued against payables. */
export const feeAccrual = {
  type: 'main',
  description: 'Audit fee accrual',
  bookedByTpa: false,
  lines: [
    { account: 'EXPENSE_OTHER', target: 'tb_balance', amount: 250_000 },
    { account: '20900', target: 'tb_balance', amount: -250_000 },
  ],
};
