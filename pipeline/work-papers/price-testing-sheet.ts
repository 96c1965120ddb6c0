/** The work paper's Price testing sheet (see `priceTestingSheet`). */
import type { XlsxWorkbook } from './xlsx-stream.js';
import type { PriceTestingSummary } from '../checks/price-testing.js';
import { itemDifference, itemStatusText } from './data-quality.js';
import { isoDate, SheetWriter } from './sheet-writer.js';
import { cleanRate } from '../fx/format.js';
import type { WorkPaperInput } from './types.js';

/** The currency an item is about: the position's or currency's own when its details name one, else the fund's. */
export function itemCurrency(it: { details?: Record<string, unknown> }, fundCurrency: string): string {
  const c = it.details?.currency;
  return typeof c === 'string' && c ? c : fundCurrency;
}

/**
 * Writes the Price testing sheet: the check's items (the Currency column gives a position's own
 * price currency, else the fund's) and the largest impacts with the independent price's date and
 * source. The rates are on the FX testing sheet.
 */
export function priceTestingSheet(wb: XlsxWorkbook, input: Pick<WorkPaperInput, 'checks' | 'fund'>): void {
  const s = new SheetWriter(wb, 'Price testing', [40, 40, 12, 18, 18, 18, 18, 18, 18, 44, 8, 12, 34]);
  s.row(['Item', 'Status', 'Currency', `Impact (${input.fund.currency})`, 'Threshold', 'Message'], true);
  const items = input.checks.items.filter((i) => i.check === 'price_testing');
  for (const it of items) s.row([it.name, itemStatusText(it), itemCurrency(it, input.fund.currency), itemDifference(it), it.threshold, it.message]);
  const total = items.find((i) => (i.details as { performed?: boolean } | undefined)?.performed)?.details as PriceTestingSummary | undefined;
  if (total) {
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
        'Value base',
        'Impact',
        'File',
        'Line',
        'Price date',
        'Price source',
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
        [cleanRate(x.tpaFx), 'rate'],
        x.marketValueBase,
        x.impact,
        x.file,
        [x.line, 'int'],
        isoDate(x.independentPriceDate),
        x.independentPriceSource,
      ]);
    }
  }
  s.commit();
}
