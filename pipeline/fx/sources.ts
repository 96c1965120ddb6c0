/**
 * Files of independent FX rates (docs/decisions/0021-fx-rates.md, "Independent rates"): the
 * layouts the product reads, each into `FxQuote`s (units of a currency per one unit of the
 * quote's base, on a date, with the figure's source):
 * - ECB euro reference rates, history (`eurofxref-hist.csv`: `Date,USD,JPY,...`, ISO dates, one row
 *   per day, newest first) or daily file (`eurofxref.csv`: `Date, USD, JPY, ...` with spaces and
 *   dates such as `13 April 2026`): units per EUR, `N/A` for a currency not quoted that day.
 * - US Federal Reserve H.10 as repackaged by the datasets/exchange-rates project
 *   (`Date,Country,Exchange rate`, one row per country and date, the country's name for the
 *   currency). Every series of that file is units of the currency per USD, the five the Fed itself
 *   quotes in USD (Australia, Euro, Ireland, New Zealand, United Kingdom) included (checked against
 *   the ECB's averages); a file whose dates are all the 1st of a month holds monthly averages, and
 *   says so in each source. Venezuela's series (four redenominations) is not read.
 * - The product's rates csv: `rate_date,currency,units_per_XXX[,source]` or
 *   `rate_date,currency,XXX_per_unit[,source]` (any column order; `XXX` the ISO code the rates
 *   are quoted against), comma-delimited, `.` decimals, ISO dates.
 * Pure: text in, quotes out. Errors name the file and line.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { ANY_LINE_ENDING } from '../readers/delimited.js';
import { isValid, parse as parseDate } from 'date-fns';

/** One independent rate as a file gives it: `units_per_base` units of `currency` per 1 `base`. */
export interface FxQuote {
  base: string;
  currency: string;
  rate_date: string;
  units_per_base: number;
  /** The file, and the figure as published: `eurofxref-hist.csv ECB 2023-03-31: 11.2805 SEK per EUR`. */
  source: string;
  /** The file the quote is from. */
  file: string;
  /** The publisher and date, `ECB 2023-03-31`, so that two legs of one source read as one. */
  ref: string;
  /** The figure as published, `11.2805 SEK per EUR`. */
  figure: string;
}

/** The layouts of independent rate files. */
export const FX_SOURCE_LAYOUTS = ['ECB eurofxref-hist', 'ECB eurofxref daily', 'Fed H.10', 'rates csv'] as const;
export type FxSourceLayout = (typeof FX_SOURCE_LAYOUTS)[number];

/** A file of independent rates read. */
export interface FxSourceFile {
  layout: FxSourceLayout;
  quotes: FxQuote[];
}

/** The documented layout of the rates csv, for messages and the docs. */
export const RATES_CSV_LAYOUT =
  'rate_date,currency,units_per_XXX[,source] (or XXX_per_unit instead of units_per_XXX; XXX the ISO code the rates are quoted against)';

/** Fed H.10 country names -> ISO 4217 codes (legacy euro-area currencies by their own codes). */
const FED_COUNTRIES: Record<string, string> = {
  Australia: 'AUD',
  Austria: 'ATS',
  Belgium: 'BEF',
  Brazil: 'BRL',
  Canada: 'CAD',
  China: 'CNY',
  Denmark: 'DKK',
  Euro: 'EUR',
  Finland: 'FIM',
  France: 'FRF',
  Germany: 'DEM',
  Greece: 'GRD',
  'Hong Kong': 'HKD',
  India: 'INR',
  Ireland: 'IEP',
  Italy: 'ITL',
  Japan: 'JPY',
  Malaysia: 'MYR',
  Mexico: 'MXN',
  Netherlands: 'NLG',
  'New Zealand': 'NZD',
  Norway: 'NOK',
  Portugal: 'PTE',
  Singapore: 'SGD',
  'South Africa': 'ZAR',
  'South Korea': 'KRW',
  Spain: 'ESP',
  'Sri Lanka': 'LKR',
  Sweden: 'SEK',
  Switzerland: 'CHF',
  Taiwan: 'TWD',
  Thailand: 'THB',
  'United Kingdom': 'GBP',
};
/** Series of the H.10 file that are not read, and why. */
const FED_SKIPPED: Record<string, string> = { Venezuela: 'four redenominations of the bolivar in one series' };

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const CCY = /^[A-Z]{3}$/;

const lines = (text: string) => text.replace(/^\uFEFF/, '').split(/\r?\n/);
const cellsOf = (line: string) => line.split(',').map((c) => c.trim());

/** Whether an ISO date is a real calendar date. */
function isIsoDate(s: string): boolean {
  return ISO_DATE.test(s) && isValid(parseDate(s, 'yyyy-MM-dd', new Date(0)));
}

/** A positive finite rate from its text, else null. */
function rateOf(raw: string): number | null {
  if (!/^[0-9]*\.?[0-9]+(e[+-]?\d+)?$/i.test(raw)) return null;
  const x = Number(raw);
  return Number.isFinite(x) && x > 0 ? x : null;
}

/** Which layout a file is in, or why none fits (the closest layout and what it lacks). */
export function detectFxSourceLayout(text: string): { layout: FxSourceLayout } | { error: string } {
  const header = cellsOf(lines(text)[0] ?? '');
  if (header[0] === 'Date' && header.length > 1 && CCY.test(header[1] ?? '')) {
    const second = cellsOf(lines(text)[1] ?? '')[0] ?? '';
    return { layout: ISO_DATE.test(second) || second === '' ? 'ECB eurofxref-hist' : 'ECB eurofxref daily' };
  }
  const lower = header.map((h) => h.toLowerCase());
  if (lower[0] === 'date' && lower[1] === 'country' && lower[2] === 'exchange rate') return { layout: 'Fed H.10' };
  const hasRate = lower.some((h) => /^units_per_[a-z]{3}$/.test(h) || /^[a-z]{3}_per_unit$/.test(h));
  if (lower.includes('rate_date') && lower.includes('currency') && hasRate) return { layout: 'rates csv' };
  const missing = [!lower.includes('rate_date') && 'rate_date', !lower.includes('currency') && 'currency', !hasRate && 'units_per_XXX or XXX_per_unit'].filter(
    Boolean,
  );
  return {
    error: `not a file of independent rates the product reads: the header "${header.join(',')}" is neither the ECB's (Date,USD,JPY,...), the Fed H.10 layout (Date,Country,Exchange rate) nor the rates csv (${RATES_CSV_LAYOUT}); closest is the rates csv, missing ${missing.join(', ')}`,
  };
}

/**
 * Reads a file of independent rates in any layout the product knows (see the module's description).
 * @param text the file's text (UTF-8, with or without BOM)
 * @param fileName names the file in each source and error
 * @throws Error naming the file (and line) when the layout is unknown, a date or rate is bad, or the file has no rate
 */
export function parseFxSource(text: string, fileName: string): FxSourceFile {
  const found = detectFxSourceLayout(text);
  if ('error' in found) throw new Error(`${fileName}: ${found.error}`);
  const quotes =
    found.layout === 'Fed H.10'
      ? parseFed(text, fileName)
      : found.layout === 'rates csv'
        ? parseRatesCsv(text, fileName)
        : parseEcb(text, fileName, found.layout);
  if (!quotes.length) throw new Error(`${fileName}: no rate in the file`);
  return { layout: found.layout, quotes };
}

function quote(file: string, base: string, currency: string, date: string, rate: number, publisher: string, figure: string): FxQuote {
  const ref = `${publisher} ${date}`;
  return { base, currency, rate_date: date, units_per_base: rate, file, ref, figure, source: `${file} ${ref}: ${figure}` };
}

/** ECB history or daily file: units per EUR; EUR itself is not listed. */
function parseEcb(text: string, fileName: string, layout: FxSourceLayout): FxQuote[] {
  const all = lines(text);
  const currencies = cellsOf(all[0]).slice(1);
  currencies.forEach((c, i) => {
    if (c && !CCY.test(c)) throw new Error(`${fileName} line 1: column ${i + 2} "${c}" is not a currency code`);
  });
  const out: FxQuote[] = [];
  for (let n = 1; n < all.length; n++) {
    if (!all[n].trim()) continue;
    const cells = cellsOf(all[n]);
    const date = ecbDate(cells[0], layout);
    if (!date)
      throw new Error(`${fileName} line ${n + 1}: bad date "${cells[0]}" (${layout === 'ECB eurofxref daily' ? 'e.g. 13 April 2026' : 'YYYY-MM-DD'} expected)`);
    currencies.forEach((ccy, i) => {
      const raw = cells[i + 1] ?? '';
      if (!ccy || raw === '' || /^n\/?a$/i.test(raw)) return;
      const rate = rateOf(raw);
      if (rate === null) throw new Error(`${fileName} line ${n + 1}: bad ${ccy} rate "${raw}"`);
      out.push(quote(fileName, 'EUR', ccy, date, rate, 'ECB', `${raw} ${ccy} per EUR`));
    });
  }
  return out;
}

function ecbDate(cell: string, layout: FxSourceLayout): string | null {
  if (layout === 'ECB eurofxref-hist') return isIsoDate(cell) ? cell : null;
  const d = parseDate(cell, 'd MMMM yyyy', new Date(0));
  if (!isValid(d)) return null;
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** The records of a csv text (any line ending, BOM dropped), each with the line it ends on. */
function recordsWithLines(text: string): Array<{ record: string[]; info: { lines: number } }> {
  return parseCsv(text.replace(/^\uFEFF/, ''), {
    record_delimiter: ANY_LINE_ENDING,
    skip_empty_lines: true,
    trim: true,
    relax_column_count: true,
    info: true,
  }) as unknown as Array<{ record: string[]; info: { lines: number } }>;
}

/** Fed H.10 (datasets/exchange-rates layout): units per USD. */
function parseFed(text: string, fileName: string): FxQuote[] {
  const records = recordsWithLines(text);
  const rows = records.slice(1);
  const monthly = rows.length > 0 && rows.every(({ record }) => /-01$/.test(record[0] ?? ''));
  const out: FxQuote[] = [];
  for (const { record, info } of rows) {
    const [date, country, raw] = record;
    if (!isIsoDate(date ?? '')) throw new Error(`${fileName} line ${info.lines}: bad date "${date ?? ''}" (YYYY-MM-DD expected)`);
    if (country && FED_SKIPPED[country]) continue;
    const ccy = FED_COUNTRIES[country ?? ''];
    if (!ccy)
      throw new Error(`${fileName} line ${info.lines}: "${country ?? ''}" is not an H.10 series the product knows (${Object.keys(FED_COUNTRIES).join(', ')})`);
    if (!raw || /^n\/?a$/i.test(raw) || raw === 'ND') continue;
    const rate = rateOf(raw);
    if (rate === null) throw new Error(`${fileName} line ${info.lines}: bad ${country} rate "${raw}"`);
    out.push(quote(fileName, 'USD', ccy, date, rate, monthly ? 'Fed H.10 monthly average' : 'Fed H.10', `${raw} ${ccy} per USD`));
  }
  return out;
}

/** The product's rates csv (see `RATES_CSV_LAYOUT`). */
function parseRatesCsv(text: string, fileName: string): FxQuote[] {
  const records = recordsWithLines(text);
  const header = records[0].record.map((h) => h.toLowerCase());
  const at = (name: string) => header.indexOf(name);
  const rateCols = header
    .map((h, i) => {
      const per = /^units_per_([a-z]{3})$/.exec(h);
      if (per) return { i, base: per[1].toUpperCase(), inverse: false };
      const unit = /^([a-z]{3})_per_unit$/.exec(h);
      return unit ? { i, base: unit[1].toUpperCase(), inverse: true } : null;
    })
    .filter((x): x is { i: number; base: string; inverse: boolean } => x !== null);
  if (rateCols.length !== 1)
    throw new Error(`${fileName} line 1: one rate column expected (units_per_XXX or XXX_per_unit), found ${rateCols.map((c) => header[c.i]).join(', ')}`);
  const [{ i: rateAt, base, inverse }] = rateCols;
  const dateAt = at('rate_date');
  const ccyAt = at('currency');
  const sourceAt = at('source');
  const out: FxQuote[] = [];
  for (const { record, info } of records.slice(1)) {
    const date = record[dateAt] ?? '';
    const ccy = (record[ccyAt] ?? '').toUpperCase();
    const raw = record[rateAt] ?? '';
    if (raw === '' || /^n\/?a$/i.test(raw)) continue;
    if (!isIsoDate(date)) throw new Error(`${fileName} line ${info.lines}: bad date "${date}" (YYYY-MM-DD expected)`);
    if (!CCY.test(ccy)) throw new Error(`${fileName} line ${info.lines}: bad currency "${record[ccyAt] ?? ''}" (an ISO 4217 code expected)`);
    const rate = rateOf(raw);
    if (rate === null) throw new Error(`${fileName} line ${info.lines}: bad rate "${raw}" (a positive number with '.' decimals expected)`);
    const publisher = (sourceAt >= 0 && record[sourceAt]) || fileName;
    const q = inverse
      ? quote(fileName, ccy, base, date, rate, publisher, `${raw} ${base} per ${ccy}`)
      : quote(fileName, base, ccy, date, rate, publisher, `${raw} ${ccy} per ${base}`);
    // a source column that already names the date and figure (the shipped cross rates) is kept as written
    if (sourceAt >= 0 && record[sourceAt]) q.source = `${fileName} ${record[sourceAt]}`;
    out.push(q);
  }
  return out;
}
