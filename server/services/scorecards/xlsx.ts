/**
 * A scorecard as an xlsx workbook (docs/scorecards.md, "Export"): the figures of the TPA or client
 * asked for (or of all) with what each is counted over, the monthly trend, the ranking worst first
 * and every fund request behind the figures with its own. Numbers stay numbers (rates as fractions
 * with a % format), dates are dates (DD/MM/YYYY), text a spreadsheet would read as a formula gets a
 * leading quote (DOMAIN.md 2.6). Written with exceljs' streaming writer.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { AppContext } from '../../context.js';
import { heavyWork } from '../../lib/guard.js';
import { todayIso } from '../../lib/dates.js';
import { neutralise } from '../funds/export-listing.js';
import { requestFacts } from './facts.js';
import { countedOver } from '../../../rules/scorecards.js';
import { MEASURES, type Figures } from './figures.js';
import { fundRows } from './funds.js';
import { bucketsOf } from './tallies.js';
import { assemble, resolveScorecard, type ScorecardInput, type Viewer } from './scorecard.js';

export { XLSX_MIME } from '../funds/export-listing.js';

/** An exported scorecard: the workbook and its file name. */
export interface ScorecardWorkbook {
  bytes: Buffer;
  fileName: string;
}

type Unit = (typeof MEASURES)[number]['unit'];
const NUM_FMT: Record<Unit, string> = { count: '#,##0', percent: '0.0%', days: '0.0', ratio: '0.00' };

/** A figure as a cell: rates as fractions (the cell's % format), nothing measured as an empty cell. */
const figureCell = (figures: Figures, key: keyof Figures, unit: Unit) => {
  const v = figures[key];
  if (v === null) return null;
  return unit === 'percent' ? v / 100 : v;
};

const safeName = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '') || 'all';

/** The file name of a scorecard's workbook: `scorecard_<tpa|client>_<name or all>_<from>_<to>.xlsx`. */
export function workbookName(kind: string, key: string | null, from: string, to: string): string {
  return `scorecard_${kind}_${safeName(key ?? 'all')}_${from}_${to}.xlsx`;
}

/**
 * Writes a scorecard with the fund requests behind it.
 * @param today ISO date the figures are computed for (tests)
 * @throws see `resolveScorecard`
 */
export async function scorecardWorkbook(ctx: AppContext, input: ScorecardInput, viewer: Viewer | null, today = todayIso()): Promise<ScorecardWorkbook> {
  heavyWork('the scorecard xlsx export');
  const r = await resolveScorecard(ctx, input, viewer, today);
  const all = await requestFacts(ctx, r.factScope);
  const card = assemble(r, bucketsOf(all), today);
  const out = new PassThrough();
  const parts: Buffer[] = [];
  out.on('data', (chunk: Buffer) => parts.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    out.on('end', resolve);
    out.on('error', reject);
  });
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const who = r.kind === 'tpa' ? 'TPA' : 'Client';
  const bold = (row: ExcelJS.Row) => {
    row.font = { bold: true };
    row.commit();
  };

  const summary = book.addWorksheet('Scorecard');
  summary.columns = [{ width: 36 }, { width: 14 }, { width: 48 }];
  bold(summary.addRow([neutralise(`${who} scorecard: ${card.group?.name ?? (r.kind === 'tpa' ? 'every TPA' : 'every client')}`)]));
  summary.addRow(['Months (data due dates)', `${card.from} to ${card.to}`]).commit();
  const asOf = summary.addRow(['As of', new Date(`${card.asOf}T00:00:00Z`)]);
  asOf.getCell(2).numFmt = 'dd/mm/yyyy';
  asOf.commit();
  if (card.scope.client) summary.addRow(['Fund requests of the client', neutralise(card.scope.client)]).commit();
  summary.addRow([]).commit();
  bold(summary.addRow(['Measure', 'Value', 'Counted over']));
  for (const m of MEASURES) {
    const row = summary.addRow([m.label, figureCell(card.figures, m.key, m.unit), countedOver(card.figures, m.key)]);
    row.getCell(2).numFmt = NUM_FMT[m.unit];
    row.commit();
  }
  summary.commit();

  const trend = book.addWorksheet('Monthly trend', { views: [{ state: 'frozen', ySplit: 1 }] });
  trend.columns = [{ header: 'Month', width: 10 }, ...MEASURES.map((m) => ({ header: m.label, width: 16, style: { numFmt: NUM_FMT[m.unit] } }))];
  bold(trend.getRow(1));
  for (const { month, figures } of card.months) trend.addRow([month, ...MEASURES.map((m) => figureCell(figures, m.key, m.unit))]).commit();
  trend.commit();

  const ranking = book.addWorksheet('Ranking', { views: [{ state: 'frozen', ySplit: 1 }] });
  ranking.columns = [
    { header: 'Rank', width: 6 },
    { header: who, width: 32 },
    ...(r.kind === 'tpa' ? [{ header: 'Code', width: 20 }] : []),
    ...MEASURES.map((m) => ({ header: m.label, width: 16, style: { numFmt: NUM_FMT[m.unit] } })),
  ];
  bold(ranking.getRow(1));
  card.ranking.forEach((g, i) =>
    ranking
      .addRow([i + 1, neutralise(g.name), ...(r.kind === 'tpa' ? [neutralise(g.key)] : []), ...MEASURES.map((m) => figureCell(g.figures, m.key, m.unit))])
      .commit(),
  );
  ranking.commit();

  const funds = book.addWorksheet('Funds', { views: [{ state: 'frozen', ySplit: 1 }] });
  funds.columns = [
    { header: 'Fund Code', width: 16 },
    { header: 'Fund Name', width: 32 },
    { header: 'Client', width: 28 },
    { header: 'Administrator', width: 24 },
    { header: 'Data Due', width: 12, style: { numFmt: 'dd/mm/yyyy' } },
    { header: 'Files complete', width: 20, style: { numFmt: 'dd/mm/yyyy hh:mm:ss' } },
    { header: 'On time', width: 9 },
    { header: 'Days late', width: 10 },
    { header: 'First time right', width: 15 },
    { header: 'Re-deliveries', width: 13 },
    { header: 'Chases sent', width: 12 },
    { header: 'Chases open', width: 12 },
    { header: 'Median days to answer', width: 14, style: { numFmt: '0.0' } },
  ];
  bold(funds.getRow(1));
  const yesNo = (v: boolean | null) => (v === null ? null : v ? 'Yes' : 'No');
  const mine = all.filter(r.inGroup).sort((a, b) => b.dueDate.localeCompare(a.dueDate) || b.id - a.id);
  for (let i = 0; i < mine.length; i += 1000) {
    for (const f of await fundRows(ctx, mine.slice(i, i + 1000), today))
      funds
        .addRow([
          f.fundCode && neutralise(f.fundCode),
          neutralise(f.name),
          neutralise(f.client),
          f.administrator && neutralise(f.administrator),
          new Date(`${f.dueDate}T00:00:00Z`),
          f.completedAt ? new Date(f.completedAt) : null,
          yesNo(f.onTime),
          f.daysLate,
          yesNo(f.firstTimeRight),
          f.reDeliveries,
          f.chasesSent,
          f.chasesOpen,
          f.medianDaysToAnswer,
        ])
        .commit();
  }
  funds.commit();
  await book.commit();
  await done;
  return { bytes: Buffer.concat(parts), fileName: workbookName(r.kind, card.group?.key ?? null, card.from, card.to) };
}
