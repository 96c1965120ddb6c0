/**
 * The work paper's FX testing sheet: the tolerance and the age limit applied, the check's items
 * (each currency's row gives that currency), then per currency the TPA's rate with its date and
 * source (the FX table's file and line), the independent rate with its date, source and age, the
 * difference, and the value impact; and per distinct TPA rate whether it is an exception.
 */
import type { XlsxWorkbook } from './xlsx-stream.js';
import type { FxTestingSummary } from '../checks/fx-testing.js';
import { FX_TESTING, FX_TOTAL } from '../checks/fx-testing.js';
import { cleanRate } from '../fx/format.js';
import { itemDifference, itemStatusText } from './data-quality.js';
import { itemCurrency } from './price-testing-sheet.js';
import { isoDate, SheetWriter } from './sheet-writer.js';
import type { WorkPaperInput } from './types.js';

export const FX_TESTING_SHEET = 'FX testing';

/** A percentage (0-100) as a fraction, null when not a finite number. */
const fraction = (pct: number | null | undefined): number | null => (typeof pct === 'number' && Number.isFinite(pct) ? pct / 100 : null);

/** Writes the FX testing sheet (see the module's description). */
export function fxTestingSheet(wb: XlsxWorkbook, input: Pick<WorkPaperInput, 'checks' | 'fund'>): void {
  const ccy = input.fund.currency;
  const s = new SheetWriter(wb, FX_TESTING_SHEET, [30, 18, 16, 16, 16, 16, 12, 44, 16, 12, 50, 10, 10, 12, 18, 18, 18, 18, 60]);
  s.row(['Item', 'Status', 'Currency', `Impact (${ccy})`, 'Threshold', 'Message'], true);
  const items = input.checks.items.filter((i) => i.check === FX_TESTING);
  for (const it of items) s.row([it.name, itemStatusText(it), itemCurrency(it, ccy), itemDifference(it), it.threshold, it.message]);
  const total = items.find((i) => i.name === FX_TOTAL)?.details as FxTestingSummary | undefined;
  if (!total?.currencies) {
    s.commit();
    return;
  }
  s.blank();
  s.row([
    'Tolerance',
    [fraction(total.tolerancePct), 'pct3'],
    null,
    null,
    null,
    `a TPA rate within ${total.tolerancePct}% of the independent rate is no exception`,
  ]);
  s.row([
    'Age limit (business days)',
    [total.maxAgeBusinessDays, 'int'],
    null,
    null,
    null,
    'a rate dated more than this many business days (Mon-Fri) before the period end is not used',
  ]);
  if (!total.currencies.length) {
    s.commit();
    return;
  }
  s.blank();
  s.row(
    [
      'Currency',
      'Positions',
      'TPA rate (min)',
      'TPA rate (max)',
      'TPA rate (weighted)',
      'TPA rate date',
      'Status',
      'TPA rate source',
      'Independent rate',
      'Rate date',
      'Rate source',
      'Age (days)',
      'Age (business days)',
      'Difference %',
      'Value local',
      `Value base (TPA, ${ccy})`,
      `Value base (independent, ${ccy})`,
      `Exceptions' impact (${ccy})`,
      'Not performed because',
    ],
    true,
  );
  for (const c of total.currencies) {
    const exceptions = c.tpaRates.filter((t) => t.exception).length;
    s.row([
      c.currency,
      [c.positions, 'int'],
      [cleanRate(c.tpaRateMin), 'rate'],
      [cleanRate(c.tpaRateMax), 'rate'],
      [cleanRate(c.tpaRateEffective), 'rate'],
      isoDate(c.tpaRateDate),
      c.notPerformed ? 'NOT PERFORMED' : exceptions ? 'EXCEPTION' : 'within tolerance',
      c.tpaRateSource,
      [cleanRate(c.independentRate), 'rate'],
      isoDate(c.rateDate),
      c.rateSource,
      c.rateAgeDays === null ? null : [c.rateAgeDays, 'int'],
      c.rateAgeBusinessDays === null ? null : [c.rateAgeBusinessDays, 'int'],
      [fraction(c.rateDiffPct), 'pct3'],
      c.marketValueLocal,
      c.marketValueBaseTpa,
      c.marketValueBaseIndependent,
      c.notPerformed ? null : c.exceptionImpact,
      c.notPerformed,
    ]);
  }
  s.blank();
  s.row(['By TPA rate: currency', 'Positions', 'TPA rate', 'Independent rate', 'Difference %', `Value base (${ccy})`, 'Exception', `Impact (${ccy})`], true);
  for (const c of total.currencies)
    for (const t of c.tpaRates)
      s.row([
        c.currency,
        [t.positions, 'int'],
        [cleanRate(t.rate), 'rate'],
        [cleanRate(c.independentRate), 'rate'],
        [fraction(t.rateDiffPct), 'pct3'],
        t.marketValueBase,
        t.exception ? 'yes' : 'no (within tolerance)',
        t.impact,
      ]);
  s.commit();
}
