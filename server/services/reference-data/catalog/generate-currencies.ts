/**
 * Generates `currencies.data.ts` from the ISO 4217 snapshot in the shared data folder
 * (`reference/iso4217_codes-all.csv`, columns Entity,Currency,AlphabeticCode,NumericCode,MinorUnit,
 * WithdrawalDate; one row per entity, so codes repeat). The folder is `FUND_AUDIT_SHARED_DATA`,
 * default `<repo>/../shared/data`. Run: `npx tsx server/services/reference-data/catalog/generate-currencies.ts`.
 *
 * Rules: one entry per alphabetic code; a code with at least one row without a withdrawal date is
 * active (named after its active rows), otherwise it is withdrawn and kept with `deprecated: true`,
 * named after its most recently withdrawn row. Rows without a code ("No universal currency") are
 * skipped. Minor units are recorded for active codes with a numeric MinorUnit only (funds, metals
 * and testing codes such as XDR, XAU, XTS have "N.A." in ISO 4217, written "-" in the csv).
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'csv-parse/sync';
import { banner, CATALOG_DIR, isMainModule, renderEntry, tsString, writeGenerated } from './codegen.js';
import type { RefEntry } from './types.js';

const CSV_NAME = 'iso4217_codes-all.csv';
const REQUIRED_COLUMNS = ['Currency', 'AlphabeticCode', 'MinorUnit', 'WithdrawalDate'] as const;

interface IsoRow {
  Entity: string;
  Currency: string;
  AlphabeticCode: string;
  NumericCode: string;
  MinorUnit: string;
  WithdrawalDate: string;
}

/** Result of reading the ISO 4217 table: entries sorted by name, minor units of active codes. */
export interface CurrencyTable {
  entries: RefEntry[];
  minorUnits: Record<string, number>;
}

/** Folder of the shared reference data (`FUND_AUDIT_SHARED_DATA` or `<repo>/../shared/data`). */
export function sharedDataDir(): string {
  return process.env.FUND_AUDIT_SHARED_DATA ? resolve(process.env.FUND_AUDIT_SHARED_DATA) : resolve(CATALOG_DIR, '../../../..', '../shared/data');
}

/** Absolute path of the ISO 4217 csv inside the shared data folder. */
export function currencyCsvPath(dir = sharedDataDir()): string {
  return resolve(dir, 'reference', CSV_NAME);
}

/** Sort key of a withdrawal date such as "2002-03", "1989-1990" or "1978 to 1981" (the last date). */
function withdrawalKey(value: string): string {
  const dates = [...value.matchAll(/(\d{4})(?:-(\d{2}))?/g)];
  const last = dates[dates.length - 1];
  return last ? `${last[1]}-${last[2] ?? '00'}` : '';
}

/** Parses the ISO 4217 csv text into de-duplicated entries and minor units. */
export function buildCurrencies(csvText: string): CurrencyTable {
  const rows = parse(csvText, { columns: true, bom: true, skip_empty_lines: true, trim: true }) as IsoRow[];
  const header = Object.keys(rows[0] ?? {});
  const missing = REQUIRED_COLUMNS.filter((c) => !header.includes(c));
  if (missing.length) throw new Error(`${CSV_NAME}: missing column(s) ${missing.join(', ')}`);

  const byCode = new Map<string, IsoRow[]>();
  for (const row of rows) {
    const code = row.AlphabeticCode.toUpperCase();
    if (!code) continue;
    if (!/^[A-Z]{3}$/.test(code)) throw new Error(`${CSV_NAME}: bad alphabetic code "${row.AlphabeticCode}"`);
    byCode.set(code, [...(byCode.get(code) ?? []), row]);
  }

  const entries: RefEntry[] = [];
  const minorUnits: Record<string, number> = {};
  for (const [code, group] of byCode) {
    const active = group.filter((r) => !r.WithdrawalDate);
    if (active.length) {
      const names = new Set(active.map((r) => r.Currency));
      const units = new Set(active.map((r) => r.MinorUnit));
      if (names.size > 1 || units.size > 1) throw new Error(`${CSV_NAME}: active rows of ${code} disagree (${[...names, ...units].join(' / ')})`);
      entries.push({ code, alt_code: active[0].Currency, deprecated: false });
      if (/^\d+$/.test(active[0].MinorUnit)) minorUnits[code] = Number(active[0].MinorUnit);
    } else {
      const latest = [...group].sort((a, b) => withdrawalKey(b.WithdrawalDate).localeCompare(withdrawalKey(a.WithdrawalDate)))[0];
      entries.push({ code, alt_code: latest.Currency, deprecated: true });
    }
  }
  const collator = new Intl.Collator('en', { sensitivity: 'base' });
  entries.sort((a, b) => collator.compare(a.alt_code, b.alt_code) || a.code.localeCompare(b.code));
  const sortedUnits = Object.fromEntries(Object.entries(minorUnits).sort(([a], [b]) => a.localeCompare(b)));
  return { entries, minorUnits: sortedUnits };
}

/** The "Source:" line of the csv in the shared SOURCE.txt, if present (recorded in the banner). */
function sourceNote(dir: string): string | undefined {
  const file = resolve(dir, 'reference', 'SOURCE.txt');
  if (!existsSync(file)) return undefined;
  return readFileSync(file, 'utf8')
    .match(/iso4217_codes-all\.csv\s*\r?\n\s*Source:\s*(.+)/)?.[1]
    .trim();
}

/** The full text of `currencies.data.ts` for the given csv text (and optional provenance note). */
export function renderCurrenciesModule(csvText: string, note?: string): string {
  const { entries, minorUnits } = buildCurrencies(csvText);
  const active = entries.filter((e) => !e.deprecated).length;
  return [
    banner('generate-currencies.ts', [
      `Source: ISO 4217 (tables A.1 and A.3) via shared/data/reference/${CSV_NAME}`,
      ...(note ? [`  (${note}; ODC-PDDL-1.0)`] : []),
      `${entries.length} codes: ${active} active, ${entries.length - active} withdrawn (deprecated).`,
    ]),
    "import type { RefEntry } from './types.js';",
    '',
    '/** ISO 4217 alphabetic codes with their names, one per code, sorted by name; withdrawn ones deprecated. */',
    'export const CURRENCIES: readonly RefEntry[] = [',
    ...entries.map(renderEntry),
    '];',
    '',
    '/** ISO 4217 minor units (decimal places) of active codes; codes with "N.A." (XAU, XDR, ...) are absent. */',
    'export const CURRENCY_MINOR_UNITS: Readonly<Record<string, number>> = {',
    ...Object.entries(minorUnits).map(([code, units]) => `  ${/^[A-Z]+$/.test(code) ? code : tsString(code)}: ${units},`),
    '};',
    '',
  ].join('\n');
}

if (isMainModule(import.meta.url)) {
  const dir = sharedDataDir();
  const csvPath = currencyCsvPath(dir);
  if (!existsSync(csvPath)) {
    console.error(`ISO 4217 csv not found at ${csvPath} (set FUND_AUDIT_SHARED_DATA to the shared data folder)`);
    process.exit(1);
  }
  const csvText = readFileSync(csvPath, 'utf8');
  const { entries, minorUnits } = buildCurrencies(csvText);
  writeGenerated(
    'currencies.data.ts',
    renderCurrenciesModule(csvText, sourceNote(dir)),
    `${entries.length} currencies, ${Object.keys(minorUnits).length} with minor units`,
  );
}
