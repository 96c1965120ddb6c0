/**
 * Audit adjustments (delivery spec, Fund details: the adjustment dialogs and the reruns for
 * adjustments and for apportionment; docs/decisions/0012-audit-adjustments.md). An adjustment is a
 * proposed audit journal of one type with one or more lines; each line changes one SDM figure
 * (its target) by an amount in fund currency. Pre-calc types change the checks' inputs; post-calc
 * types change the figures the work paper reports after the checks ran. Double-entry types must
 * net to zero over their trial-balance lines; the others are single-sided tax and reporting
 * figures. These rules are shared by the server (validation), the CLI and the browser (the dialogs
 * validate the same way before sending).
 */

/** Every adjustment type, in the order of the spec's list. */
export const ADJUSTMENT_TYPES = [
  'bond',
  'uk_apportionment',
  'main',
  'hmrc',
  'distributions',
  'target_funds',
  'uk_distributions',
  'flexible',
  'derivatives',
] as const;
export type AdjustmentType = (typeof ADJUSTMENT_TYPES)[number];

/** The SDM figures a line may change. */
export const ADJUSTMENT_TARGETS = ['tb_balance', 'holding_value'] as const;
export type AdjustmentTarget = (typeof ADJUSTMENT_TARGETS)[number];

/** When a type's booked lines are applied: before the checks (their inputs) or after them (the reported figures). */
export type AdjustmentPhase = 'pre-calc' | 'post-calc';

/** Which rerun recalculates a type: 'Rerun adjustments' or 'Rerun apportionment'. */
export type AdjustmentRerun = 'adjustments' | 'apportionment';

export interface AdjustmentTypeRule {
  type: AdjustmentType;
  /** The spec's name of the dialog. */
  label: string;
  phase: AdjustmentPhase;
  /** The trial-balance lines must net to zero (and be at least two). */
  doubleEntry: boolean;
  /** The targets its lines may use. */
  targets: readonly AdjustmentTarget[];
  rerun: AdjustmentRerun;
  /** One sentence for the dialog: what the type is for. */
  hint: string;
}

const TB: readonly AdjustmentTarget[] = ['tb_balance'];
const TB_AND_HOLDINGS: readonly AdjustmentTarget[] = ['tb_balance', 'holding_value'];

/** The rule of every type. */
export const ADJUSTMENT_TYPE_RULES: Record<AdjustmentType, AdjustmentTypeRule> = {
  bond: {
    type: 'bond',
    label: 'Bond adjustment',
    phase: 'pre-calc',
    doubleEntry: true,
    targets: TB_AND_HOLDINGS,
    rerun: 'adjustments',
    hint: 'Revalues a bond (price or accrued interest): the position and the ledger, before the checks run.',
  },
  uk_apportionment: {
    type: 'uk_apportionment',
    label: 'UK apportionment',
    phase: 'post-calc',
    doubleEntry: true,
    targets: TB,
    rerun: 'apportionment',
    hint: 'Moves income or expenses between revenue and capital in the reported figures, after the checks ran.',
  },
  main: {
    type: 'main',
    label: 'Main adjustment',
    phase: 'pre-calc',
    doubleEntry: true,
    targets: TB,
    rerun: 'adjustments',
    hint: 'The audit journal: corrects ledger balances before the checks run.',
  },
  hmrc: {
    type: 'hmrc',
    label: 'HMRC adjustment',
    phase: 'post-calc',
    doubleEntry: false,
    targets: TB,
    rerun: 'adjustments',
    hint: 'A tax figure for HMRC reporting (e.g. reportable income): single-sided, on the reported figures.',
  },
  distributions: {
    type: 'distributions',
    label: 'Distributions',
    phase: 'pre-calc',
    doubleEntry: true,
    targets: TB,
    rerun: 'adjustments',
    hint: 'A distribution declared for the period: distributable earnings against the distribution payable.',
  },
  target_funds: {
    type: 'target_funds',
    label: 'Target funds (preview)',
    phase: 'post-calc',
    doubleEntry: false,
    targets: TB,
    rerun: 'adjustments',
    hint: 'A look-through figure of an underlying target fund, shown as a preview on the reported figures.',
  },
  uk_distributions: {
    type: 'uk_distributions',
    label: 'UK distributions',
    phase: 'post-calc',
    doubleEntry: false,
    targets: TB,
    rerun: 'apportionment',
    hint: 'A distribution figure for UK reporting (e.g. excess reportable income): single-sided, on the reported figures.',
  },
  flexible: {
    type: 'flexible',
    label: 'Flexible',
    phase: 'pre-calc',
    doubleEntry: true,
    targets: TB_AND_HOLDINGS,
    rerun: 'adjustments',
    hint: 'Any balanced journal on ledger balances and positions, before the checks run.',
  },
  derivatives: {
    type: 'derivatives',
    label: 'Derivatives',
    phase: 'pre-calc',
    doubleEntry: true,
    targets: TB_AND_HOLDINGS,
    rerun: 'adjustments',
    hint: 'Revalues a derivative contract: its fair value and the ledger, before the checks run.',
  },
};

/** Target -> label for lists and the dialogs. */
export const ADJUSTMENT_TARGET_LABELS: Record<AdjustmentTarget, string> = {
  tb_balance: 'Trial balance: closing balance of the account',
  holding_value: 'Holdings: market value (base) of the position',
};

/** Target -> short label for tables. */
export const ADJUSTMENT_TARGET_SHORT_LABELS: Record<AdjustmentTarget, string> = {
  tb_balance: 'TB balance',
  holding_value: 'Market value',
};

/** Phase -> label. */
export const ADJUSTMENT_PHASE_LABELS: Record<AdjustmentPhase, string> = {
  'pre-calc': 'Pre-calc (changes the inputs of the checks)',
  'post-calc': 'Post-calc (changes the reported figures)',
};

/** Rerun -> button label and the confirmation question. */
export const ADJUSTMENT_RERUNS: Record<AdjustmentRerun, { label: string; question: string }> = {
  adjustments: {
    label: 'Rerun adjustments',
    question: "Recalculate this fund's checks and work paper with its current adjustments?",
  },
  apportionment: {
    label: 'Rerun apportionment',
    question: "Recalculate this fund's checks and work paper with its current UK apportionment and UK distributions?",
  },
};

/** Most lines one adjustment may have. */
export const ADJUSTMENT_MAX_LINES = 50;
/** Longest description of an adjustment (characters). */
export const ADJUSTMENT_DESCRIPTION_MAX = 500;
/** Longest account or security id (characters). */
export const ADJUSTMENT_CODE_MAX = 50;
/** Largest amount of one line in fund currency. */
export const ADJUSTMENT_AMOUNT_MAX = 1e13;
/** Amounts closer than this net to zero (half a cent). */
const HALF_CENT = 0.005;

/** One line as entered. */
export interface AdjustmentLineInput {
  /** The TB account code (GL code) the line posts to. */
  account: string;
  target: AdjustmentTarget;
  /** The position a `holding_value` line revalues. */
  securityId?: string | null;
  /** Fund currency, debit positive / credit negative (the TB's sign convention), at most two decimals. */
  amount: number;
  description?: string | null;
}

/** An adjustment as entered (the fields of the dialogs). */
export interface AdjustmentInput {
  type: AdjustmentType;
  description: string;
  bookedByTpa: boolean;
  lines: AdjustmentLineInput[];
}

/** One validation problem: the field (`type`, `description`, `lines`, `lines[2].amount`) and the message naming it. */
export interface AdjustmentProblem {
  field: string;
  message: string;
}

const isType = (t: unknown): t is AdjustmentType => typeof t === 'string' && (ADJUSTMENT_TYPES as readonly string[]).includes(t);

/** Whether an amount has at most two decimals (a cent). */
const cents = (x: number) => Math.abs(Math.round(x * 100) - x * 100) < 1e-6 * Math.max(1, Math.abs(x));

/** Rounds to the cent (for totals shown and compared). */
export const roundCents = (x: number) => {
  const r = Math.round((x + Math.sign(x) * 1e-9) * 100) / 100;
  return r === 0 ? 0 : r;
};

/** Sum of the trial-balance lines (a double-entry journal nets them to zero). */
export function ledgerTotal(lines: readonly Pick<AdjustmentLineInput, 'target' | 'amount'>[]): number {
  return roundCents(lines.filter((l) => l.target === 'tb_balance').reduce((s, l) => s + l.amount, 0));
}

/**
 * The size of an adjustment on the schedule of unadjusted differences, in fund currency: for a
 * double-entry type the debit total of its trial-balance lines (the amount misstated on each
 * side, always positive); for a single-sided type the signed sum of its lines.
 */
export function adjustmentAmount(a: { type: AdjustmentType; lines: readonly Pick<AdjustmentLineInput, 'target' | 'amount'>[] }): number {
  const rule = ADJUSTMENT_TYPE_RULES[a.type];
  if (rule.doubleEntry) return roundCents(a.lines.filter((l) => l.target === 'tb_balance' && l.amount > 0).reduce((s, l) => s + l.amount, 0));
  return roundCents(a.lines.reduce((s, l) => s + l.amount, 0));
}

/**
 * Every problem of an adjustment as entered, each naming its field; an empty list when it is valid.
 * Checks: a known type; a description of 1-500 characters; 1-50 lines; per line an account
 * (1-50 characters), a target the type allows, a security id for a holdings line, a non-zero
 * amount of at most two decimals below 10^13; a double-entry type needs at least two
 * trial-balance lines netting to zero (to the cent).
 */
export function adjustmentProblems(input: Partial<AdjustmentInput> | null | undefined): AdjustmentProblem[] {
  const out: AdjustmentProblem[] = [];
  const add = (field: string, message: string) => out.push({ field, message });
  const a = input ?? {};
  if (!isType(a.type)) {
    add('type', `Type must be one of ${ADJUSTMENT_TYPES.map((t) => ADJUSTMENT_TYPE_RULES[t].label).join(', ')}`);
    return out;
  }
  const rule = ADJUSTMENT_TYPE_RULES[a.type];
  const description = typeof a.description === 'string' ? a.description.trim() : '';
  if (!description) add('description', 'Description is required');
  else if (description.length > ADJUSTMENT_DESCRIPTION_MAX) add('description', `Description must be at most ${ADJUSTMENT_DESCRIPTION_MAX} characters`);
  if (typeof a.bookedByTpa !== 'boolean') add('bookedByTpa', "Booked by TPA must be 'yes' or 'no'");
  const lines = Array.isArray(a.lines) ? a.lines : [];
  if (!lines.length) add('lines', `${rule.label} needs at least one line`);
  if (lines.length > ADJUSTMENT_MAX_LINES) add('lines', `An adjustment has at most ${ADJUSTMENT_MAX_LINES} lines, not ${lines.length}`);
  lines.forEach((l, i) => {
    const at = `lines[${i}]`;
    const n = `Line ${i + 1}`;
    const account = typeof l?.account === 'string' ? l.account.trim() : '';
    if (!account) add(`${at}.account`, `${n}: account is required`);
    else if (account.length > ADJUSTMENT_CODE_MAX) add(`${at}.account`, `${n}: account must be at most ${ADJUSTMENT_CODE_MAX} characters`);
    if (!rule.targets.includes(l?.target as AdjustmentTarget))
      add(`${at}.target`, `${n}: target must be ${rule.targets.map((t) => `'${ADJUSTMENT_TARGET_LABELS[t]}'`).join(' or ')} for ${rule.label}`);
    else if (l.target === 'holding_value') {
      const sec = typeof l.securityId === 'string' ? l.securityId.trim() : '';
      if (!sec) add(`${at}.securityId`, `${n}: security id is required for a holdings line`);
      else if (sec.length > ADJUSTMENT_CODE_MAX) add(`${at}.securityId`, `${n}: security id must be at most ${ADJUSTMENT_CODE_MAX} characters`);
    }
    const amount = l?.amount;
    if (typeof amount !== 'number' || !Number.isFinite(amount)) add(`${at}.amount`, `${n}: amount must be a number`);
    else if (amount === 0) add(`${at}.amount`, `${n}: amount must not be zero`);
    else if (Math.abs(amount) >= ADJUSTMENT_AMOUNT_MAX) add(`${at}.amount`, `${n}: amount must be below 10,000,000,000,000`);
    else if (!cents(amount)) add(`${at}.amount`, `${n}: amount has more than two decimals (fund currency, to the cent)`);
    if (typeof l?.description === 'string' && l.description.length > ADJUSTMENT_DESCRIPTION_MAX)
      add(`${at}.description`, `${n}: description must be at most ${ADJUSTMENT_DESCRIPTION_MAX} characters`);
  });
  if (rule.doubleEntry && lines.length && !out.some((p) => p.field.endsWith('.amount') || p.field.endsWith('.target'))) {
    const ledger = lines.filter((l) => l.target === 'tb_balance');
    const total = ledgerTotal(lines);
    if (ledger.length < 2) add('lines', `${rule.label} is a double entry: it needs at least two trial balance lines (a debit and a credit)`);
    else if (Math.abs(total) >= HALF_CENT)
      add(
        'lines',
        `${rule.label} is a double entry: its trial balance lines must net to zero, they net to ${total.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`,
      );
  }
  return out;
}
