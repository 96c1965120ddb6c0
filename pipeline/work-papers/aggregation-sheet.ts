/**
 * The Aggregation sheet of a parent fund's work paper (spec: parent and child funds): one row per
 * child with its currency, period end, the independent rate used (units of the child's currency per
 * one unit of the parent's, its date, source and staleness), its rows, and its NAV, total assets,
 * total liabilities and holdings market value in its own currency and converted into the parent's;
 * then the total of the converted figures, which the rest of the work paper is computed over, and
 * when children share securities, the parent's positions once each is consolidated.
 */
import type { XlsxWorkbook } from './xlsx-stream.js';
import type { AggregationSummary } from '../aggregation/combine.js';
import { isoDate, SheetWriter, type Cell } from './sheet-writer.js';

export const AGGREGATION_SHEET = 'Aggregation';

const FIGURES = [
  ['nav', 'NAV'],
  ['totalAssets', 'Total assets'],
  ['totalLiabilities', 'Total liabilities'],
  ['holdingsMarketValue', 'Holdings market value'],
] as const;

/** Writes the Aggregation sheet of `summary` (amounts `#,##0.00`, rates to 8 decimals, dates as dates). */
export function aggregationSheet(wb: XlsxWorkbook, summary: AggregationSummary): void {
  const ccy = summary.currency;
  const s = new SheetWriter(
    wb,
    AGGREGATION_SHEET,
    [14, 44, 10, 12, 18, 12, 60, 8, 10, 10, 10, 10, ...FIGURES.flatMap(() => [20, 20])],
    [null, null, null, 'date', 'rate', 'date', null, null, 'int', 'int', 'int', 'int', ...FIGURES.flatMap(() => ['money', 'money'] as const)],
  );
  s.row(
    [
      'Child fund code',
      'Name',
      'Currency',
      'Period end',
      `Rate (per ${ccy})`,
      'Rate date',
      'Rate source',
      'Stale',
      'TB rows',
      'Holdings',
      'Transactions',
      'Share capital rows',
      ...FIGURES.flatMap(([, label]) => [`${label} (local)`, `${label} (${ccy})`]),
    ],
    true,
  );
  for (const c of summary.children) {
    const conv = c.conversion;
    s.row([
      c.fundCode,
      c.name,
      c.currency,
      isoDate(c.periodEnd),
      conv.unitsPerParent,
      isoDate(conv.rateDate),
      conv.unitsPerParent === null ? `no ${conv.currency} rate per ${ccy} on or before ${conv.asOf}: not in the total` : conv.source,
      conv.unitsPerParent === null ? null : conv.stale ? `yes (${conv.ageDays} days)` : 'no',
      c.rows.trial_balance,
      c.rows.holdings,
      c.rows.transactions,
      c.rows.share_capital,
      ...FIGURES.flatMap(([k]): Cell[] => [c.local[k], c.converted ? c.converted[k] : null]),
    ]);
  }
  const t = summary.total;
  s.row(
    [
      'Total',
      `${summary.children.filter((c) => c.converted).length} of ${summary.children.length} child fund(s), in ${ccy}`,
      ccy,
      null,
      null,
      null,
      null,
      null,
      t.rows.trial_balance,
      t.rows.holdings,
      t.rows.transactions,
      t.rows.share_capital,
      ...FIGURES.flatMap(([k]): Cell[] => [null, t[k]]),
    ],
    true,
  );
  const c = summary.consolidated;
  if (c?.positions) {
    const blank = (n: number): Cell[] => Array.from({ length: n }, () => null);
    s.row([
      'Positions',
      `${c.positions} securit${c.positions === 1 ? 'y' : 'ies'} held by two or more children: one position each, from ${c.rows} rows`,
      ...blank(7),
      t.rows.holdings - c.rows + c.positions,
    ]);
  }
  s.commit();
}
