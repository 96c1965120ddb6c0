/**
 * Which FX testing items a chase takes to the TPA, on the Goldman Sachs Bond Fund's real delivery
 * (N-PORT 2023-03-31) checked against the ECB's rates: the TPA's rates that differ beyond the
 * tolerance by more than TE, never the currencies the audit team has no independent rate for.
 */
import { describe, expect, it } from 'vitest';
import { GS_FUND, loadCsvTpa } from '../../../pipeline/testing/check-data.js';
import { gsWorkPaperInput } from '../../../pipeline/testing/work-paper-input.js';
import { checkFailures } from './evidence.js';

const items = async (pct: { pm: number; te: number; sad: number }, fxTolerancePct: number) =>
  (await gsWorkPaperInput(loadCsvTpa('meridian_fund_services'), { pct, context: { fxTolerancePct } })).checks.items;

describe('failed FX checks in a chase', () => {
  it('takes no FX item of a delivery whose rates are within the tolerance, nor the currencies without an ECB rate', async () => {
    const qa = await items({ pm: GS_FUND.pm, te: GS_FUND.te, sad: GS_FUND.sad }, 0.5);
    // CLP and TWD are NOT PERFORMED: the ECB publishes neither, which is no fault of the TPA
    expect(qa.filter((i) => i.check === 'fx_testing' && i.notPerformed).map((i) => i.name)).toEqual(['FX CLP', 'FX TWD']);
    expect(checkFailures(qa, [], 'USD').has('failed_check:fx')).toBe(false);
  });

  it('takes each currency whose TPA rates are outside the tolerance by more than TE, with its message', async () => {
    const qa = await items({ pm: 0.001, te: 0.00075, sad: 0.0005 }, 0);
    const failed = qa.filter((i) => i.check === 'fx_testing' && i.status === 'fail' && i.name !== 'FX testing: total impact');
    expect(failed.length).toBeGreaterThan(0);
    const fx = checkFailures(qa, [], 'USD').get('failed_check:fx')!;
    expect(fx.evidence.checkLabel).toBe('FX rates outside the tolerance or missing');
    expect(fx.evidence.items?.map((i) => i.name)).toEqual(failed.map((i) => i.name).slice(0, 20));
    expect(fx.evidence.rowCount).toBe(failed.length);
    expect(fx.csv.split('\n')[1]).toContain(failed[0]!.message.slice(0, 40));
  });
});
