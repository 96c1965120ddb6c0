/**
 * `fund-audit reference fx import FILE | fx list`: the independent FX rates price testing uses,
 * in the data directory (`<data dir>/reference/fx`): load an ECB eurofxref-hist csv (locally), and
 * show which dates and currencies each loaded file covers (locally or on a server: cli/backend/reference.ts).
 */
import type { Command } from 'commander';
import type { FxRateFile } from '../../server/services/reference-data/fx-rates.js';
import { referenceBackend } from '../backend/reference.js';
import { globals } from '../global.js';
import { output, printTable } from '../output.js';

const coverageRow = (f: FxRateFile) => ({
  file: f.file,
  format: f.format,
  from: f.firstDate ?? '',
  to: f.lastDate ?? '',
  dates: f.dates,
  currencies: f.currencies.length,
  rates: f.rates,
});

export function registerReference(program: Command): void {
  const cmd = program.command('reference').description('Reference data: independent FX rates for price testing');
  const fx = cmd.command('fx').description('Independent FX rates (ECB euro reference rates)');

  fx.command('import')
    .description('Load an ECB eurofxref-hist csv (Date,USD,JPY,... units per EUR) as independent rates; used from the next calculation on')
    .argument('<file>', 'the csv (extracted from the ECB eurofxref-hist.zip)')
    .action(async (file: string, _opts, c: Command) => {
      const g = globals(c);
      const f = await referenceBackend(g).importFx(file);
      output(f, !!g.json, () =>
        process.stdout.write(
          `Loaded ${f.file}: ${f.rates} rates of ${f.currencies.length} currencies on ${f.dates} dates from ${f.firstDate} to ${f.lastDate}\n`,
        ),
      );
    });

  fx.command('list')
    .description('The loaded rate files with the dates and currencies each covers')
    .action(async (_opts, c: Command) => {
      const g = globals(c);
      const files = await referenceBackend(g).listFx();
      output(files, !!g.json, () => printTable(files.map(coverageRow)));
    });
}
