/**
 * The fund's audit work paper (DOMAIN.md 2.5): one xlsx with the sheets, in order, Summary, Trial
 * balance, Investments reconciliation, Price testing, Capital roll-forward, Exceptions.
 * Conventions: amounts are numbers in fund currency with `#,##0.00`; percentages are fractions
 * with a `0.00%` format (PM 1 is stored 0.01 and shown 1.00%; FX rate differences 0.000%); share
 * counts `#,##0.000`; dates are real dates `dd/mm/yyyy`; every text cell goes through
 * `safeCellText` (formula injection); row 1 of every sheet is a bold, frozen header and column
 * widths are set. Written with exceljs' streaming writer: each row is serialised and dropped as it
 * is written, so memory beyond the input is the shared-strings table (distinct texts) and the
 * output bytes. A 100x copy of the GS holdings with all its 166,831 items listed takes ~9 s.
 */
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { STANDARD_ACCOUNTS } from '../sdm/model.js';
import type { FundSdmData, QaRec } from '../sdm/rows.js';
import { CHECK_LABELS, type CheckRun, type InvestmentTotals, type MaterialityAmounts } from '../checks/index.js';
import { rollForwardByClass } from '../checks/capital-roll-forward.js';
import type { PriceTestingSummary } from '../checks/price-testing.js';
import { DERIVATIVE_ACCOUNTS, INVESTMENT_ACCOUNTS, investmentTotals } from '../checks/investments-reconciliation.js';
import { round, sum, tbByClass } from '../checks/common.js';
import { safeCellText } from './safe-cell.js';

export interface WorkPaperInput {
  fund: {
    id: number | string;
    name: string;
    fundCode: string;
    administrator: string;
    client: string | null;
    periodEnd: string;
    currency: string;
    pm: number;
    te: number;
    sad: number;
  };
  /** PM / TE / SAD amounts in fund currency. */
  materiality: MaterialityAmounts;
  nav: number;
  data: FundSdmData;
  checks: Pick<CheckRun, 'items' | 'summary' | 'status'>;
  /** The investments reconciliation's totals from the checks' run; computed from `data` (one pass over the holdings) when absent. */
  investmentTotals?: InvestmentTotals;
  generatedAt: Date;
}

export const SHEETS = ['Summary', 'Trial balance', 'Investments reconciliation', 'Price testing', 'Capital roll-forward', 'Exceptions'] as const;

export const FMT = {
  money: '#,##0.00',
  pct: '0.00%',
  pct3: '0.000%',
  date: 'dd/mm/yyyy',
  datetime: 'dd/mm/yyyy hh:mm',
  int: '#,##0',
  shares: '#,##0.000',
  rate: '0.00000000',
  price: '#,##0.00########',
} as const;
type Fmt = keyof typeof FMT;

/** A cell value; numbers / dates may carry their format as `[value, fmt]`. */
type Cell = string | number | Date | null | undefined | [number | Date | null | undefined, Fmt];

/** ISO date -> Date at UTC midnight (an integer Excel serial), or the text when not a date. */
export function isoDate(s: string | null | undefined): Date | string | null {
  if (!s) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  return m ? new Date(Date.UTC(+m[1], +m[2] - 1, +m[3])) : s;
}

class SheetWriter {
  private ws: ExcelJS.Worksheet;
  constructor(
    wb: ExcelJS.stream.xlsx.WorkbookWriter,
    name: string,
    widths: number[],
    private defaults: Array<Fmt | null> = [],
  ) {
    this.ws = wb.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1, xSplit: 0 }] });
    this.ws.columns = widths.map((width) => ({ width }));
  }
  /** Writes one row; `bold` for header and section rows. Row is committed at once. */
  row(cells: Cell[], bold = false): void {
    const row = this.ws.addRow([]);
    cells.forEach((c, i) => {
      if (c === null || c === undefined) return;
      const cell = row.getCell(i + 1);
      const [v, f] = Array.isArray(c) ? c : [c, null];
      if (v === null || v === undefined) return;
      if (typeof v === 'string') cell.value = safeCellText(v);
      else if (typeof v === 'number') {
        if (!Number.isFinite(v)) return;
        cell.value = v;
        cell.numFmt = FMT[f ?? this.defaults[i] ?? 'money'];
      } else {
        cell.value = v;
        cell.numFmt = FMT[f ?? (this.defaults[i] === 'datetime' ? 'datetime' : 'date')];
      }
      if (bold) cell.font = { bold: true };
    });
    if (bold) row.font = { bold: true };
    row.commit();
  }
  blank(): void {
    this.row([]);
  }
  commit(): void {
    this.ws.commit();
  }
}

const label = (id: string) => CHECK_LABELS[id] ?? id;
const statusText = (s: string) => s.toUpperCase();
const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);
/** A percentage (0-100) as a fraction, null when not a finite number. */
const fraction = (pct: number | null): number | null => (num(pct) === null ? null : (pct as number) / 100);

function summarySheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, input: WorkPaperInput) {
  const { fund, materiality: m, checks } = input;
  const s = new SheetWriter(wb, 'Summary', [34, 40, 12, 18, 10, 18, 18, 90, 44, 8], [null, null, 'pct', 'money', null, 'money', 'money', null, null, 'int']);
  s.row(['Item', 'Value', '% of NAV', 'Amount', 'Status', 'Difference', 'Threshold', 'Message', 'File', 'Line'], true);
  s.row(['Fund', fund.name]);
  s.row(['Fund request id', typeof fund.id === 'number' ? [fund.id, 'int'] : String(fund.id)]);
  s.row(['Fund code', fund.fundCode]);
  s.row(['Administrator', fund.administrator]);
  s.row(['Client', fund.client ?? '']);
  s.row(['Period end', isoDate(fund.periodEnd)]);
  s.row(['Currency', fund.currency]);
  s.row(['NAV', [input.nav, 'money']]);
  s.row(['Overall status', statusText(checks.status)]);
  s.row(['Items passed / warnings / failed', `${checks.summary.pass} / ${checks.summary.warning} / ${checks.summary.fail}`]);
  s.row(['Generated at', [input.generatedAt, 'datetime']]);
  s.blank();
  s.row(['Materiality', null, '% of NAV', 'Amount'], true);
  s.row(['Planning materiality (PM)', null, fund.pm / 100, m.pm]);
  s.row(['Tolerable error (TE)', null, fund.te / 100, m.te]);
  s.row(['Summary of audit differences (SAD)', null, fund.sad / 100, m.sad]);
  s.blank();
  s.row(['Check', 'Item', null, null, 'Status', 'Difference', 'Threshold', 'Message', 'File', 'Line'], true);
  for (const it of checks.items) {
    const shares = (it.details as { unit?: string } | undefined)?.unit === 'shares';
    s.row([
      label(it.check),
      it.name,
      null,
      null,
      statusText(it.status),
      [it.diff, shares ? 'shares' : 'money'],
      [it.threshold, shares ? 'shares' : 'money'],
      it.message,
      it.file,
      it.line,
    ]);
  }
  s.commit();
}

function trialBalanceSheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, input: WorkPaperInput) {
  const s = new SheetWriter(wb, 'Trial balance', [16, 44, 26, 12, 10, 20, 20, 44, 8], [null, null, null, null, null, 'money', 'money', null, 'int']);
  s.row(['Account code', 'Account name', 'Standard account', 'Class', 'Currency', 'Balance local', `Balance (${input.fund.currency})`, 'File', 'Line'], true);
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

function investmentsSheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, input: WorkPaperInput) {
  const s = new SheetWriter(wb, 'Investments reconciliation', [52, 12, 22, 22, 18, 18, 10, 90], [null, 'int', 'money', 'money', 'money', 'money', null, null]);
  s.row(['Item', 'Positions', 'Holdings (base)', 'Trial balance', 'Difference', 'Threshold', 'Status', 'Message'], true);
  for (const it of input.checks.items.filter((i) => i.check === 'investments_reconciliation')) {
    const d = (it.details ?? {}) as Record<string, unknown>;
    s.row([it.name, num(d.positions), num(d.holdings), num(d.tb), it.diff, it.threshold, statusText(it.status), it.message]);
  }
  const t = input.investmentTotals ?? investmentTotals(input.data);
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

function priceTestingSheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, input: WorkPaperInput) {
  const s = new SheetWriter(wb, 'Price testing', [40, 40, 12, 18, 18, 18, 18, 18, 18, 18, 18, 18, 44, 8]);
  s.row(['Item', 'Status', 'Currency', 'Impact', 'Threshold', 'Message'], true);
  const items = input.checks.items.filter((i) => i.check === 'price_testing');
  for (const it of items) s.row([it.name, statusText(it.status), input.fund.currency, it.diff, it.threshold, it.message]);
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
      ]);
    }
  }
  s.commit();
}

function capitalSheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, input: WorkPaperInput) {
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
      [it.diff, shares ? 'shares' : 'money'],
      [it.threshold, shares ? 'shares' : 'money'],
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      statusText(it.status),
      it.message,
    ]);
  }
  s.commit();
}

function exceptionsSheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, input: WorkPaperInput) {
  const s = new SheetWriter(wb, 'Exceptions', [28, 36, 10, 18, 18, 100, 44, 8], [null, null, null, 'money', 'money', null, null, 'int']);
  s.row(['Check', 'Item', 'Status', 'Difference', 'Threshold', 'Message', 'File', 'Line'], true);
  const exceptions = input.checks.items.filter((i: QaRec) => i.status !== 'pass');
  for (const it of exceptions) s.row([label(it.check), it.name, statusText(it.status), it.diff, it.threshold, it.message, it.file, it.line]);
  if (!exceptions.length) s.row(['No exceptions: every check item passed']);
  s.commit();
}

/** Builds the work-paper xlsx. Throws when exceljs fails to write. */
export async function buildWorkPaper(input: WorkPaperInput): Promise<Buffer> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: true });
  wb.creator = 'Fund Audit';
  wb.created = input.generatedAt;
  summarySheet(wb, input);
  trialBalanceSheet(wb, input);
  investmentsSheet(wb, input);
  priceTestingSheet(wb, input);
  capitalSheet(wb, input);
  exceptionsSheet(wb, input);
  await wb.commit();
  return Buffer.concat(chunks);
}
