/**
 * Test support of the work paper tests: the work paper input of the Goldman Sachs Bond Fund
 * (GS_FUND) from its SDM arrays, with its checks run as the calculations stage runs them.
 */
import { join } from 'node:path';
import { loadFxCsv } from '../checks/fx.js';
import { runChecks, type CheckContext } from '../checks/index.js';
import { materiality, navFromTrialBalance } from '../checks/materiality.js';
import { FIXTURES, GS_FUND } from './check-data.js';
import { STANDARD_ACCOUNTS } from '../sdm/model.js';
import type { FundSdmData } from '../sdm/rows.js';
import type { WorkPaperInput } from '../work-papers/types.js';

/**
 * The GS fund's work paper input for `data`.
 * @param opts.fxFile the ECB rates file under fixtures/fx (default the period end's cross rates)
 * @param opts.pct the fund's PM, TE and SAD percentages (0-100; default the fund's)
 * @param opts.context check context settings over the defaults
 * @param opts.generatedAt the time the work paper says it was made (default 2 May 2023 10:30 UTC)
 */
export async function gsWorkPaperInput(
  data: FundSdmData,
  opts: { fxFile?: string; pct?: { pm: number; te: number; sad: number }; context?: Partial<CheckContext>; generatedAt?: Date } = {},
): Promise<WorkPaperInput> {
  const pct = opts.pct ?? { pm: GS_FUND.pm, te: GS_FUND.te, sad: GS_FUND.sad };
  const nav = navFromTrialBalance(data.trial_balance, STANDARD_ACCOUNTS);
  const m = materiality({ nav, ...pct });
  const checkContext: CheckContext = {
    fundCode: GS_FUND.fundCode,
    periodEnd: GS_FUND.periodEnd,
    currency: 'USD',
    materiality: m,
    nav,
    externalValuations: true,
    fxRates: loadFxCsv(join(FIXTURES, 'fx', opts.fxFile ?? 'ecb-usd-cross-rates-2023-03-31.csv')),
    accountClasses: STANDARD_ACCOUNTS,
    ...opts.context,
  };
  const checks = await runChecks(data, checkContext);
  return {
    fund: { ...GS_FUND, ...pct },
    materiality: m,
    nav,
    data,
    checks,
    checkContext,
    generatedAt: opts.generatedAt ?? new Date(Date.UTC(2023, 4, 2, 10, 30)),
  };
}
