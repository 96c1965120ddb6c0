/**
 * `fund-audit funds list|approve|close|issue|pause|decline|remove|undo-delete|reset|rerun`: the
 * fund request listing and status actions through the funds backend (cli/backend/funds.ts: the local
 * data directory or a server with `--server URL --token KEY`), with the same output either way. No prompts.
 */
import type { Command } from 'commander';
import { STATUS_MOVES } from '../../rules/status-moves.js';
import { FUND_STATUSES, parseStatus, statusLabel } from '../../rules/statuses.js';
import { ValidationError } from '../../server/errors.js';
import type { ActionResult } from '../../server/services/funds/actions.js';
import { MAX_LIMIT, type ListingInput } from '../../server/services/funds/listing.js';
import { fundsBackend, type CliFundAction as CliAction } from '../backend/funds.js';
import { globals } from '../global.js';
import { EXIT, output, printTable } from '../output.js';
import { showTable } from '../ui/reporter.js';

/** The statuses a move starts from, as labels ('Pending, Paused, Closed or Issued'), from the status machine. */
const fromLabels = (action: keyof typeof STATUS_MOVES) => {
  const labels = STATUS_MOVES[action].from.map((s) => statusLabel(s));
  return labels.length > 1 ? `${labels.slice(0, -1).join(', ')} or ${labels.at(-1)}` : labels.join('');
};

/** CLI action -> what it does (help text). */
const ACTIONS: Record<CliAction, { help: string }> = {
  approve: { help: `Open funds (status Approved) from ${fromLabels('approve')}` },
  close: { help: `Close funds (Completed - Fund Closed) from ${fromLabels('close')}` },
  issue: { help: `Issue funds from ${fromLabels('issue')}` },
  pause: { help: `Pause funds from ${fromLabels('pause')}` },
  decline: { help: 'Decline pending funds' },
  remove: { help: 'Delete funds (not issued ones); undo with undo-delete' },
  'undo-delete': { help: 'Restore deleted funds to their previous status' },
  reset: { help: 'Queue the pipeline of funds again from identification' },
  rerun: { help: 'Rerun calculations and work papers of open funds' },
};

function parseIds(values: string[]): number[] {
  const bad = values.filter((v) => !/^\d+$/.test(v) || Number(v) < 1);
  if (bad.length) throw new ValidationError(`Fund ids must be positive whole numbers: ${bad.join(', ')}`);
  return values.map(Number);
}

function parseCount(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new ValidationError(`--${name} must be a whole number from ${min} to ${max}`);
  return n;
}

function printActionResult(result: ActionResult): void {
  printTable(
    result.funds.map((f) => ({ id: f.id, status: `${statusLabel(f.status)}${f.isStatusUnChanged ? ' *' : ''}`, moved: f.isStatusUnChanged ? 'no' : 'yes' })),
  );
  if (result.warning) process.stdout.write(`\n${result.warning}\n`);
}

export function registerFunds(program: Command): void {
  const funds = program.command('funds').description('List fund requests and change their status');

  funds
    .command('list')
    .description('List fund requests (deleted ones only with --status Deleted), newest request first')
    .option('--status <status...>', `only these statuses (${FUND_STATUSES.join(', ')}; Open and Closed also accepted)`)
    .option('--search <text>', 'name, client or fund code contains the text')
    .option('--limit <n>', `page size, 1-${MAX_LIMIT} (default 100)`)
    .option('--offset <n>', 'rows to skip (default 0)')
    .action(async (opts: { status?: string[]; search?: string; limit?: string; offset?: string }, cmd: Command) => {
      const g = globals(cmd);
      const unknown = opts.status?.find((s) => !parseStatus(s));
      if (unknown)
        throw new ValidationError(`--status ${unknown} is not a fund status; use one of ${FUND_STATUSES.join(', ')} (Open and Closed also accepted)`);
      const input: ListingInput = {
        filters: opts.status?.length ? [{ field: 'status', type: 'enum', value: opts.status }] : [],
        search: opts.search,
        offset: parseCount('offset', opts.offset, 0, Number.MAX_SAFE_INTEGER) ?? 0,
        pagination: { limit: parseCount('limit', opts.limit, 1, MAX_LIMIT) ?? 100 },
      };
      const result = await fundsBackend(g).list(input);
      if (g.json) {
        output(result, true, () => undefined);
        return;
      }
      await showTable(
        result.rows.map((r) => ({
          id: r.id,
          'fund code': r.fundCode,
          name: r.name,
          client: r.client,
          administrator: r.administrator,
          status: statusLabel(r.status),
          'period end': r.period_end,
          'data due': r.dataDue,
          'data status': r.dataStatusUIField,
        })),
      );
      const { offset, count, countCapped } = result.pagination;
      // the count stops at the listing's cap: more than that reads 10000+
      process.stdout.write(`\n${result.rows.length ? `${offset + 1}-${offset + result.rows.length}` : 0} of ${count}${countCapped ? '+' : ''} fund requests\n`);
    });

  for (const [action, { help }] of Object.entries(ACTIONS) as Array<[CliAction, (typeof ACTIONS)[CliAction]]>) {
    funds
      .command(action)
      .description(help)
      .argument('<ids...>', 'fund request ids')
      .addHelpText(
        'after',
        `
Prints every fund with its status; funds that cannot take the action keep their status and are
marked '*' with the warning. Exit codes: 0 when every fund moved, 3 when any fund did not move
(or the input is invalid), 4 when an id is unknown (nothing is changed then).`,
      )
      .action(async (values: string[], _opts: unknown, cmd: Command) => {
        const g = globals(cmd);
        const ids = parseIds(values);
        const result = await fundsBackend(g).act(action, ids);
        output(result, !!g.json, () => printActionResult(result));
        // main() returns process.exitCode: 3 when some fund did not move
        if (result.funds.some((f) => f.isStatusUnChanged)) process.exitCode = EXIT.invalid;
      });
  }
}
