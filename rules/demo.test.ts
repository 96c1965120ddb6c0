/** The demo widget's confirmation and outcome texts. */
import { describe, expect, it } from 'vitest';
import { demoConfirmation, demoNeedsConfirmation, demoOutcome, type DemoCleanupText } from './demo.js';

const demoFund = { id: 3, name: 'Kentucky Tax-Free Short-to-Medium Series', fund_code: 'S000012000' };
const full: DemoCleanupText = {
  fundRequests: [demoFund],
  importFiles: ['demo_holdings.csv', 'demo_share_capital.csv', 'demo_trial_balance.csv'],
  kept: [{ id: 7, name: 'Kentucky Tax-Free Short-to-Medium Series', fund_code: 'S000012000', reason: 'changed since the demo created it (pause)' }],
  otherFundRequests: 2,
};
const nothing: DemoCleanupText = { fundRequests: [], importFiles: [], kept: [], otherFundRequests: 0 };

describe('demo texts', () => {
  it('names what a reset removes and what stays', () => {
    expect(demoConfirmation(3, full)).toEqual({
      header: 'Reset demo data?',
      lines: [
        "This permanently removes the demo's fund request Kentucky Tax-Free Short-to-Medium Series (S000012000, id 3) and 3 demo input files (demo_holdings.csv, demo_share_capital.csv and demo_trial_balance.csv).",
        'Kentucky Tax-Free Short-to-Medium Series (S000012000, id 7) stays: changed since the demo created it (pause).',
        "The 2 other fund requests of the demo TPA are not the demo's and stay.",
      ],
      accept: 'Remove demo data',
    });
    expect(demoOutcome(3, { ...full, kept: [], otherFundRequests: 1 })).toBe(
      "Demo data reset: removed the demo's fund request Kentucky Tax-Free Short-to-Medium Series (S000012000, id 3) and 3 demo input files (demo_holdings.csv, demo_share_capital.csv and demo_trial_balance.csv). The 1 other fund request of the demo TPA is not the demo's and stays.",
    );
  });

  it('asks before step 1 only when it removes or leaves something of the demo', () => {
    expect(demoNeedsConfirmation(nothing)).toBe(false);
    expect(demoNeedsConfirmation({ ...nothing, otherFundRequests: 4 })).toBe(false);
    expect(demoNeedsConfirmation({ ...nothing, kept: full.kept })).toBe(true);
    expect(demoConfirmation(1, { ...nothing, fundRequests: [demoFund] }).lines[0]).toBe(
      "This removes the demo's fund request Kentucky Tax-Free Short-to-Medium Series (S000012000, id 3), left from an earlier demo, then creates the demo fund request again.",
    );
    expect(demoOutcome(1, nothing)).toBe('Demo fund request created; nothing was removed.');
  });
});
