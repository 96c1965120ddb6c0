/**
 * Independent FX rates (docs/decisions/0021-fx-rates.md): the one place that knows where they are,
 * which the calculations, fund aggregation, the test runner, seeding, the HTTP routes and the CLI
 * all use. Rates are csv files in one folder (`fxDir`): the ECB history shipped with the product
 * (`fixtures/reference/fx`, copied in by `seedFxRates`) and files users upload in any layout
 * `pipeline/fx/sources.ts` reads (ECB history or daily file, Fed H.10, the product's rates csv).
 * Uploaded files come before the shipped history when both give a pair on the same day.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from '../../context.js';
import { recordAudit, type AuditActor } from '../audit/audit-log.js';
import { baseStoreOf } from '../../db/dialect.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { fixturesDir } from '../../paths.js';
import { heavyWork } from '../../lib/guard.js';
import { fxCoverage, type FxCoverage } from '../../../pipeline/checks/fx.js';
import { FxResolver } from '../../../pipeline/fx/resolve.js';
import { parseFxSource, RATES_CSV_LAYOUT, type FxQuote, type FxSourceLayout } from '../../../pipeline/fx/sources.js';
import type { FxRate } from '../../../pipeline/sdm/rows.js';

/** Folder of the independent FX rate files of a PostgreSQL install whose blob directory is `blobRoot`. */
export const sharedFxDir = (blobRoot: string) => join(blobRoot, 'reference', 'fx');

/**
 * Folder of the independent FX rate files: `<data dir>/reference/fx` on SQLite; on PostgreSQL in
 * the blob directory every node shares (`sharedFxDir`), so rates loaded on one node are read by
 * the jobs of every other.
 */
export const fxDir = (ctx: AppContext) => (baseStoreOf(ctx).dialect === 'postgres' ? sharedFxDir(ctx.blobs.root) : join(ctx.config.dataDir, 'reference', 'fx'));

/** Where the shipped rates are in the product. */
const shippedDir = () => join(fixturesDir(), 'reference', 'fx');

/**
 * Files earlier versions seeded (ECB cross rates per USD of two dates, now within the shipped
 * history): removed from a data directory when unchanged, so their rates do not stand beside it.
 */
const RETIRED = ['ecb-usd-cross-rates-2022-12-30.csv', 'ecb-usd-cross-rates-2023-03-31.csv'];

/** One file of independent rates and what it covers. */
export interface FxRateFile extends FxCoverage {
  file: string;
  /** The layout the file is in. */
  format: FxSourceLayout;
  /** Shipped with the product (the ECB history), not uploaded. */
  shipped: boolean;
  /** Rates in the file (one per currency and date). */
  rates: number;
  /** When the file was loaded into the data directory (ISO timestamp). */
  loadedAt: string;
}

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const shippedNames = () => (existsSync(shippedDir()) ? readdirSync(shippedDir()).filter((f) => f.endsWith('.csv')) : []);

/**
 * Copies the shipped rates into the data directory once (a file of that name already there is
 * kept), and removes the files earlier versions shipped when they are unchanged.
 */
export function seedFxRates(ctx: AppContext): void {
  const dest = fxDir(ctx);
  mkdirSync(dest, { recursive: true });
  for (const f of shippedNames()) if (!existsSync(join(dest, f))) copyFileSync(join(shippedDir(), f), join(dest, f));
  for (const f of RETIRED) {
    const old = join(fixturesDir(), 'fx', f);
    const here = join(dest, f);
    if (existsSync(here) && existsSync(old) && sha(readFileSync(here)) === sha(readFileSync(old))) rmSync(here);
  }
}

interface Parsed {
  key: string;
  layout: FxSourceLayout;
  quotes: FxQuote[];
}
/** Parsed files by path, kept while the file's size and time are unchanged (the history is parsed once per thread). */
const parsedCache = new Map<string, Parsed>();

function parsedFile(path: string, name: string): Parsed {
  const st = statSync(path);
  const key = `${st.size}:${st.mtimeMs}`;
  const hit = parsedCache.get(path);
  if (hit?.key === key) return hit;
  const { layout, quotes } = parseFxSource(readFileSync(path, 'utf8'), name);
  const parsed = { key, layout, quotes };
  parsedCache.set(path, parsed);
  return parsed;
}

/** The rate files of the data directory in order of preference: uploaded (newest first), then shipped. */
function rateFiles(ctx: AppContext): Array<{ name: string; path: string; shipped: boolean; mtimeMs: number }> {
  const dir = fxDir(ctx);
  if (!existsSync(dir)) return [];
  const shipped = new Set(shippedNames());
  return readdirSync(dir)
    .filter((f) => f.endsWith('.csv'))
    .map((name) => ({ name, path: join(dir, name), shipped: shipped.has(name), mtimeMs: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => Number(a.shipped) - Number(b.shipped) || b.mtimeMs - a.mtimeMs || a.name.localeCompare(b.name));
}

function fileSummary(name: string, shipped: boolean, mtimeMs: number, p: { layout: FxSourceLayout; quotes: FxQuote[] }): FxRateFile {
  const rates: FxRate[] = p.quotes.map((q) => ({ currency: q.currency, rate_date: q.rate_date, units_per_base: q.units_per_base, source: q.source }));
  const coverage = fxCoverage(rates);
  const currencies = new Set(coverage.currencies);
  for (const q of p.quotes) currencies.add(q.base);
  return {
    file: name,
    format: p.layout,
    shipped,
    rates: rates.length,
    loadedAt: new Date(mtimeMs).toISOString(),
    ...coverage,
    currencies: [...currencies].sort(),
  };
}

/**
 * Every file of independent rates, in order of preference, with the dates and currencies it
 * covers (heavy on the first call of a thread, which parses them: the parse pool does it for
 * requests). @throws Error on a file that cannot be read (its name and line in the message)
 */
export function listFxRates(ctx: AppContext): FxRateFile[] {
  heavyWork('reading the files of independent FX rates');
  return rateFiles(ctx).map((f) => fileSummary(f.name, f.shipped, f.mtimeMs, parsedFile(f.path, f.name)));
}

/** The shipped ECB history: its file and the last date it holds (stated in the docs and the UI). */
export function shippedFxHistory(): { file: string; firstDate: string | null; lastDate: string | null } | null {
  const [name] = shippedNames();
  if (!name) return null;
  const { quotes } = parsedFile(join(shippedDir(), name), name);
  const dates = quotes.map((q) => q.rate_date).sort();
  return { file: name, firstDate: dates[0] ?? null, lastDate: dates[dates.length - 1] ?? null };
}

/** An uploaded rates file checked: its plain name and what it covers (`checkFxFile`). */
export interface CheckedFxFile {
  name: string;
  layout: FxSourceLayout;
  summary: Omit<FxRateFile, 'loadedAt' | 'shipped'>;
}

/**
 * Checks a file of independent rates before it is loaded (heavy: the parse pool does it for
 * requests): a plain `.csv` name, a layout `parseFxSource` reads, every row good.
 * @throws ValidationError naming the file and line of the first problem
 */
export function checkFxFile(file: { fileName: string; bytes: Uint8Array }): CheckedFxFile {
  heavyWork('checking a file of independent FX rates');
  const name = file.fileName.split(/[\\/]/).pop() ?? '';
  if (!/^[\w.-]+\.csv$/i.test(name) || name.startsWith('.'))
    throw new ValidationError(`${name || 'The file'}: the file name must end in .csv and contain only letters, digits, '.', '-' and '_'`);
  let parsed: ReturnType<typeof parseFxSource>;
  try {
    parsed = parseFxSource(new TextDecoder('utf-8').decode(file.bytes), name);
  } catch (err) {
    throw new ValidationError((err as Error).message);
  }
  const { loadedAt: _, shipped: __, ...summary } = fileSummary(name, false, 0, parsed);
  return { name, layout: parsed.layout, summary };
}

/**
 * Loads a file of independent rates under its own name (a file of that name loaded before is
 * replaced; written to a temporary file first). The calculations use it from their next run.
 * @param file the file's name and bytes (UTF-8 text in a layout `parseFxSource` reads)
 * @param checked the file's `checkFxFile` result when the caller checked it already (in a pool)
 * @returns the file as loaded and the dates and currencies it covers
 * @throws ValidationError as `checkFxFile`
 */
export function importFxFile(ctx: AppContext, file: { fileName: string; bytes: Uint8Array }, checked = checkFxFile(file)): FxRateFile {
  const { name } = checked;
  const dir = fxDir(ctx);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${name}.tmp`);
  writeFileSync(tmp, file.bytes);
  renameSync(tmp, join(dir, name));
  parsedCache.delete(join(dir, name));
  const st = statSync(join(dir, name));
  return { ...checked.summary, shipped: shippedNames().includes(name), loadedAt: new Date(st.mtimeMs).toISOString() };
}

/**
 * Records in the audit log who loaded a file of independent rates and what it covers: the rates
 * are audit evidence, so where they came from is kept with the other audited changes.
 */
export async function auditFxFileLoaded(ctx: AppContext, actor: AuditActor | null, f: FxRateFile): Promise<FxRateFile> {
  await recordAudit(ctx, actor, 'fx-rates-loaded', `fx-rates:${f.file}`, {
    format: f.format,
    rates: f.rates,
    firstDate: f.firstDate,
    lastDate: f.lastDate,
    currencies: f.currencies,
  });
  return f;
}

/**
 * Loads a file of independent rates from a path on this host (`fund-audit reference fx import`),
 * recorded in the audit log as done by `actor`.
 * @throws NotFoundError when there is no such file; as `importFxFile` otherwise
 */
export async function importFxPath(ctx: AppContext, path: string, actor: AuditActor | null): Promise<FxRateFile> {
  if (!existsSync(path)) throw new NotFoundError(`No such file: ${path}`);
  return auditFxFileLoaded(ctx, actor, importFxFile(ctx, { fileName: path, bytes: readFileSync(path) }));
}

/**
 * Removes an uploaded file of independent rates (recorded in the audit log as done by `actor`).
 * @throws NotFoundError when there is none of that name; ValidationError for the shipped history
 */
export async function removeFxFile(ctx: AppContext, fileName: string, actor: AuditActor | null): Promise<{ file: string; removed: true }> {
  const f = rateFiles(ctx).find((x) => x.name === fileName);
  if (!f) throw new NotFoundError(`No file of independent FX rates named ${fileName}`);
  if (f.shipped) throw new ValidationError(`${fileName} is the ECB history shipped with Fund Audit: it cannot be removed (upload newer rates beside it)`);
  rmSync(f.path);
  parsedCache.delete(f.path);
  await recordAudit(ctx, actor, 'fx-rates-removed', `fx-rates:${fileName}`, {});
  return { file: fileName, removed: true };
}

/** A resolver over every file of independent rates, uploaded files first. @throws Error on an unreadable file */
export function fxResolver(ctx: AppContext): FxResolver {
  return new FxResolver(rateFiles(ctx).flatMap((f) => parsedFile(f.path, f.name).quotes));
}

/**
 * The independent rate of every currency the files give, per one unit of `base` (the fund
 * currency), dated on or before `periodEnd` (the latest such date, quoted or crossed through EUR
 * or USD): what the checks receive as `fxRates`.
 */
export function independentRatesAt(ctx: AppContext, base: string, periodEnd: string): FxRate[] {
  return fxResolver(ctx)
    .ratesAt(base, periodEnd)
    .map((r) => ({ currency: r.currency, rate_date: r.rate_date, units_per_base: r.units_per_base, source: r.source }));
}

/** Every independent rate per one unit of `base` on every date of the files (fund aggregation converts at several dates). */
export function loadFxRates(ctx: AppContext, base: string): FxRate[] {
  return fxResolver(ctx).history(base);
}

/** What the Independent FX rates page shows: the files, the shipped history's dates, the rules applied. */
export interface FxRatesOverview {
  files: FxRateFile[];
  /** The ECB history shipped with Fund Audit (null in a build without it). */
  shipped: { file: string; firstDate: string | null; lastDate: string | null } | null;
  /** Setting `fxMaxAgeBusinessDays`: a rate older than this many business days before the period end is not used. */
  maxAgeBusinessDays: number;
  /** Setting `fxTolerancePct`: the FX tolerance of a fund request without its own. */
  defaultTolerancePct: number;
  /** The layouts an uploaded file may be in. */
  layouts: string[];
}

/** The overview of the independent FX rates (heavy on a thread's first call, as `listFxRates`). */
export function fxRatesOverview(ctx: AppContext): FxRatesOverview {
  return {
    files: listFxRates(ctx),
    shipped: shippedFxHistory(),
    maxAgeBusinessDays: ctx.config.fxMaxAgeBusinessDays,
    defaultTolerancePct: ctx.config.fxTolerancePct,
    layouts: [
      'ECB eurofxref-hist.csv (Date,USD,JPY,... units per EUR)',
      'ECB eurofxref.csv daily file',
      'Fed H.10 (Date,Country,Exchange rate: units per USD)',
      `rates csv: ${RATES_CSV_LAYOUT}`,
    ],
  };
}
