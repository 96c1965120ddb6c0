/**
 * Independent FX rates of a data directory (DOMAIN.md 2.4 item 4): the csv files in
 * `<data dir>/reference/fx/` that price testing reads. `importEcbFxFile` loads an ECB
 * `eurofxref-hist` csv (as the ECB publishes it: `Date,USD,JPY,...`, units per EUR) unchanged
 * into that folder after checking every row; `listFxRates` says which dates and currencies each
 * loaded file covers (developer tools, `fund-audit reference fx list`).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { AppContext } from '../../context.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { fxCoverage, isEcbHistory, parseEcbHistory, parseFxCsv, type FxCoverage } from '../../../pipeline/checks/fx.js';
import { fxDir } from '../../jobs/stages/calculations.js';

/** One loaded file of independent rates and what it covers. */
export interface FxRateFile extends FxCoverage {
  file: string;
  /** 'ECB eurofxref-hist' (units per EUR) or 'cross rates' (`currency,rate_date,units_per_usd,source`). */
  format: 'ECB eurofxref-hist' | 'cross rates';
  /** Rates in the file (one per currency and date). */
  rates: number;
}

/** Every loaded file of independent rates (by name) with the dates and currencies it covers. Throws Error on an unreadable file. */
export function listFxRates(ctx: AppContext): FxRateFile[] {
  const dir = fxDir(ctx);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.csv'))
    .sort()
    .map((file) => {
      const text = readFileSync(join(dir, file), 'utf8');
      const ecb = isEcbHistory(text);
      // per file, in the currency the file is quoted against (EUR for the ECB's, USD for cross rates)
      const rates = ecb ? parseEcbHistory(text, file) : parseFxCsv(text, 'USD', file);
      return { file, format: ecb ? 'ECB eurofxref-hist' : 'cross rates', rates: rates.length, ...fxCoverage(rates) };
    });
}

/**
 * Loads an ECB `eurofxref-hist` csv into the data directory's independent rates under its own
 * file name (a file of that name loaded before is replaced; written to a temporary file first).
 * Price testing uses it from the next calculation on.
 * @param path the csv on disk (the ECB's zip must be extracted first)
 * @returns the file as loaded and the dates and currencies it covers
 * @throws NotFoundError when the file does not exist; ValidationError when it is not an ECB
 *   eurofxref-hist csv or a row is wrong (the message names the line)
 */
export function importEcbFxFile(ctx: AppContext, path: string): FxRateFile {
  if (!existsSync(path)) throw new NotFoundError(`No such file: ${path}`);
  const name = basename(path);
  if (!/^[\w.-]+\.csv$/i.test(name)) throw new ValidationError(`${name}: the file name must end in .csv and contain only letters, digits, '.', '-' and '_'`);
  const text = readFileSync(path, 'utf8');
  if (!isEcbHistory(text))
    throw new ValidationError(`${name} is not an ECB eurofxref-hist csv: its header must be Date followed by currency codes (Date,USD,JPY,...)`);
  let rates: ReturnType<typeof parseEcbHistory>;
  try {
    rates = parseEcbHistory(text, name);
  } catch (err) {
    throw new ValidationError((err as Error).message);
  }
  if (!rates.some((r) => r.currency === 'USD')) throw new ValidationError(`${name} has no USD rate: rates for a USD fund could not be derived`);
  const dir = fxDir(ctx);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${name}.tmp`);
  writeFileSync(tmp, text);
  renameSync(tmp, join(dir, name));
  return { file: name, format: 'ECB eurofxref-hist', rates: rates.length, ...fxCoverage(rates) };
}
