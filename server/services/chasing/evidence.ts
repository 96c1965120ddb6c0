/**
 * What a delivery failed, read from the checks the pipeline already ran (docs/chasing.md "Failed
 * checks"): the calculation file's QA_Rec items (pipeline/checks) and the standardization files'
 * QA_Mapping entries (unmapped codes). Nothing is checked again here. Each chaseable failure becomes
 * one chase key with its figures (expected, delivered, difference, fund currency) and its failing
 * rows as CSV. Pure functions, no I/O.
 */
import { stringify } from 'csv-stringify/sync';
import type { ChaseEvidence, ChaseFigure } from '../../db/schema/chasing.js';
import type { QaMapping, QaRec } from '../../../pipeline/sdm/rows.js';

/** The checks whose failure is the TPA's to fix, with their names in mails. */
export const CHASED_CHECKS: Readonly<Record<string, string>> = {
  tb_balance: 'Trial balance out of balance',
  unmapped_codes: 'Unmapped codes',
  investments_reconciliation: 'Investments do not reconcile to the trial balance',
  nav: 'NAV does not reconcile',
  fx: 'FX rates outside the tolerance or missing',
  holdings_integrity: 'Holdings integrity',
};

/**
 * Whether an item of the FX testing check is the TPA's to fix: a currency whose delivered rates
 * differ from the independent rate beyond the tolerance by more than TE, or one it gave no rate or
 * local value for. A currency with no recent independent rate is not: those rates are the audit
 * team's to upload (docs/decisions/0021-fx-rates.md). A currency missing from the TPA's FX table,
 * or given there with a rate too old, stops the holdings' standardization instead.
 */
function isTpaFxItem(item: QaRec): boolean {
  if (item.check !== 'fx_testing' || item.name === 'FX testing: total impact') return false;
  return item.status === 'fail' || (item.notPerformed ?? '').startsWith('no local market value or TPA rate');
}

/** One chaseable failure of a fund's latest delivery. */
export interface CheckFailure {
  /** The chase key: `failed_check:<check>`. */
  key: string;
  check: string;
  evidence: ChaseEvidence;
  /** The failing rows as CSV (header + one line per item). */
  csv: string;
  /** One line for the chase's message. */
  summary: string;
}

const MAX_LISTED = 20;

function figureOf(item: QaRec, currency: string | null): ChaseFigure {
  const d = (item.details ?? {}) as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  if (item.check === 'tb_balance') return { label: item.name, expected: 0, delivered: item.diff, difference: item.diff, currency };
  if (item.check === 'investments_reconciliation')
    return { label: item.name, expected: num(d.tb), delivered: num(d.holdings), difference: item.diff, currency };
  if (item.check === 'nav') return { label: item.name, expected: num(d.other), delivered: num(d.navTb), difference: item.diff, currency };
  return { label: item.name, expected: null, delivered: null, difference: num(item.diff), currency };
}

function recCsv(items: QaRec[]): string {
  return stringify(
    items.map((i) => [
      i.check,
      i.name,
      i.status,
      i.file ?? '',
      i.line ?? '',
      i.diff,
      i.threshold ?? '',
      i.notPerformed ? `NOT PERFORMED: ${i.notPerformed}` : i.message,
    ]),
    { header: true, columns: ['check', 'item', 'status', 'file', 'line', 'difference', 'threshold', 'message'] },
  );
}

/**
 * The chaseable failures of a fund's latest delivery.
 * @param qaRec the calculation file's items (`validation.QA_Rec`), or null when none was made
 * @param qaMapping the unmapped codes of every current standardization file (`validation.QA_Mapping`)
 * @param currency the fund currency the figures are in
 * @returns failures by chase key
 */
export function checkFailures(qaRec: QaRec[] | null, qaMapping: QaMapping[], currency: string | null): Map<string, CheckFailure> {
  const out = new Map<string, CheckFailure>();
  const byCheck = new Map<string, QaRec[]>();
  for (const item of qaRec ?? []) {
    const check = isTpaFxItem(item) ? 'fx' : item.check;
    if (!(check in CHASED_CHECKS) || check === 'unmapped_codes') continue;
    if (check !== 'fx' && item.status !== 'fail') continue;
    byCheck.set(check, [...(byCheck.get(check) ?? []), item]);
  }
  for (const [check, items] of byCheck) {
    const figures = check === 'fx' ? [] : items.slice(0, MAX_LISTED).map((i) => figureOf(i, currency));
    out.set(`failed_check:${check}`, {
      key: `failed_check:${check}`,
      check,
      csv: recCsv(items),
      summary: items.length === 1 ? items[0]!.message : `${items.length} items failed: ${items[0]!.message}`,
      evidence: {
        check,
        checkLabel: CHASED_CHECKS[check],
        figures,
        items: items
          .slice(0, MAX_LISTED)
          .map((i) => ({ name: i.name, message: i.message, ...(i.file ? { file: i.file } : {}), ...(i.line ? { line: i.line } : {}) })),
        rowCount: items.length,
      },
    });
  }
  if (qaMapping.length) {
    const csv = stringify(
      qaMapping.map((m) => [m.file, m.column, m.name, m.lines.length, m.lines.slice(0, 50).join(' '), m.error]),
      { header: true, columns: ['file', 'column', 'code', 'rows', 'lines', 'error'] },
    );
    const first = qaMapping[0]!;
    out.set('failed_check:unmapped_codes', {
      key: 'failed_check:unmapped_codes',
      check: 'unmapped_codes',
      csv,
      summary: `${qaMapping.length} code(s) not mapped, e.g. ${first.column} '${first.name}' in ${first.file}`,
      evidence: {
        check: 'unmapped_codes',
        checkLabel: CHASED_CHECKS.unmapped_codes,
        figures: [],
        items: qaMapping.slice(0, MAX_LISTED).map((m) => ({
          name: `${m.column} ${m.name}`,
          message: `${m.error} (${m.lines.length} row${m.lines.length === 1 ? '' : 's'})`,
          file: m.file,
          ...(m.lines[0] ? { line: m.lines[0] } : {}),
        })),
        rowCount: qaMapping.length,
      },
    });
  }
  return out;
}
