/**
 * Test data for the fund request form: the payload a user saves or validates (`POST /fund`,
 * `POST /fund/validate`, `saveFund`, `validateFund`) for a real fund, the Kentucky Tax-Free
 * Short-to-Medium Series (SEC series S000012000), with an empty and an LEI alternate code and one
 * recipient. Not used by the application.
 */
import type { FundInput } from '../services/funds/fund-write.js';

/**
 * A complete, valid fund request of an administrator.
 * @param administrator the administrator's code (it must exist in the database)
 * @param overrides fields replacing the defaults (e.g. `connected_audit`, `administrator_recipients`)
 * @returns a new object each call (a test may change it freely)
 */
export function fundRequestInput(administrator: string, overrides: Partial<FundInput> = {}): FundInput {
  return {
    administrator,
    fund_code: 'S000012000',
    name: 'Kentucky Tax-Free Short-to-Medium Series',
    client: 'Dupree Mutual Funds',
    period_start: '2022-07-01',
    period_end: '2022-12-31',
    request_date: '2023-01-02',
    currency: 'USD',
    country: 'US',
    PM: 1,
    TE: 0.75,
    SAD: 0.05,
    fund_codes: [
      { code: 'S000012000', main: true },
      { code: '', main: false },
      { code: '5493006TF05454RBY690', main: false },
    ],
    administrator_recipients: [{ full_name: 'Jane Auditor', email: 'jane.auditor@example.com', role: 'Auditor' }],
    ...overrides,
  };
}
