/**
 * Audit adjustments on the work paper's schedule of unadjusted differences (DOMAIN.md 2.5,
 * docs/decisions/0012-audit-adjustments.md): an adjustment the TPA has not booked is an unadjusted
 * difference of its size (`adjustmentAmount`: the debit total of a double-entry journal, the
 * signed sum of a single-sided one), judged against PM, TE and SAD like the checks' differences;
 * a booked one is already in the figures and is listed apart, for the record.
 */
import { ADJUSTMENT_TARGET_LABELS, ADJUSTMENT_TYPE_RULES, adjustmentAmount } from '../../rules/adjustments.js';
import { fmt } from '../checks/common.js';
import type { QaRec } from '../sdm/rows.js';
import type { FundAdjustment } from './apply.js';

/** The check id of the schedule's items that are proposed adjustments. */
export const PROPOSED_ADJUSTMENT = 'proposed_adjustment';

/** What the schedule shows in the Check column for a proposed adjustment. */
export const PROPOSED_ADJUSTMENT_LABEL = 'Proposed adjustment (not booked by the TPA)';

/** The lines of an adjustment in one text: `11000 -1,000,000.00; UNREALIZED_GL 1,000,000.00`. */
export function linesText(a: Pick<FundAdjustment, 'lines'>): string {
  return a.lines.map((l) => `${l.target === 'holding_value' ? `${l.securityId} (${l.account}, market value)` : l.account} ${fmt(l.amount)}`).join('; ');
}

/** A one-line description: type, phase, author, date, description and lines. */
export function adjustmentMessage(a: FundAdjustment): string {
  const rule = ADJUSTMENT_TYPE_RULES[a.type];
  const targets = [...new Set(a.lines.map((l) => ADJUSTMENT_TARGET_LABELS[l.target]))].join(', ');
  return `${rule.label} (${rule.phase}, ${rule.doubleEntry ? 'double entry' : 'single-sided'}) by ${a.author} on ${a.createdAt.slice(0, 10)}: ${a.description}. Lines: ${linesText(a)} (${targets})`;
}

/**
 * A proposed adjustment as an item of the schedule: `diff` is its size in fund currency, `file`
 * names it (`Adjustment #<id>`), `name` its type and description.
 */
export function proposedAdjustmentItem(a: FundAdjustment): QaRec {
  return {
    check: PROPOSED_ADJUSTMENT,
    name: `#${a.id} ${ADJUSTMENT_TYPE_RULES[a.type].label}: ${a.description}`,
    status: 'warning',
    diff: adjustmentAmount(a),
    threshold: null,
    message: adjustmentMessage(a),
    file: `Adjustment #${a.id}`,
  };
}
