/**
 * The fund's audit work paper (DOMAIN.md 2.5): one xlsx with the sheets, in order, Summary, Trial
 * balance, Holdings, Investments reconciliation, Price testing, FX testing, Capital roll-forward,
 * Exceptions.
 * The Summary names the mapping versions applied and says 'Incomplete data' when a
 * standardization is Invalid; the Exceptions list each unmapped code and row error first
 * (`data-quality.ts`); a check that could not be performed shows NOT PERFORMED and no Difference
 * (it measured nothing). Lineage: the
 * Holdings sheet has one row per position with its file, line and mapping rows applied
 * (`holdings-sheet.ts`), and every check row of the Summary and Exceptions names its source file
 * and line, or the files and line ranges of the rows it was computed from (`lineage.ts`); price
 * testing shows every independent rate and price with its date and source. The Unadjusted
 * differences sheet judges every difference against PM, TE and SAD (`unadjusted-differences.ts`).
 * Conventions: amounts are numbers in fund currency with `#,##0.00`; percentages are fractions
 * with a `0.00%` format (PM 1 is stored 0.01 and shown 1.00%; FX rate differences 0.000%); share
 * counts `#,##0.000`; dates are real dates `dd/mm/yyyy`; every text cell goes through
 * `safeCellText` (formula injection); row 1 of every sheet is a bold, frozen header and column
 * widths are set. Written by the work papers' streaming SpreadsheetML writer (`xlsx-stream.ts`):
 * each row goes into its sheet's XML as it is written, so memory beyond the input is the
 * shared-strings table (distinct texts) and the bytes not compressed yet.
 * The sheets that grow with the delivery (Holdings, Trial balance, Exceptions) continue on
 * 'Holdings (2)', … past Excel's row limit (`continued-sheet.ts`); the Summary then names each
 * Holdings sheet's positions, and the Summary and Exceptions give the Holdings sheet and row of
 * every item that comes from one position (a 'Holdings row' column, only then). The other sheets
 * hold at most a few thousand rows (the checks list at most `maxItemsPerCheck` items each).
 */
import { PassThrough, type Writable } from 'node:stream';
import type { WorkPaperInput } from './types.js';
import { XlsxWorkbook } from './xlsx-stream.js';
import type { FundAdjustment } from '../adjustments/apply.js';
import type { UnappliedLine } from '../adjustments/unapplied.js';
import { STANDARD_ACCOUNTS } from '../sdm/model.js';
import type { FundSdmData, QaRec } from '../sdm/rows.js';
import { CHECK_LABELS, type CheckContext, type CheckRun, type InvestmentTotals, type MaterialityAmounts } from '../checks/index.js';
import { rollForwardByClass } from '../checks/capital-roll-forward.js';
import { DERIVATIVE_ACCOUNTS, INVESTMENT_ACCOUNTS, investmentTotals } from '../checks/investments-reconciliation.js';
import { round, sum, tbByClass } from '../checks/common.js';
import { isoDate, SheetWriter, type Cell } from './sheet-writer.js';
import { ContinuedSheet, checkMaxRows, EXCEL_MAX_ROWS, sheetsFor } from './continued-sheet.js';
import { holdingsSheet } from './holdings-sheet.js';
import { holdingsLayout, type HoldingsLayout } from './holdings-layout.js';
import { aggregationSheet } from './aggregation-sheet.js';
import type { AggregationSummary } from '../aggregation/combine.js';
import { priceTestingSheet } from './price-testing-sheet.js';
import { FX_TESTING_SHEET, fxTestingSheet } from './fx-testing-sheet.js';
import { adjustedByColumn, adjustedByText, itemSource, lineageOf, type SourceFiles } from './lineage.js';
import { conclusionText, UNADJUSTED_SHEET, unadjustedDifferences, writeUnadjustedSheet, type UnadjustedDifferences } from './unadjusted-differences.js';
import {
  itemDifference,
  itemStatusText,
  invalidFiles,
  outcomeCountsRow,
  overallStatusText,
  writeDataExceptions,
  writeDataSummary,
  writeUnappliedExceptions,
  writeUnappliedSummary,
  type MappingUsed,
  type StandardizedFile,
} from './data-quality.js';

export { FMT, isoDate } from './sheet-writer.js';
export type { WorkPaperInput } from './types.js';

/** Whether the work paper's outcome is 'Incomplete data': an Invalid standardization or an adjustment line that does not fit the data. */
export function isIncomplete(input: Pick<WorkPaperInput, 'standardization' | 'unappliedAdjustments'>): boolean {
  return invalidFiles(input.standardization).length > 0 || (input.unappliedAdjustments?.length ?? 0) > 0;
}

/** How the work paper is written. */
export interface WorkPaperOptions {
  /** Rows a sheet holds, header rows included, before it continues on the next (default and most: Excel's 1,048,576). */
  maxRowsPerSheet?: number;
}

/** The sheets, in order, of a work paper whose sheets all fit Excel's row limit (and without Aggregation). */
export const SHEETS = [
  'Summary',
  'Trial balance',
  'Holdings',
  'Investments reconciliation',
  'Price testing',
  FX_TESTING_SHEET,
  'Capital roll-forward',
  UNADJUSTED_SHEET,
  'Exceptions',
] as const;

const label = (id: string) => CHECK_LABELS[id] ?? id;
const statusText = (s: string) => s.toUpperCase();
const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);

function summarySheet(
  wb: XlsxWorkbook,
  input: WorkPaperInput,
  sources: SourceFiles,
  holdingsTotal: number,
  sad: UnadjustedDifferences,
  layout: HoldingsLayout,
  tbSheets: string[],
) {
  const { fund, materiality: m, checks } = input;
  const adjusted = adjustedByColumn(checks.items);
  const s = new SheetWriter(
    wb,
    'Summary',
    [34, 40, 12, 18, 10, 18, 18, 90, 44, 8, ...(layout.continued ? [24] : []), ...adjusted.widths],
    [null, null, 'pct', 'money', null, 'money', 'money', null, null, 'int'],
  );
  s.row(['Item', 'Value', '% of NAV', 'Amount', 'Status', 'Difference', 'Threshold', 'Message', 'File', 'Line'], true);
  s.row(['Fund', fund.name]);
  s.row(['Fund request id', typeof fund.id === 'number' ? [fund.id, 'int'] : String(fund.id)]);
  s.row(['Fund code', fund.fundCode]);
  s.row(['Administrator', fund.administrator]);
  s.row(['Client', fund.client ?? '']);
  s.row(['Period end', isoDate(fund.periodEnd)]);
  s.row(['Currency', fund.currency]);
  const tb = sources.trial_balance;
  const tbWhere = tbSheets.length > 1 ? `sheets ${tbSheets[0]} to ${tbSheets[tbSheets.length - 1]}, totals on the last` : 'sheet Trial balance';
  s.row(['NAV', [input.nav, 'money'], null, null, null, null, null, `Trial balance: assets - liabilities (${tbWhere})`, ...lines(tb)]);
  s.row([
    'Holdings',
    `${input.data.holdings.length} position(s)`,
    null,
    [holdingsTotal, 'money'],
    null,
    null,
    null,
    layout.continued
      ? `Market value (base) of every position: sheets ${layout.describe()}, one row per position in delivery order with its file and line`
      : 'Market value (base) of every position: sheet Holdings, one row per position with its file and line',
    ...lines(sources.holdings),
  ]);
  s.row(['Overall status', overallStatusText(checks.status, input.standardization, input.unappliedAdjustments)]);
  s.row(outcomeCountsRow(checks.items));
  s.row(['Generated at', [input.generatedAt, 'datetime']]);
  writeUnappliedSummary(s, input.unappliedAdjustments ?? []);
  writeDataSummary(s, input.standardization, input.mappings);
  s.blank();
  s.row(['Materiality', null, '% of NAV', 'Amount'], true);
  s.row(['Planning materiality (PM)', null, fund.pm / 100, m.pm]);
  s.row(['Tolerable error (TE)', null, fund.te / 100, m.te]);
  s.row(['Summary of audit differences (SAD)', null, fund.sad / 100, m.sad]);
  s.row([
    'Unadjusted differences above SAD (absolute)',
    `${sad.differences.length} difference(s) found`,
    input.nav ? sad.aggregateGross / Math.abs(input.nav) : null,
    sad.aggregateGross,
    conclusionText(sad),
    null,
    m.pm,
    `${sad.conclusion} (sheet ${UNADJUSTED_SHEET}; ${m.pm ? `${((sad.aggregateGross / m.pm) * 100).toFixed(1)}% of PM` : 'PM is nil'})`,
  ]);
  s.blank();
  s.row(['Check', 'Item', null, null, 'Status', 'Difference', 'Threshold', 'Message', 'File', 'Line', ...layout.header, ...adjusted.header], true);
  for (const it of checks.items) {
    const shares = (it.details as { unit?: string } | undefined)?.unit === 'shares';
    s.row([
      label(it.check),
      it.name,
      null,
      null,
      itemStatusText(it),
      [itemDifference(it), shares ? 'shares' : 'money'],
      [it.threshold, shares ? 'shares' : 'money'],
      it.message,
      ...itemSource(it, sources),
      ...layout.cells(it),
      ...adjusted.cells(it),
    ]);
  }
  s.commit();
}

/** File and Line cells of the rows of one SDM type (files and line ranges). */
const lines = (files: SourceFiles[keyof SourceFiles]): [Cell, Cell] =>
  files.length
    ? [files.map((f) => f.file).join('; '), files.map((f) => (f.first === f.last ? String(f.first) : `${f.first}-${f.last}`)).join('; ')]
    : [null, null];

/** The sheets the Trial balance fills: its rows, a blank row, the totals' header and 5 or 6 totals, and the sum of all balances. */
function trialBalanceSheets(input: WorkPaperInput, maxRows: number): string[] {
  const rows = input.data.trial_balance;
  const bound = rows.length + 9;
  if (bound < maxRows) return [TRIAL_BALANCE];
  return sheetsFor(TRIAL_BALANCE, bound - (tbByClass(rows, STANDARD_ACCOUNTS).unmappedRows ? 0 : 1), 1, maxRows);
}

const TRIAL_BALANCE = 'Trial balance';

function trialBalanceSheet(wb: XlsxWorkbook, input: WorkPaperInput, maxRows: number) {
  const s = new ContinuedSheet(
    wb,
    TRIAL_BALANCE,
    [16, 44, 26, 12, 10, 20, 20, 44, 8, 44],
    [null, null, null, null, null, 'money', 'money', null, 'int', null],
    [
      [
        'Account code',
        'Account name',
        'Standard account',
        'Class',
        'Currency',
        'Balance local',
        `Balance (${input.fund.currency})`,
        'File',
        'Line',
        'Adjusted by',
      ],
    ],
    maxRows,
  );
  const rows = input.data.trial_balance;
  for (const r of rows) {
    s.row([
      r.account_code,
      r.account_name,
      r.standard_account ?? '(unmapped)',
      (r.standard_account && STANDARD_ACCOUNTS[r.standard_account]) || '',
      r.currency,
      r.balance_local,
      r.balance_base,
      r.file,
      r.line,
      adjustedByText(r.adjustedBy),
    ]);
  }
  const t = tbByClass(rows, STANDARD_ACCOUNTS);
  s.blank();
  s.row([null, 'Totals', null, null, null, null, 'Amount'], true);
  s.row([null, 'Total assets', null, null, null, null, round(t.asset)]);
  s.row([null, 'Total liabilities', null, null, null, null, round(-t.liability)]);
  s.row([null, 'NAV (assets - liabilities)', null, null, null, null, round(t.asset + t.liability)]);
  s.row([null, 'Equity (capital accounts)', null, null, null, null, round(-t.equity)]);
  s.row([null, 'Income less expenses', null, null, null, null, round(-(t.income + t.expense))]);
  if (t.unmappedRows) s.row([null, `Unmapped accounts (${t.unmappedRows})`, null, null, null, null, round(t.unmapped)]);
  s.row([null, 'Sum of all balances (should be 0)', null, null, null, null, round(sum(rows.map((r) => r.balance_base)))]);
  s.commit();
}

async function investmentsSheet(wb: XlsxWorkbook, input: WorkPaperInput) {
  const s = new SheetWriter(wb, 'Investments reconciliation', [52, 12, 22, 22, 18, 18, 10, 90], [null, 'int', 'money', 'money', 'money', 'money', null, null]);
  s.row(['Item', 'Positions', 'Holdings (base)', 'Trial balance', 'Difference', 'Threshold', 'Status', 'Message'], true);
  for (const it of input.checks.items.filter((i) => i.check === 'investments_reconciliation')) {
    const d = (it.details ?? {}) as Record<string, unknown>;
    s.row([it.name, num(d.positions), num(d.holdings), num(d.tb), it.diff, it.threshold, itemStatusText(it), it.message]);
  }
  const t = input.investmentTotals ?? (await investmentTotals(input.data));
  s.blank();
  s.row(['Holdings by standard instrument type', 'Positions', 'Market value (base)'], true);
  for (const b of t.byInstrument) s.row([b.instrument, b.count, b.marketValueBase]);
  s.row(['Total holdings', input.data.holdings.length, round(t.holdingsInvestments + t.holdingsDerivatives)]);
  s.blank();
  s.row(['Trial balance accounts', 'Account', 'Standard account', 'Balance (base)'], true);
  for (const r of input.data.trial_balance.filter((r) => r.standard_account && [...INVESTMENT_ACCOUNTS, ...DERIVATIVE_ACCOUNTS].includes(r.standard_account))) {
    s.row([r.account_name ?? r.account_code, r.account_code, r.standard_account, [r.balance_base, 'money']]);
  }
  s.commit();
}

function capitalSheet(wb: XlsxWorkbook, input: WorkPaperInput) {
  const s = new SheetWriter(
    wb,
    'Capital roll-forward',
    [40, 20, 20, 16, 22, 20, 16, 20, 20, 18, 10, 90],
    [null, 'shares', 'shares', 'shares', 'shares', 'shares', 'shares', 'shares', 'shares', 'shares', null, null],
  );
  const head = ['Opening', 'Subscriptions', 'Switches in', 'Distributions reinvested', 'Redemptions', 'Switches out', 'Computed closing', 'Reported closing'];
  s.row(['Share class (shares)', ...head, 'Difference', 'Status'], true);
  const classes = rollForwardByClass(input.data.share_capital);
  const statusOf = (c: string) => input.checks.items.find((i) => i.check === 'capital_roll_forward' && i.name === `Shares roll-forward ${c}`)?.status;
  for (const c of classes) {
    const v = c.shares;
    s.row([
      c.shareClass,
      v.OPENING,
      v.SUBSCRIPTION,
      v.SWITCH_IN,
      v.DISTRIBUTION_REINVESTED,
      v.REDEMPTION,
      v.SWITCH_OUT,
      c.computedClosing,
      v.CLOSING,
      c.diff,
      statusText(statusOf(c.shareClass) ?? ''),
    ]);
  }
  s.blank();
  s.row([`Share class (amounts, ${input.fund.currency})`, ...head.slice(0, 6), null, 'Closing'], true);
  for (const c of classes) {
    const a = c.amounts;
    const m = (x: number | null): Cell => [x, 'money'];
    s.row([c.shareClass, m(a.OPENING), m(a.SUBSCRIPTION), m(a.SWITCH_IN), m(a.DISTRIBUTION_REINVESTED), m(a.REDEMPTION), m(a.SWITCH_OUT), null, m(a.CLOSING)]);
  }
  s.blank();
  s.row(['Comparison', 'Difference', 'Threshold', null, null, null, null, null, null, null, 'Status', 'Message'], true);
  for (const it of input.checks.items.filter((i) => i.check === 'capital_roll_forward')) {
    const shares = (it.details as { unit?: string } | undefined)?.unit === 'shares';
    s.row([
      it.name,
      [itemDifference(it), shares ? 'shares' : 'money'],
      [it.threshold, shares ? 'shares' : 'money'],
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      itemStatusText(it),
      it.message,
    ]);
  }
  s.commit();
}

function exceptionsSheet(wb: XlsxWorkbook, input: WorkPaperInput, sources: SourceFiles, layout: HoldingsLayout, maxRows: number) {
  const adjusted = adjustedByColumn(input.checks.items.filter((i: QaRec) => i.status !== 'pass'));
  const s = new ContinuedSheet(
    wb,
    'Exceptions',
    [28, 36, 16, 18, 18, 100, 44, 8, 24, ...(layout.continued ? [24] : []), ...adjusted.widths],
    [null, null, null, 'money', 'money', null, null, 'int', null],
    [['Check', 'Item', 'Status', 'Difference', 'Threshold', 'Message', 'File', 'Line', 'Column', ...layout.header, ...adjusted.header]],
    maxRows,
  );
  const data = writeDataExceptions(s, input.standardization) + writeUnappliedExceptions(s, input.unappliedAdjustments ?? []);
  const exceptions = input.checks.items.filter((i: QaRec) => i.status !== 'pass');
  for (const it of exceptions)
    s.row([
      label(it.check),
      it.name,
      itemStatusText(it),
      itemDifference(it),
      it.threshold,
      it.message,
      ...itemSource(it, sources),
      null,
      ...layout.cells(it),
      ...adjusted.cells(it),
    ]);
  if (!exceptions.length && !data) s.row(['No exceptions: every check item passed']);
  s.commit();
}

/** Builds the work-paper xlsx in memory (see `writeWorkPaper`). Throws when the xlsx cannot be written. */
export async function buildWorkPaper(input: WorkPaperInput, options: WorkPaperOptions = {}): Promise<Buffer> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  await writeWorkPaper(input, stream, options);
  return Buffer.concat(chunks);
}

/**
 * Writes the work-paper xlsx to `stream` as it is made (ended when done), so a fund with many
 * positions never holds its work paper in memory. A sheet that would pass
 * `options.maxRowsPerSheet` rows (Excel's limit by default) continues on the next. Throws a
 * RangeError for a limit that is not an integer from 2 to Excel's, and when the xlsx cannot be written (the zip fails).
 */
export async function writeWorkPaper(input: WorkPaperInput, stream: Writable, options: WorkPaperOptions = {}): Promise<void> {
  const maxRows = checkMaxRows(options.maxRowsPerSheet ?? EXCEL_MAX_ROWS);
  const wb = new XlsxWorkbook(stream, { creator: 'Fund Audit', created: input.generatedAt });
  // one pass over the rows first: the files and line ranges every aggregate figure names
  const layout = holdingsLayout(input.data.holdings.length, maxRows, input.checks.items);
  const lineage = await lineageOf(input.data, layout.wanted);
  layout.found(lineage.positions);
  const sources = lineage.sources;
  const holdingsTotal = round(lineage.holdingsTotal);
  const sad = unadjustedDifferences(input.checks.items, input.materiality, isIncomplete(input), input.adjustments);
  summarySheet(wb, input, sources, holdingsTotal, sad, layout, trialBalanceSheets(input, maxRows));
  if (input.aggregation) aggregationSheet(wb, input.aggregation);
  trialBalanceSheet(wb, input, maxRows);
  await holdingsSheet(wb, input.data, input.fund.currency, input.mappings, input.checkContext, maxRows);
  await investmentsSheet(wb, input);
  priceTestingSheet(wb, input);
  fxTestingSheet(wb, input);
  capitalSheet(wb, input);
  writeUnadjustedSheet(
    new SheetWriter(wb, UNADJUSTED_SHEET, [30, 40, 18, 18, 36, 100, 44, 10, 40], [null, null, 'money', 'money', null, null, null, 'int']),
    sad,
    input.materiality,
    sources,
  );
  exceptionsSheet(wb, input, sources, layout, maxRows);
  await wb.commit();
}
