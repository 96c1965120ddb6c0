/**
 * `fund-audit reference fx import FILE | fx list`: the independent FX rates price testing uses,
 * in the local data directory (`<data dir>/reference/fx`): load an ECB eurofxref-hist csv, and
 * show which dates and currencies each loaded file covers.
 */
import type { Command } from 'commander';
import { ValidationError } from '../../server/errors.js';
import { importEcbFxFile, listFxRates, type FxRateFile } from '../../server/services/reference-data/fx-rates.js';
import { globals, openLocal, type GlobalOptions } from '../global.js';
import { isRemote } from '../remote.js';
import { output, printTable } from '../output.js';

/** Runs `fn` on the local data directory (these commands change files of the data directory itself). */
async function local<T>(g: GlobalOptions, fn: (ctx: Awaited<ReturnType<typeof openLocal>>) => T): Promise<T> {
  if (isRemote(g)) throw new ValidationError('reference fx works on the local data directory only: run it on the server host with --data-dir');
  const ctx = await openLocal(g);
  try {
    return fn(ctx);
  } finally {
    ctx.close();
  }
}

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
      const f = await local(g, (ctx) => importEcbFxFile(ctx, file));
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
      const files = await local(g, (ctx) => listFxRates(ctx));
      output(files, !!g.json, () => printTable(files.map(coverageRow)));
    });
}
