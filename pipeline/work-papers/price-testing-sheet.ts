/** The work paper's Price testing sheet (see `priceTestingSheet`). */
import type { XlsxWorkbook } from './xlsx-stream.js';
import type { PriceTestingSummary } from '../checks/price-testing.js';
import { itemDifference, itemStatusText } from './data-quality.js';
import { isoDate, SheetWriter } from './sheet-writer.js';
import type { WorkPaperInput } from './workbook.js';

const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);
/** A percentage (0-100) as a fraction, null when not a finite number. */
const fraction = (pct: number | null): number | null => (num(pct) === null ? null : (pct as number) / 100);

/**
 * Writes the Price testing sheet: the check's items, FX by currency (TPA and independent rates,
 * the rate's date, source, age and staleness), FX by TPA rate, the currencies with no rate, and the
 * largest impacts with the independent price's and rate's dates and sources.
 */
export function priceTestingSheet(wb: XlsxWorkbook, input: Pick<WorkPaperInput, 'checks' | 'fund'>): void {
  const s = new SheetWriter(wb, 'Price testing', [40, 40, 12, 18, 18, 18, 18, 18, 18, 18, 18, 18, 44, 8, 12, 34, 12, 50]);
  s.row(['Item', 'Status', 'Currency', 'Impact', 'Threshold', 'Message'], true);
  const items = input.checks.items.filter((i) => i.check === 'price_testing');
  for (const it of items) s.row([it.name, itemStatusText(it), input.fund.currency, itemDifference(it), it.threshold, it.message]);
  const total = items.find((i) => (i.details as { performed?: boolean } | undefined)?.performed)?.details as PriceTestingSummary | undefined;
  if (total) {
    s.blank();
    s.row(
      [
        'FX by currency',
        'Positions',
        'TPA rate (min)',
        'TPA rate (max)',
        'TPA rate (weighted)',
        'Independent rate',
        'Rate date',
        'Difference %',
        'Value local',
        'Value base (TPA)',
        'Value base (independent)',
        'FX impact',
        'Rate source',
        'Rate age (days)',
        'Rate status',
      ],
      true,
    );
    for (const c of total.currencies ?? []) {
      s.row([
        c.currency,
        [c.positions, 'int'],
        [c.tpaRateMin, 'rate'],
        [c.tpaRateMax, 'rate'],
        [c.tpaRateEffective, 'rate'],
        [c.independentRate, 'rate'],
        isoDate(c.rateDate),
        [fraction(c.rateDiffPct), 'pct3'],
        c.marketValueLocal,
        c.marketValueBaseTpa,
        c.marketValueBaseIndependent,
        c.impact,
        c.rateSource,
        c.rateAgeDays === undefined ? null : [c.rateAgeDays, 'int'],
        c.stale === undefined ? null : c.stale ? 'STALE RATE' : 'current',
      ]);
    }
    s.blank();
    s.row(['FX by TPA rate', 'Positions', 'TPA rate', 'Independent rate', 'Difference %', 'Value base (TPA)', 'FX impact'], true);
    for (const c of total.currencies ?? []) {
      for (const r of c.tpaRates ?? [])
        s.row([
          c.currency,
          [r.positions, 'int'],
          [r.rate, 'rate'],
          [c.independentRate, 'rate'],
          [fraction(r.rateDiffPct), 'pct3'],
          r.marketValueBase,
          r.impact,
        ]);
    }
    for (const u of total.untestedCurrencies ?? []) s.row([`${u.currency}: no independent rate`, [u.positions, 'int'], null, null, null, u.marketValueBase]);
    s.blank();
    s.row(
      [
        'Largest impacts: security id',
        'Name',
        'Currency',
        'Quantity',
        'TPA price',
        'Independent price',
        'TPA FX',
        'Independent FX',
        'Value base',
        'Price impact',
        'FX impact',
        'Impact',
        'File',
        'Line',
        'Price date',
        'Price source',
        'Rate date',
        'Rate source',
      ],
      true,
    );
    for (const x of total.largest ?? []) {
      s.row([
        x.securityId,
        x.name,
        x.currency,
        [x.quantity, 'price'],
        [x.tpaPrice, 'price'],
        [x.independentPrice, 'price'],
        [x.tpaFx, 'rate'],
        [x.independentFx, 'rate'],
        x.marketValueBase,
        x.priceImpact,
        x.fxImpact,
        x.impact,
        x.file,
        [x.line, 'int'],
        isoDate(x.independentPriceDate),
        x.independentPriceSource,
        isoDate(x.rateDate),
        x.rateSource,
      ]);
    }
  }
  s.commit();
}
