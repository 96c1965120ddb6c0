/**
 * Applies a fund's audit adjustments to its SDM data (docs/decisions/0012-audit-adjustments.md).
 * Pure: no I/O. Only adjustments booked by the TPA change figures; the others are proposed
 * adjustments, listed on the schedule of unadjusted differences instead. Pre-calc types are
 * applied before the checks (the calculations stage), pre- and post-calc ones to the figures the
 * work paper reports (the visualization stage).
 *
 * - A trial-balance line adds its amount (fund currency, debit positive) to `balance_base` of the
 *   first row of its account code; an account the trial balance does not have becomes a new row
 *   (mapped to the standard account of that code when the code is one, e.g. UNREALIZED_GL), with
 *   the file `Adjustment #<id>` and the line's number.
 * - A holdings line adds its amount to `market_value_base` of the first position of its security
 *   id and scales `price` and `market_value_local` by the same factor (a revaluation is a new
 *   price), keeping the delivered figures (`delivered`); a security the holdings do not have
 *   changes nothing.
 * Every row an adjustment changes or adds names it (`adjustedBy`: adjustment id, line, amount), so
 * the work paper cites the adjustment beside the delivered file and line.
 */
import { ADJUSTMENT_TYPE_RULES, roundCents, type AdjustmentInput, type AdjustmentPhase } from '../../rules/adjustments.js';
import { STANDARD_ACCOUNTS } from '../sdm/model.js';
import { chunksOf, type AdjustmentRef, type FundSdmData, type HoldingRow, type Rows, type RowSource, type TrialBalanceRow } from '../sdm/rows.js';

/** An adjustment as stored: the entered fields plus who made it and when. */
export interface FundAdjustment extends AdjustmentInput {
  id: number;
  /** Full name (or e-mail) of the author. */
  author: string;
  /** ISO timestamps. */
  createdAt: string;
  updatedAt: string;
}

/** Which adjustments to apply: those of one phase, or all (the reported figures). */
export type ApplyPhase = AdjustmentPhase | 'all';

/** The booked adjustments of a phase. */
export function bookedAdjustments(adjustments: readonly FundAdjustment[], phase: ApplyPhase): FundAdjustment[] {
  return adjustments.filter((a) => a.bookedByTpa && (phase === 'all' || ADJUSTMENT_TYPE_RULES[a.type].phase === phase));
}

/** Holdings read from another row source with some positions revalued (each pass yields the same rows). */
class RevaluedHoldings implements RowSource<HoldingRow> {
  constructor(
    private readonly source: Rows<HoldingRow>,
    private readonly deltas: ReadonlyMap<string, { amount: number; refs: AdjustmentRef[] }>,
  ) {}

  get length(): number {
    return this.source.length;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<HoldingRow[]> {
    const done = new Set<string>();
    for await (const chunk of chunksOf(this.source)) {
      const out = new Array<HoldingRow>(chunk.length);
      for (let i = 0; i < chunk.length; i++) {
        const h = chunk[i];
        const delta = this.deltas.get(h.security_id);
        if (delta === undefined || done.has(h.security_id)) {
          out[i] = h;
          continue;
        }
        done.add(h.security_id);
        const value = roundCents(h.market_value_base + delta.amount);
        const factor = h.market_value_base ? value / h.market_value_base : null;
        out[i] = {
          ...h,
          market_value_base: value,
          price: factor === null ? h.price : h.price * factor,
          market_value_local: factor === null || h.market_value_local === null ? h.market_value_local : roundCents(h.market_value_local * factor),
          delivered: h.delivered ?? { price: h.price, market_value_local: h.market_value_local, market_value_base: h.market_value_base },
          adjustedBy: [...(h.adjustedBy ?? []), ...delta.refs],
        };
      }
      yield out;
    }
  }
}

/**
 * The fund's data with the booked adjustments of `phase` applied (see the file comment); the input
 * is not changed. Without any such adjustment the input itself is returned.
 * @param adjustments every adjustment of the fund (unbooked and other phases are skipped)
 */
export function applyAdjustments(data: FundSdmData, adjustments: readonly FundAdjustment[], phase: ApplyPhase): FundSdmData {
  const booked = bookedAdjustments(adjustments, phase);
  if (!booked.length) return data;
  const tb: TrialBalanceRow[] = data.trial_balance.map((r) => ({ ...r }));
  const holdingDeltas = new Map<string, { amount: number; refs: AdjustmentRef[] }>();
  for (const a of booked) {
    a.lines.forEach((l, i) => {
      const ref: AdjustmentRef = { adjustment: a.id, line: i + 1, amount: l.amount };
      if (l.target === 'holding_value') {
        const id = (l.securityId ?? '').trim();
        const d = holdingDeltas.get(id) ?? { amount: 0, refs: [] };
        holdingDeltas.set(id, { amount: d.amount + l.amount, refs: [...d.refs, ref] });
        return;
      }
      const account = l.account.trim();
      const row = tb.find((r) => r.account_code === account);
      if (row) {
        row.balance_base = roundCents(row.balance_base + l.amount);
        row.adjustedBy = [...(row.adjustedBy ?? []), ref];
        return;
      }
      tb.push({
        fund_code: tb[0]?.fund_code ?? '',
        as_of: tb[0]?.as_of ?? '',
        account_code: account,
        account_name: l.description?.trim() || a.description,
        currency: null,
        balance_local: null,
        balance_base: roundCents(l.amount),
        standard_account: account in STANDARD_ACCOUNTS ? account : null,
        file: `Adjustment #${a.id}`,
        line: i + 1,
        adjustedBy: [ref],
      });
    });
  }
  return {
    ...data,
    trial_balance: tb,
    holdings: holdingDeltas.size ? new RevaluedHoldings(data.holdings, holdingDeltas) : data.holdings,
  };
}
