/**
 * Share capital roll-forward (DOMAIN.md 2.4 item 5).
 * - Shares, per share class: OPENING + SUBSCRIPTION + SWITCH_IN + DISTRIBUTION_REINVESTED
 *   - REDEMPTION - SWITCH_OUT = CLOSING. Several rows of one activity are added up (the fixtures
 *   send one flow row per month of the quarter). Outflows are subtracted when delivered positive
 *   (the usual convention); when every outflow row of the class is <= 0 they are taken as already
 *   signed and added. Fail when |computed - CLOSING| > 0.001 shares, or when OPENING or CLOSING is
 *   missing. Here `diff` and `threshold` are in shares (details.unit = 'shares').
 * - Amounts, fund level: CLOSING amount_base (or shares x nav_per_share) summed over classes vs the
 *   TB capital accounts, -(equity + income + expense) balances (capital plus the result of an
 *   unclosed TB). And, only where OPENING rows carry an amount and the TB has income / expense
 *   accounts: opening amount + net flow amounts + TB result = closing amount. Fail above TE,
 *   warning above SAD (fund currency).
 * What the fixtures contain (fixtures/README.md "Share capital"): N-PORT gives fund-level dollar
 * flows only, written as shares at a notional NAV per share of 1.00, with OPENING derived from
 * CLOSING - flows and no opening amount; so the share roll-forward ties by construction, the
 * closing amount is compared with the TB CAPITAL account, and the amount roll-forward is reported
 * as not derivable (no opening net assets, no income / expense accounts).
 */
import type { FundSdmData, QaRec, ShareCapitalRow } from '../sdm/rows.js';
import { fmt, round, statusFor, sum, tbByClass, type CheckContext } from './common.js';

export const CAPITAL_ROLL_FORWARD = 'capital_roll_forward';

/** Shares tolerance of the roll-forward. */
export const SHARES_TOLERANCE = 0.001;

const INFLOWS = ['SUBSCRIPTION', 'SWITCH_IN', 'DISTRIBUTION_REINVESTED'] as const;
const OUTFLOWS = ['REDEMPTION', 'SWITCH_OUT'] as const;
const ACTIVITIES = ['OPENING', ...INFLOWS, ...OUTFLOWS, 'CLOSING'] as const;
type Activity = (typeof ACTIVITIES)[number];

export interface ClassRollForward {
  shareClass: string;
  /** Shares per activity, as delivered (outflows positive unless the TPA signs them). */
  shares: Record<Activity, number>;
  /** Amounts per activity (null when no row of that activity has an amount). */
  amounts: Record<Activity, number | null>;
  hasOpening: boolean;
  hasClosing: boolean;
  outflowsSigned: boolean;
  computedClosing: number;
  /** computed - reported closing shares. */
  diff: number;
  closingNavPerShare: number | null;
  unmappedRows: number;
  file: string;
  line: number;
}

/** Roll-forward per share class, in the order classes first appear (also used by the work paper). */
export function rollForwardByClass(rows: ShareCapitalRow[]): ClassRollForward[] {
  const groups = new Map<string, ShareCapitalRow[]>();
  for (const r of rows) groups.set(r.share_class, [...(groups.get(r.share_class) ?? []), r]);
  return [...groups].map(([shareClass, list]) => {
    const of = (a: Activity) => list.filter((r) => r.standard_activity === a);
    const shares = Object.fromEntries(ACTIVITIES.map((a) => [a, round(sum(of(a).map((r) => r.shares)), 6)])) as Record<Activity, number>;
    const amounts = Object.fromEntries(
      ACTIVITIES.map((a) => {
        const withAmount = of(a).filter((r) => r.amount_base !== null);
        return [a, withAmount.length ? round(sum(withAmount.map((r) => r.amount_base as number))) : null];
      }),
    ) as Record<Activity, number | null>;
    const outRows = list.filter((r) => (OUTFLOWS as readonly string[]).includes(r.standard_activity ?? ''));
    const outflowsSigned = outRows.length > 0 && outRows.every((r) => r.shares <= 0) && outRows.some((r) => r.shares < 0);
    const out = sum(OUTFLOWS.map((a) => shares[a]));
    const computedClosing = round(shares.OPENING + sum(INFLOWS.map((a) => shares[a])) + (outflowsSigned ? out : -out), 6);
    const closing = of('CLOSING');
    const anchor = closing[closing.length - 1] ?? list[list.length - 1];
    return {
      shareClass,
      shares,
      amounts,
      outflowsSigned,
      computedClosing,
      hasOpening: of('OPENING').length > 0,
      hasClosing: closing.length > 0,
      diff: round(computedClosing - shares.CLOSING, 6),
      closingNavPerShare: closing.find((r) => r.nav_per_share !== null)?.nav_per_share ?? null,
      unmappedRows: list.filter((r) => !r.standard_activity || !(ACTIVITIES as readonly string[]).includes(r.standard_activity)).length,
      file: anchor.file,
      line: anchor.line,
    };
  });
}

export function capitalRollForward(data: FundSdmData, ctx: CheckContext): QaRec[] {
  if (!data.share_capital.length) {
    return [
      {
        check: CAPITAL_ROLL_FORWARD,
        name: 'Share capital roll-forward',
        status: 'warning',
        diff: 0,
        threshold: null,
        message: 'No share capital rows delivered: roll-forward not performed',
        notPerformed: 'no share capital rows delivered',
      },
    ];
  }
  const { sad, te } = ctx.materiality;
  const classes = rollForwardByClass(data.share_capital);
  const out: QaRec[] = classes.map((c) => {
    const name = `Shares roll-forward ${c.shareClass}`;
    const base = { check: CAPITAL_ROLL_FORWARD, name, threshold: SHARES_TOLERANCE, file: c.file, line: c.line };
    if (!c.hasOpening || !c.hasClosing) {
      const missing = [!c.hasOpening && 'OPENING', !c.hasClosing && 'CLOSING'].filter(Boolean).join(' and ');
      return {
        ...base,
        status: 'fail',
        diff: 0,
        message: `Share class ${c.shareClass}: no ${missing} row, the roll-forward cannot be done`,
        notPerformed: `share class ${c.shareClass} has no ${missing} row`,
        details: { unit: 'shares', ...c },
      };
    }
    const status: QaRec['status'] = Math.abs(c.diff) > SHARES_TOLERANCE ? 'fail' : 'pass';
    const s = c.shares;
    const sign = c.outflowsSigned ? '+' : '-';
    return {
      ...base,
      status,
      diff: c.diff,
      message: `${c.shareClass}: opening ${fmt(s.OPENING, 3)} + subscriptions ${fmt(s.SUBSCRIPTION, 3)} + switches in ${fmt(s.SWITCH_IN, 3)} + reinvested ${fmt(s.DISTRIBUTION_REINVESTED, 3)} ${sign} redemptions ${fmt(s.REDEMPTION, 3)} ${sign} switches out ${fmt(s.SWITCH_OUT, 3)} = ${fmt(c.computedClosing, 3)} vs closing ${fmt(s.CLOSING, 3)} shares${status === 'pass' ? '' : `: off by ${fmt(c.diff, 3)} shares`}${c.unmappedRows ? ` (${c.unmappedRows} row(s) with an unmapped activity ignored)` : ''}`,
      details: { unit: 'shares', ...c },
    };
  });

  const t = tbByClass(data.trial_balance, ctx.accountClasses);
  const tbCapital = round(-(t.equity + t.income + t.expense));
  const closingAmounts = classes.map((c) => c.amounts.CLOSING ?? (c.closingNavPerShare !== null ? round(c.shares.CLOSING * c.closingNavPerShare) : null));
  const hasIncome = data.trial_balance.some((r) => r.standard_account && ['income', 'expense'].includes(ctx.accountClasses[r.standard_account] ?? ''));
  const openingAmounts = classes.map((c) => c.amounts.OPENING);
  const canRoll = openingAmounts.every((a) => a !== null) && hasIncome && closingAmounts.every((a) => a !== null);
  const amountRollForward = canRoll
    ? 'performed'
    : openingAmounts.some((a) => a === null)
      ? 'not derivable: no OPENING amount (opening net assets not delivered)'
      : !hasIncome
        ? 'not derivable: the TB has no income / expense accounts to give the result of the period'
        : 'not derivable: no CLOSING amount';
  if (closingAmounts.every((a) => a !== null) && data.trial_balance.length) {
    const closing = round(sum(closingAmounts as number[]));
    const diff = round(closing - tbCapital);
    const status = statusFor(diff, sad, te);
    const item: QaRec = {
      check: CAPITAL_ROLL_FORWARD,
      name: 'Closing capital vs TB capital accounts',
      status,
      diff,
      threshold: status === 'fail' ? te : sad,
      message: `Closing share capital ${fmt(closing)} vs TB capital accounts (equity + result) ${fmt(tbCapital)}: ${status === 'pass' ? 'agree' : `differ by ${fmt(diff)} ${ctx.currency}`}`,
      details: { closing, tbCapital, sad, te, amountRollForward },
    };
    out.push(item);
  }
  if (canRoll) {
    const flows = classes.map((c) => {
      const a = (k: Activity) => c.amounts[k] ?? 0;
      const outs = a('REDEMPTION') + a('SWITCH_OUT');
      return a('SUBSCRIPTION') + a('SWITCH_IN') + a('DISTRIBUTION_REINVESTED') + (c.outflowsSigned ? outs : -Math.abs(outs));
    });
    const opening = round(sum(openingAmounts as number[]));
    const netFlows = round(sum(flows));
    const result = round(-(t.income + t.expense));
    const closing = round(sum(closingAmounts as number[]));
    const diff = round(opening + netFlows + result - closing);
    const status = statusFor(diff, sad, te);
    out.push({
      check: CAPITAL_ROLL_FORWARD,
      name: 'Capital amounts roll-forward',
      status,
      diff,
      threshold: status === 'fail' ? te : sad,
      message: `Opening ${fmt(opening)} + net flows ${fmt(netFlows)} + TB result ${fmt(result)} = ${fmt(opening + netFlows + result)} vs closing ${fmt(closing)}: ${status === 'pass' ? 'agree' : `differ by ${fmt(diff)} ${ctx.currency}`}`,
      details: { opening, netFlows, result, closing, sad, te },
    });
  }
  return out;
}
