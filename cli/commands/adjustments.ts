/**
 * `fund-audit adjustments list|add|delete|rerun FUND_ID ...`: a fund's audit adjustments (proposed
 * journals; docs/decisions/0012-audit-adjustments.md), through the adjustments backend
 * (cli/backend/adjustments.ts: the local data directory or a server with `--server URL --token KEY`),
 * with the same output either way.
 */
import type { Command } from 'commander';
import { ADJUSTMENT_TYPE_RULES, ADJUSTMENT_TYPES, adjustmentAmount, type AdjustmentLineInput, type AdjustmentRerun } from '../../rules/adjustments.js';
import { ValidationError } from '../../server/errors.js';
import type { AdjustmentView } from '../../server/services/adjustments/adjustments.js';
import { adjustmentsBackend } from '../backend/adjustments.js';
import { globals } from '../global.js';
import { output, printTable } from '../output.js';

function positive(what: string, v: string): number {
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new ValidationError(`${what} must be a positive whole number, not '${v}'`);
  return Number(v);
}

/**
 * One `--line`: `ACCOUNT=AMOUNT` posts to the trial balance, `ACCOUNT=AMOUNT@SECURITY_ID`
 * revalues a position (market value, base) held under that account.
 */
export function parseLine(text: string): AdjustmentLineInput {
  const m = /^([^=]+)=([-+]?\d+(?:\.\d+)?)(?:@(.+))?$/.exec(text.trim());
  if (!m) throw new ValidationError(`--line '${text}' is not ACCOUNT=AMOUNT or ACCOUNT=AMOUNT@SECURITY_ID (e.g. 11000=-1000000.00)`);
  const [, account, amount, securityId] = m;
  return securityId
    ? { account: account.trim(), target: 'holding_value', securityId: securityId.trim(), amount: Number(amount) }
    : { account: account.trim(), target: 'tb_balance', amount: Number(amount) };
}

const TYPE_HELP = ADJUSTMENT_TYPES.map((t) => `${t} (${ADJUSTMENT_TYPE_RULES[t].label}, ${ADJUSTMENT_TYPE_RULES[t].phase})`).join(', ');

const row = (a: AdjustmentView) => ({
  id: a.id,
  type: ADJUSTMENT_TYPE_RULES[a.type].label,
  phase: ADJUSTMENT_TYPE_RULES[a.type].phase,
  booked: a.bookedByTpa ? 'yes' : 'no',
  amount: adjustmentAmount(a).toFixed(2),
  lines: a.lines.map((l) => `${l.account}=${l.amount.toFixed(2)}${l.securityId ? `@${l.securityId}` : ''}`).join(' '),
  description: a.description,
  author: a.author,
  created: a.createdAt.slice(0, 16).replace('T', ' '),
});

export function registerAdjustments(program: Command): void {
  const cmd = program.command('adjustments').description("A fund's audit adjustments: proposed journals, pre-calc or post-calc");

  cmd
    .command('list')
    .description("List a fund's adjustments, oldest first")
    .argument('<fundId>', 'fund request id')
    .action(async (fund: string, _opts: unknown, c: Command) => {
      const g = globals(c);
      const id = positive('The fund request id', fund);
      const rows = await adjustmentsBackend(g).list(id);
      output(rows, !!g.json, () => printTable(rows.map(row)));
    });

  cmd
    .command('add')
    .description('Add an adjustment to a fund; recalculate it with `adjustments rerun`')
    .argument('<fundId>', 'fund request id')
    .requiredOption('--type <type>', `one of ${TYPE_HELP}`)
    .requiredOption('--description <text>', 'what the adjustment corrects')
    .requiredOption('--line <line...>', 'ACCOUNT=AMOUNT (trial balance) or ACCOUNT=AMOUNT@SECURITY_ID (a position), fund currency, debit positive')
    .option('--booked', 'the TPA has booked it (its figures change); without it, a proposed adjustment on the schedule of unadjusted differences')
    .addHelpText(
      'after',
      `
A double-entry type (every pre-calc type and uk_apportionment) needs trial balance lines netting
to zero. Exit codes: 0 added, 3 invalid input (each field in error is named), 4 unknown fund.`,
    )
    .action(async (fund: string, opts: { type: string; description: string; line: string[]; booked?: boolean }, c: Command) => {
      const g = globals(c);
      const id = positive('The fund request id', fund);
      const body = { type: opts.type, description: opts.description, bookedByTpa: !!opts.booked, lines: opts.line.map(parseLine) };
      const a = await adjustmentsBackend(g).add(id, body);
      output(a, !!g.json, () =>
        process.stdout.write(`Added adjustment ${a.id} to fund request ${id}: ${ADJUSTMENT_TYPE_RULES[a.type].label}, ${a.description}\n`),
      );
    });

  cmd
    .command('delete')
    .description('Delete an adjustment of a fund (its fund trail keeps it)')
    .argument('<fundId>', 'fund request id')
    .argument('<adjustmentId>', 'adjustment id (from adjustments list)')
    .action(async (fund: string, adjustment: string, _opts: unknown, c: Command) => {
      const g = globals(c);
      const id = positive('The fund request id', fund);
      const aid = positive('The adjustment id', adjustment);
      const r = await adjustmentsBackend(g).remove(id, aid);
      output(r, !!g.json, () => process.stdout.write(`Deleted adjustment ${aid} of fund request ${id}\n`));
    });

  cmd
    .command('rerun')
    .description("Recalculate a fund's checks and work paper with its adjustments (Rerun adjustments)")
    .argument('<fundId>', 'fund request id')
    .option('--apportionment', 'Rerun apportionment instead (UK apportionment and UK distributions)')
    .action(async (fund: string, opts: { apportionment?: boolean }, c: Command) => {
      const g = globals(c);
      const id = positive('The fund request id', fund);
      const rerun: AdjustmentRerun = opts.apportionment ? 'apportionment' : 'adjustments';
      const r = await adjustmentsBackend(g).rerun(id, rerun);
      output(r, !!g.json, () => process.stdout.write(`Queued the calculations of fund request ${id} (process ${r.processId}); the work paper follows\n`));
    });
}
