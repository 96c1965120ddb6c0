/**
 * Audit adjustment lines that do not fit the fund's data (docs/decisions/0012-audit-adjustments.md):
 * a trial-balance line posting to an account code that is neither in the fund's trial balance nor
 * a standard account (it would become a new, unclassified row), and a holdings line revaluing a
 * security the fund's holdings do not have (it would change nothing). Either means the adjusted
 * figures are not what the auditor entered: the work paper's outcome is 'Incomplete data' and each
 * such line is an exception. Every adjustment is looked at, booked or not (a proposed one names the
 * accounts its difference is about). Pure: no database, no server imports.
 */
import { STANDARD_ACCOUNTS } from '../sdm/model.js';
import { chunksOf, type FundSdmData } from '../sdm/rows.js';
import type { FundAdjustment } from './apply.js';

/** One adjustment line that does not fit the fund's data. */
export interface UnappliedLine {
  adjustment: number;
  /** 1-based line of the adjustment. */
  line: number;
  account: string;
  securityId: string | null;
  bookedByTpa: boolean;
  /** Why, in a sentence naming the adjustment, its line and the account or security. */
  reason: string;
  /** The child fund the adjustment belongs to, in an aggregate parent's work paper (its fund code). */
  fundCode?: string;
}

/**
 * The lines of `adjustments` that do not fit `data` (the fund's data as delivered, before any
 * adjustment). Reads the holdings once when a holdings line exists, keeping only the securities
 * the lines name. @returns in adjustment and line order
 */
export async function unappliedLines(data: FundSdmData, adjustments: readonly FundAdjustment[]): Promise<UnappliedLine[]> {
  const accounts = new Set(data.trial_balance.map((r) => r.account_code.trim()));
  const wanted = new Set(adjustments.flatMap((a) => a.lines.filter((l) => l.target === 'holding_value').map((l) => (l.securityId ?? '').trim())));
  const held = new Set<string>();
  if (wanted.size)
    for await (const chunk of chunksOf(data.holdings)) for (const h of chunk) if (wanted.has(h.security_id.trim())) held.add(h.security_id.trim());
  const out: UnappliedLine[] = [];
  for (const a of adjustments)
    a.lines.forEach((l, i) => {
      const name = `Adjustment #${a.id} line ${i + 1}${a.bookedByTpa ? '' : ' (not booked)'}`;
      const base = { adjustment: a.id, line: i + 1, account: l.account.trim(), securityId: l.securityId?.trim() || null, bookedByTpa: a.bookedByTpa };
      if (l.target === 'holding_value') {
        const id = base.securityId ?? '';
        if (!held.has(id))
          out.push({ ...base, reason: `${name} revalues security ${id || '(none)'}, which the fund's holdings do not have: the revaluation changes nothing` });
      } else if (!accounts.has(base.account) && !(base.account in STANDARD_ACCOUNTS))
        out.push({
          ...base,
          reason: `${name} posts to account ${base.account}, which the fund's trial balance does not have and which is not a standard account: the adjusted figures hold an unclassified account`,
        });
    });
  return out;
}

/**
 * A child's unapplied lines as an aggregate parent's work paper names them (decisions 0012, 0013):
 * the reason prefixed with the child's fund code, `fundCode` set. A child's correction is a
 * correction of the group's figures, so a line that does not fit the child's data leaves the
 * parent's figures incomplete too.
 */
export function childUnapplied(lines: readonly UnappliedLine[], fundCode: string): UnappliedLine[] {
  return lines.map((u) => ({ ...u, fundCode, reason: `${fundCode}: ${u.reason}` }));
}
