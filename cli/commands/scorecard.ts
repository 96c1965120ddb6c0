/**
 * `fund-audit scorecard` (docs/scorecards.md, docs/cli.md): a TPA's or client's scorecard over
 * months of data due dates, every TPA or client ranked worst first, the fund requests behind a
 * figure (`--funds late`), as tables, `--json`, `--csv`, or an xlsx workbook (`--xlsx FILE`); on the
 * local install or a server (`--server URL --token KEY`), with the same output either way.
 */
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { FUND_FILTERS, FUND_FILTER_LABELS, formatFigure, type FundFilter, MEASURES, type Figures } from '../../rules/scorecards.js';
import { ValidationError } from '../../server/errors.js';
import { scorecardCsv } from '../../server/services/scorecards/csv.js';
import type { Scorecard, ScorecardInput } from '../../server/services/scorecards/scorecard.js';
import { scorecardsBackend } from '../backend/scorecards.js';
import { globals } from '../global.js';
import { output, printTable } from '../output.js';

interface Options {
  tpa?: string | true;
  client?: string | true;
  from?: string;
  to?: string;
  csv?: boolean;
  xlsx?: string;
  funds?: string | true;
  month?: string;
  limit?: string;
}

/** The figures as one table row: each measure formatted, by short label. */
const figureRow = (f: Figures) => Object.fromEntries(MEASURES.map((m) => [m.short, formatFigure(f[m.key], m.unit)]));

function printCard(card: Scorecard): void {
  const who = card.kind === 'tpa' ? 'TPA' : 'Client';
  const name = card.group?.name ?? (card.kind === 'tpa' ? 'every TPA' : 'every client');
  process.stdout.write(`${who} scorecard: ${name}, data due ${card.from} to ${card.to}, as of ${card.asOf}\n`);
  if (card.scope.client) process.stdout.write(`(fund requests of the client ${card.scope.client} only)\n`);
  if (card.scope.unlinked) process.stdout.write('(your user is not linked to a client: nothing is counted)\n');
  process.stdout.write('\n');
  printTable(MEASURES.map((m) => ({ measure: m.label, value: formatFigure(card.figures[m.key], m.unit) })));
  process.stdout.write('\nBy month:\n');
  printTable(card.months.map((m) => ({ month: m.month, ...figureRow(m.figures) })));
  if (!card.group) {
    process.stdout.write(`\n${who}s ranked, worst first:\n`);
    printTable(card.ranking.map((g, i) => ({ rank: i + 1, [who]: g.name, ...(card.kind === 'tpa' ? { code: g.key } : {}), ...figureRow(g.figures) })));
  }
}

export function registerScorecard(program: Command): void {
  program
    .command('scorecard')
    .description(
      "A TPA's or client's scorecard (on-time rate, days late, first-time-right rate, re-deliveries, chases), or every TPA or client ranked worst first",
    )
    .option('--tpa [name]', "a TPA's code or name (without one, or with neither --tpa nor --client: every TPA ranked)")
    .option('--client [name]', "a client's name (without one: every client ranked)")
    .option('--from <month>', 'first month of data due dates, YYYY-MM (default: 11 months before --to)')
    .option('--to <month>', 'last month of data due dates, YYYY-MM (default: this month)')
    .option('--csv', 'print CSV: with a name one row per month and a total, without one the ranking')
    .option('--xlsx <file>', 'write the scorecard as an xlsx workbook (figures, trend, ranking, every fund behind them)')
    .option('--funds [filter]', `list the fund requests behind a figure: ${FUND_FILTERS.join(', ')} (default all)`)
    .option('--month <month>', 'with --funds: one month of the range only, YYYY-MM')
    .option('--limit <n>', 'with --funds: at most this many rows, 1-500 (default 100)')
    .addHelpText('after', `\nThe figures:\n${MEASURES.map((m) => `  ${m.label}: ${m.help}`).join('\n')}\n`)
    .action(async (opts: Options, cmd: Command) => {
      const g = globals(cmd);
      if (opts.tpa !== undefined && opts.client !== undefined) throw new ValidationError('Give --tpa or --client, not both');
      if (opts.csv && (opts.xlsx || g.json)) throw new ValidationError('Give one of --csv, --json or --xlsx');
      const named = (v: string | true | undefined) => (typeof v === 'string' ? v : undefined);
      const input: ScorecardInput = {
        kind: opts.client !== undefined ? 'client' : 'tpa',
        key: named(opts.client) ?? named(opts.tpa),
        from: opts.from,
        to: opts.to,
      };
      const backend = scorecardsBackend(g);
      if (opts.funds !== undefined) {
        const filter = (typeof opts.funds === 'string' ? opts.funds : 'all') as FundFilter;
        if (!FUND_FILTERS.includes(filter)) throw new ValidationError(`--funds ${filter} is not a filter; use one of ${FUND_FILTERS.join(', ')}`);
        const limit = opts.limit === undefined ? undefined : Number(opts.limit);
        const page = await backend.funds({ ...input, filter, month: opts.month, limit });
        output(page, !!g.json, () => {
          process.stdout.write(
            `${FUND_FILTER_LABELS[filter]}: ${page.pagination.count} fund request(s)${page.pagination.count > page.rows.length ? `, the first ${page.rows.length}` : ''}\n`,
          );
          printTable(
            page.rows.map((r) => ({
              id: r.id,
              fund_code: r.fundCode ?? '',
              name: r.name,
              client: r.client,
              tpa: r.administrator ?? '',
              data_due: r.dueDate,
              complete: r.completedAt?.slice(0, 10) ?? '',
              days_late: r.daysLate ?? '',
              first_time_right: r.firstTimeRight === null ? '' : r.firstTimeRight ? 'yes' : 'no',
              re_deliveries: r.reDeliveries,
              chases: `${r.chasesSent} sent, ${r.chasesOpen} open`,
            })),
          );
        });
        return;
      }
      if (opts.xlsx) {
        const book = await backend.workbook(input);
        writeFileSync(opts.xlsx, book.bytes);
        output({ file: opts.xlsx, bytes: book.bytes.length }, !!g.json, () =>
          process.stdout.write(`Wrote ${opts.xlsx} (${book.bytes.length.toLocaleString('en')} bytes)\n`),
        );
        return;
      }
      const card = await backend.card(input);
      if (opts.csv) process.stdout.write(scorecardCsv(card));
      else output(card, !!g.json, () => printCard(card));
    });
}
