/**
 * Test-only: reads a TPA's delivered files the way its documented layout describes them, without
 * the product's readers or standardization: the TPA's `file_layout.csv` names each source column's
 * SDM column, date format and number separators; CSV reports are split on `;` (decimal comma) or
 * `,`, their title lines skipped until the header; an xlsx delivery has one sheet per SDM type with
 * the header in row 1 and native numbers and dates. Codes are mapped with the TPA's master mapping
 * CSVs. Every row keeps the file name as delivered (`file.xlsx#Sheet` for a workbook sheet) and its
 * 1-based line (row) number, as the work paper names them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';

export type Value = string | number | null;

/** One delivered row turned into SDM columns, with its file and line. */
export interface DeliveredRow {
  file: string;
  line: number;
  v: Record<string, Value>;
}

/** A fund's delivered rows per SDM type. */
export interface Delivered {
  trial_balance: DeliveredRow[];
  holdings: DeliveredRow[];
  prices: DeliveredRow[];
  share_capital: DeliveredRow[];
}

interface LayoutEntry {
  sdm_type: string;
  source_column: string;
  sdm_column: string;
  date_format: string;
  decimal_separator: string;
  thousands_separator: string;
}

const csvObjects = (path: string) => parse(readFileSync(path, 'utf8'), { columns: true, skip_empty_lines: true }) as Record<string, string>[];

/** The TPA's master mapping of one type: source code -> target code. */
export function codeMapping(tpaDir: string, type: string): Map<string, string> {
  return new Map(csvObjects(join(tpaDir, 'mappings', `${type}.csv`)).map((r) => [r.source_code, r.target_code]));
}

function layouts(tpaDir: string): Map<string, LayoutEntry[]> {
  const out = new Map<string, LayoutEntry[]>();
  for (const r of csvObjects(join(tpaDir, 'mappings', 'file_layout.csv')) as unknown as LayoutEntry[]) out.set(r.sdm_type, [...(out.get(r.sdm_type) ?? []), r]);
  return out;
}

function textValue(raw: string, e: LayoutEntry): Value {
  const t = raw.trim();
  if (t === '') return null;
  if (e.decimal_separator) {
    let n = e.thousands_separator ? t.split(e.thousands_separator).join('') : t;
    if (e.decimal_separator !== '.') n = n.replace(e.decimal_separator, '.');
    const x = Number(n);
    if (!Number.isFinite(x)) throw new Error(`not a number: '${raw}' (${e.source_column})`);
    return x;
  }
  if (e.date_format === 'DD/MM/YYYY' || e.date_format === 'DD.MM.YYYY') {
    const m = /^(\d{2})[/.](\d{2})[/.](\d{4})$/.exec(t);
    if (!m) throw new Error(`not a ${e.date_format} date: '${raw}'`);
    return `${m[3]}-${m[2]}-${m[1]}`;
  }
  return t;
}

function cellValue(raw: unknown, e: LayoutEntry): Value {
  if (raw === null || raw === undefined || raw === '') return null;
  if (raw instanceof Date) return raw.toISOString().slice(0, 10);
  if (typeof raw === 'number') return raw;
  return textValue(String(raw), e);
}

const matches = (header: string[], entries: LayoutEntry[]) => entries.every((e) => header.includes(e.source_column));

/** Reads a CSV report: the first line whose cells hold every column of a layout is its header. */
function readCsv(path: string, name: string, all: Map<string, LayoutEntry[]>, delimiter: string): [string, DeliveredRow[]] {
  const lines = readFileSync(path, 'utf8').split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const header = lines[i].split(delimiter);
    const hit = [...all].find(([, entries]) => matches(header, entries));
    if (!hit) continue;
    const [type, entries] = hit;
    const rows: DeliveredRow[] = [];
    for (let j = i + 1; j < lines.length; j++) {
      if (!lines[j].trim()) continue;
      const cells = lines[j].split(delimiter);
      const v: Record<string, Value> = {};
      for (const e of entries) v[e.sdm_column] = textValue(cells[header.indexOf(e.source_column)] ?? '', e);
      rows.push({ file: name, line: j + 1, v });
    }
    return [type, rows];
  }
  throw new Error(`${name}: no line matches a layout's header`);
}

/** Reads a workbook: one SDM type per sheet, header in row 1. */
async function readXlsx(path: string, name: string, all: Map<string, LayoutEntry[]>): Promise<Array<[string, DeliveredRow[]]>> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  return wb.worksheets.map((ws) => {
    const header = (ws.getRow(1).values as unknown[]).map((c) => (c === undefined || c === null ? '' : String(c)));
    const hit = [...all].find(([, entries]) => matches(header, entries));
    if (!hit) throw new Error(`${name} sheet ${ws.name}: no layout matches its header`);
    const [type, entries] = hit;
    const rows: DeliveredRow[] = [];
    ws.eachRow((row, n) => {
      if (n === 1) return;
      const cells = row.values as unknown[];
      const v: Record<string, Value> = {};
      for (const e of entries) v[e.sdm_column] = cellValue(cells[header.indexOf(e.source_column)], e);
      rows.push({ file: `${name}#${ws.name}`, line: n, v });
    });
    return [type, rows] as [string, DeliveredRow[]];
  });
}

/**
 * Reads delivered files (paths) of a TPA fixture into rows per SDM type and maps their codes with
 * the TPA's master mappings: `standard_account` (account mapping), `standard_instrument`
 * (instrument mapping), `standard_activity` (share capital mapping), null when the code is not in
 * the mapping. `added` adds rows (source code -> target) to a mapping, as a changed mapping does.
 */
export async function readDelivered(tpaDir: string, files: string[], added: { instrument_mapping?: Record<string, string> } = {}): Promise<Delivered> {
  const all = layouts(tpaDir);
  const decimalComma = [...all.values()].flat().some((e) => e.decimal_separator === ',');
  const out: Delivered = { trial_balance: [], holdings: [], prices: [], share_capital: [] };
  for (const path of files) {
    const name = path.split('/').pop() as string;
    const tables = path.endsWith('.xlsx') ? await readXlsx(path, name, all) : [readCsv(path, name, all, decimalComma ? ';' : ',')];
    for (const [type, rows] of tables) out[type as keyof Delivered].push(...rows);
  }
  const accounts = codeMapping(tpaDir, 'account_mapping');
  const instruments = new Map([...codeMapping(tpaDir, 'instrument_mapping'), ...Object.entries(added.instrument_mapping ?? {})]);
  const activities = codeMapping(tpaDir, 'share_capital_mapping');
  for (const r of out.trial_balance) r.v.standard_account = accounts.get(String(r.v.account_code)) ?? null;
  for (const r of out.holdings) r.v.standard_instrument = instruments.get(String(r.v.instrument_type)) ?? null;
  for (const r of out.share_capital) r.v.standard_activity = activities.get(String(r.v.activity_type)) ?? null;
  return out;
}

/** An independent FX rate: units of a currency per USD on a date, with the ECB figures it comes from. */
export interface IndependentRate {
  currency: string;
  date: string;
  unitsPerUsd: number;
  source: string;
}

/**
 * The independent rate of each currency per USD on or before `periodEnd`, from the ECB history
 * shipped with the product, read here on its own: for each currency the latest date on or before
 * `periodEnd` (and on or before `upTo`, to read the history as if it ended then) on which the ECB
 * gives both it and USD; units per USD = (units per EUR) / (USD per EUR); EUR = 1 / (USD per EUR).
 */
export function independentRates(ecbPath: string, periodEnd: string, upTo = periodEnd): Map<string, IndependentRate> {
  const file = ecbPath.split('/').pop() as string;
  const [head, ...rows] = readFileSync(ecbPath, 'utf8').trim().split('\n');
  const header = head.split(',');
  const out = new Map<string, IndependentRate>();
  const last = periodEnd < upTo ? periodEnd : upTo;
  for (const row of rows) {
    const cells = row.split(',');
    const date = cells[0];
    if (date > last) continue;
    const usd = cells[header.indexOf('USD')];
    if (!usd || usd === 'N/A') continue;
    const put = (r: IndependentRate) => {
      const prev = out.get(r.currency);
      if (!prev || r.date > prev.date) out.set(r.currency, r);
    };
    put({ currency: 'EUR', date, unitsPerUsd: 1 / Number(usd), source: `${file} ECB ${date}: ${usd} USD per EUR (inverted)` });
    header.forEach((ccy, i) => {
      const raw = cells[i];
      if (i === 0 || !ccy || ccy === 'USD' || !raw || raw === 'N/A') return;
      put({ currency: ccy, date, unitsPerUsd: Number(raw) / Number(usd), source: `${file} ECB ${date}: ${raw} ${ccy} per EUR / ${usd} USD per EUR` });
    });
  }
  return out;
}
