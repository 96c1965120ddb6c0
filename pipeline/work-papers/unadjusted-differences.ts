/**
 * The summary of unadjusted differences (DOMAIN.md 2.5): every difference in fund currency the
 * checks measured, judged against the fund's materiality: a difference at or below SAD is clearly
 * trivial; one above TE is individually significant; the differences above SAD are accumulated
 * and their aggregate (absolute, and net) is compared with PM, which gives the conclusion. A check
 * that could not be performed measured nothing and is listed as a limitation, never as nil.
 * Price testing counts once, by its total impact (its per-holding and per-currency items are parts
 * of that total); amounts in shares and the 'Items not listed' item are not differences in money.
 * A misclassification between investments and derivatives (a position or ledger account on the
 * wrong side) shows in both investments reconciliation items with opposite signs: the offsetting
 * part is one classification difference, counted once; what is left of either item is listed as
 * its own difference.
 * Every audit adjustment the TPA has not booked is listed and judged the same way
 * (`../adjustments/schedule.ts`); the booked ones are in the figures and listed apart.
 */
import { bookedAdjustments, type FundAdjustment } from '../adjustments/apply.js';
import { PROPOSED_ADJUSTMENT, PROPOSED_ADJUSTMENT_LABEL, adjustmentMessage, proposedAdjustmentItem } from '../adjustments/schedule.js';
import type { CheckContext } from '../checks/common.js';
import { ITEMS_NOT_LISTED, round, ROUNDING, Sum } from '../checks/common.js';
import { CHECK_LABELS } from '../checks/index.js';
import type { QaRec } from '../sdm/rows.js';
import { INCOMPLETE_DATA } from './data-quality.js';
import type { SourceFiles } from './lineage.js';
import { itemSource } from './lineage.js';
import type { SheetWriter } from './sheet-writer.js';

export const UNADJUSTED_SHEET = 'Unadjusted differences';

export type Judgement = 'Clearly trivial (at or below SAD)' | 'Above SAD: accumulated' | 'Above TE: individually significant';

/** One difference on the schedule. */
export interface Difference {
  item: QaRec;
  amount: number;
  judgement: Judgement;
}

/** The schedule and its conclusion. */
export interface UnadjustedDifferences {
  differences: Difference[];
  notPerformed: QaRec[];
  trivialTotal: number;
  /** Sum of the differences above SAD (net, signed) and of their absolute values. */
  aggregateNet: number;
  aggregateGross: number;
  aboveTe: number;
  /** Whether the aggregate (absolute) of the differences above SAD exceeds PM. */
  material: boolean;
  /** A standardization was Invalid: nothing can be concluded. */
  incomplete: boolean;
  /** The adjustments booked by the TPA: in the figures, not differences. */
  booked: FundAdjustment[];
  conclusion: string;
}

const PRICE_TOTAL = 'Price testing: total impact';

const INVESTMENTS_ITEM = 'Investments vs INVESTMENTS_AT_VALUE';
const DERIVATIVES_ITEM = 'Derivatives vs DERIVATIVES_ASSET + DERIVATIVES_LIABILITY';

/**
 * The investments reconciliation's two items as the schedule counts them: when they differ in
 * opposite directions, the amount they offset is one classification difference (signed as the
 * investments item), and each keeps only what is left beyond it. Other items are unchanged.
 */
export function classificationDifferences(items: QaRec[]): QaRec[] {
  const inv = items.find((i) => i.check === 'investments_reconciliation' && i.name === INVESTMENTS_ITEM);
  const der = items.find((i) => i.check === 'investments_reconciliation' && i.name === DERIVATIVES_ITEM);
  if (!inv || !der || !isMoneyDifference(inv) || !isMoneyDifference(der) || Math.sign(inv.diff) === Math.sign(der.diff)) return items;
  const offset = Math.min(Math.abs(inv.diff), Math.abs(der.diff));
  const rest = (it: QaRec): QaRec => ({ ...it, diff: round(it.diff - Math.sign(it.diff) * offset) });
  const fmt = (x: number) => x.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const classification: QaRec = {
    check: 'investments_reconciliation',
    name: 'Classification between investments and derivatives',
    status: inv.status === 'fail' || der.status === 'fail' ? 'fail' : 'warning',
    diff: round(Math.sign(inv.diff) * offset),
    threshold: inv.threshold,
    message: `The investments item differs by ${fmt(inv.diff)} and the derivatives item by ${fmt(der.diff)}: ${fmt(offset)} of them offset, one misstatement of classification between investments and derivatives (a position or account on the wrong side), counted once`,
    details: { investments: inv.diff, derivatives: der.diff, offset },
  };
  return items.flatMap((i) => (i === inv ? [classification, rest(inv)] : i === der ? [rest(der)] : [i]));
}

/** Whether an item is a difference in money the schedule lists. */
function isMoneyDifference(it: QaRec): boolean {
  if (it.notPerformed || it.name === ITEMS_NOT_LISTED) return false;
  if ((it.details as { unit?: string } | undefined)?.unit === 'shares') return false;
  if (it.check === 'price_testing' && it.name !== PRICE_TOTAL) return false;
  return Number.isFinite(it.diff) && Math.abs(it.diff) >= ROUNDING;
}

/**
 * Builds the schedule from the check items and PM / TE / SAD amounts (fund currency).
 * @param incomplete a standardization was Invalid: the conclusion says the data is incomplete
 * @param adjustments the fund's audit adjustments: those not booked by the TPA are differences
 */
export function unadjustedDifferences(
  items: QaRec[],
  m: CheckContext['materiality'],
  incomplete = false,
  adjustments: readonly FundAdjustment[] = [],
): UnadjustedDifferences {
  const differences: Difference[] = [];
  const trivial = new Sum();
  const net = new Sum();
  const gross = new Sum();
  let aboveTe = 0;
  const proposed = adjustments.filter((a) => !a.bookedByTpa).map(proposedAdjustmentItem);
  for (const it of [...classificationDifferences(items).filter(isMoneyDifference), ...proposed.filter((p) => Math.abs(p.diff) >= ROUNDING)]) {
    const a = Math.abs(it.diff);
    const judgement: Judgement =
      a <= m.sad + ROUNDING / 10
        ? 'Clearly trivial (at or below SAD)'
        : a > m.te + ROUNDING / 10
          ? 'Above TE: individually significant'
          : 'Above SAD: accumulated';
    differences.push({ item: it, amount: it.diff, judgement });
    if (judgement === 'Clearly trivial (at or below SAD)') trivial.add(it.diff);
    else {
      net.add(it.diff);
      gross.add(a);
      if (judgement === 'Above TE: individually significant') aboveTe++;
    }
  }
  const notPerformed = items.filter((i) => i.notPerformed);
  const aggregateGross = round(gross.value);
  const material = aggregateGross > m.pm + ROUNDING / 10;
  const fmt = (x: number) => x.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const above = differences.length - differences.filter((d) => d.judgement === 'Clearly trivial (at or below SAD)').length;
  let conclusion = material
    ? `Material: the unadjusted differences above SAD total ${fmt(aggregateGross)}, more than PM ${fmt(m.pm)}; adjustments are required before the figures can be accepted`
    : above
      ? `Not material: the ${above} unadjusted difference(s) above SAD total ${fmt(aggregateGross)}, within PM ${fmt(m.pm)}${aboveTe ? `; ${aboveTe} above TE ${fmt(m.te)} to be discussed with the TPA` : ''}`
      : `No difference above SAD ${fmt(m.sad)}: every difference found is clearly trivial`;
  if (notPerformed.length) conclusion += `; ${notPerformed.length} check item(s) NOT PERFORMED: no difference could be measured there`;
  if (incomplete) conclusion = `${INCOMPLETE_DATA}: ${conclusion}; the checks ran on incomplete data, so no conclusion can be signed`;
  return {
    differences,
    notPerformed,
    trivialTotal: round(trivial.value),
    aggregateNet: round(net.value),
    aggregateGross,
    aboveTe,
    material,
    incomplete,
    booked: bookedAdjustments(adjustments, 'all'),
    conclusion,
  };
}

/** Writes the schedule sheet (columns: Check, Item, Difference, Absolute, Judgement, Message, File, Line). */
export function writeUnadjustedSheet(s: SheetWriter, u: UnadjustedDifferences, m: CheckContext['materiality'], sources: SourceFiles): void {
  s.row(['Check', 'Item', 'Difference', 'Absolute', 'Judgement', 'Message', 'File', 'Line'], true);
  for (const d of u.differences)
    s.row([checkLabel(d.item.check), d.item.name, d.amount, Math.abs(d.amount), d.judgement, d.item.message, ...itemSource(d.item, sources)]);
  if (!u.differences.length) s.row(['No difference in money was found by the checks']);
  s.blank();
  s.row(['Materiality', null, 'Amount'], true);
  s.row(['Summary of audit differences (SAD): clearly trivial at or below', null, m.sad]);
  s.row(['Tolerable error (TE)', null, m.te]);
  s.row(['Planning materiality (PM)', null, m.pm]);
  s.blank();
  s.row(['Totals', null, 'Amount'], true);
  s.row(['Clearly trivial differences (net)', null, u.trivialTotal]);
  s.row(['Differences above SAD (net)', null, u.aggregateNet]);
  s.row(['Differences above SAD (absolute): compared with PM', null, u.aggregateGross]);
  s.row(['Conclusion', conclusionText(u), null, null, null, u.conclusion], true);
  if (u.notPerformed.length) {
    s.blank();
    s.row(['Not performed (no difference measured)', 'Item', null, null, null, 'Reason', 'File', 'Line'], true);
    for (const it of u.notPerformed) s.row([CHECK_LABELS[it.check] ?? it.check, it.name, null, null, null, it.notPerformed, ...itemSource(it, sources)]);
  }
  if (u.booked.length) {
    s.blank();
    s.row(['Adjustments booked by the TPA (in the figures)', 'Adjustment', 'Amount', null, null, 'Lines', 'File'], true);
    for (const a of u.booked) {
      const it = proposedAdjustmentItem(a);
      s.row(['Booked adjustment', it.name, it.diff, null, null, adjustmentMessage(a), it.file ?? null]);
    }
  }
}

/** The Check column: a check's label, or the proposed-adjustment label. */
const checkLabel = (check: string) => (check === PROPOSED_ADJUSTMENT ? PROPOSED_ADJUSTMENT_LABEL : (CHECK_LABELS[check] ?? check));

/** The schedule's outcome in one word or two: INCOMPLETE DATA, MATERIAL or NOT MATERIAL. */
export function conclusionText(u: UnadjustedDifferences): string {
  return u.incomplete ? INCOMPLETE_DATA.toUpperCase() : u.material ? 'MATERIAL' : 'NOT MATERIAL';
}
