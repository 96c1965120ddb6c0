import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STANDARD_ACCOUNTS } from '../sdm/model.js';
import type { FundSdmArrays } from '../sdm/rows.js';
import type { CheckContext } from './common.js';
import { materiality, navFromTrialBalance } from './materiality.js';
import { tbBalance } from './tb-balance.js';
import { loadCsvTpa, tpaDir } from '../testing/check-data.js';

const GS = 'meridian_fund_services';
const TB_FILE = 'MFS_TB_S000013795_20230331.csv';

/** The delivered TB rows of Meridian's report, read here: account -> line (1-based) and balance (decimal comma). */
function deliveredTb(): Map<string, { line: number; balance: number }> {
  const out = new Map<string, { line: number; balance: number }>();
  readFileSync(join(tpaDir(GS), 'inputs', TB_FILE), 'utf8')
    .split(/\r?\n/)
    .forEach((l, i) => {
      const c = l.split(';');
      if (i >= 4 && c.length > 6) out.set(c[2], { line: i + 1, balance: Number(c[6].replace(/\./g, '').replace(',', '.')) });
    });
  return out;
}

function contextFor(data: FundSdmArrays): CheckContext {
  const nav = navFromTrialBalance(data.trial_balance, STANDARD_ACCOUNTS);
  return {
    fundCode: 'S000013795',
    periodEnd: '2023-03-31',
    currency: 'USD',
    nav,
    materiality: materiality({ nav, pm: 1, te: 0.75, sad: 0.05 }),
    externalValuations: false,
    accountClasses: STANDARD_ACCOUNTS,
  };
}

describe('balances on the wrong side of their class (GS trial balance)', () => {
  it('as delivered: every asset is a debit and every liability a credit, nothing is flagged', () => {
    const gs = loadCsvTpa(GS);
    expect(tbBalance(gs, contextFor(gs)).map((i) => i.name)).toEqual(['Trial balance sums to zero']);
  });

  it('a credit on an asset account and a debit on a liability account are flagged with the account, line and amount', () => {
    const gs = loadCsvTpa(GS);
    const ctx = contextFor(gs);
    // the accrued liabilities account mapped to CASH, the other assets account to PAYABLES (two wrong mapping rows)
    for (const r of gs.trial_balance) {
      if (r.account_code === '20900') r.standard_account = 'CASH';
      if (r.account_code === '12900') r.standard_account = 'PAYABLES';
    }
    const tb = deliveredTb();
    const items = tbBalance(gs, ctx).slice(1);
    const money = (x: number) => x.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    expect(items.map((i) => [i.name, i.status, i.file, i.line])).toEqual([
      ['Debit balance on liability account 12900', 'warning', TB_FILE, tb.get('12900')!.line],
      ['Credit balance on asset account 20900', 'warning', TB_FILE, tb.get('20900')!.line],
    ]);
    expect(tb.get('20900')!.balance).toBeLessThan(0);
    expect(items[1].message).toContain(`balance ${money(tb.get('20900')!.balance)} USD, a credit where a debit is expected`);
    expect(items[0].message).toContain(`balance ${money(tb.get('12900')!.balance)} USD, a debit where a credit is expected`);
  });
});
