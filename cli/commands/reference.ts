/**
 * `fund-audit reference fx list | import FILE | remove FILE`: the independent FX rates the checks
 * test a TPA's rates against (docs/decisions/0021-fx-rates.md), locally or on a server
 * (cli/backend/reference.ts).
 */
import type { Command } from 'commander';
import type { FxRateFile } from '../../server/services/reference-data/fx-rates.js';
import { referenceBackend } from '../backend/reference.js';
import { globals } from '../global.js';
import { output, printTable } from '../output.js';
import { displayDate } from '../../rules/dates.js';

const coverageRow = (f: FxRateFile) => ({
  file: f.file,
  format: f.format,
  shipped: f.shipped ? 'yes' : '',
  from: f.firstDate ?? '',
  to: f.lastDate ?? '',
  dates: f.dates,
  currencies: f.currencies.length,
  rates: f.rates,
});

export function registerReference(program: Command): void {
  const cmd = program.command('reference').description('Reference data: independent FX rates for FX testing');
  const fx = cmd.command('fx').description('Independent FX rates (the shipped ECB history and uploaded files)');

  fx.command('import')
    .description(
      'Load a file of independent rates: ECB eurofxref-hist or daily csv, Fed H.10 (Date,Country,Exchange rate) or the rates csv rate_date,currency,units_per_XXX[,source]; used from the next calculation on',
    )
    .argument('<file>', 'the csv')
    .action(async (file: string, _opts, c: Command) => {
      const g = globals(c);
      const f = await referenceBackend(g).importFx(file);
      output(f, !!g.json, () =>
        process.stdout.write(
          `Loaded ${f.file} (${f.format}): ${f.rates} rates of ${f.currencies.length} currencies on ${f.dates} dates from ${f.firstDate} to ${f.lastDate}\n`,
        ),
      );
    });

  fx.command('list')
    .description('The rate files in order of preference, with the dates and currencies each covers, and the age limit and default tolerance')
    .action(async (_opts, c: Command) => {
      const g = globals(c);
      const o = await referenceBackend(g).listFx();
      output(o, !!g.json, () => {
        printTable(o.files.map(coverageRow));
        if (o.shipped)
          process.stdout.write(`Shipped ECB history ${o.shipped.file}: ${displayDate(o.shipped.firstDate)} to ${displayDate(o.shipped.lastDate)}\n`);
        process.stdout.write(
          `A rate dated more than ${o.maxAgeBusinessDays} business days before a period end is not used; default FX tolerance ${o.defaultTolerancePct}%\n`,
        );
      });
    });

  fx.command('remove')
    .description('Remove an uploaded file of rates (the shipped ECB history stays)')
    .argument('<file>', 'the file name, as `reference fx list` shows it')
    .action(async (name: string, _opts, c: Command) => {
      const g = globals(c);
      const r = await referenceBackend(g).removeFx(name);
      output(r, !!g.json, () => process.stdout.write(`Removed ${r.file}\n`));
    });
}
