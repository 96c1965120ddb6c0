/**
 * TEST-ONLY helper: turns the TPA fixtures (`fixtures/tpas/<tpa>/inputs/*`) into typed SDM rows
 * for the check and work-paper tests, without the real standardization stage (written elsewhere).
 * It reads the TPA's `mappings/file_layout.csv` (header found as the first line holding every
 * layout column of one SDM type; numbers and dates parsed by the layout's separators and date
 * format) and maps codes with the TPA's master code mappings. Not for production use.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import type { CheckContext } from '../checks/common.js';
import { loadFxCsv } from '../checks/fx.js';
import { materiality, navFromTrialBalance } from '../checks/materiality.js';
import { STANDARD_ACCOUNTS } from '../sdm/model.js';
import type { FundSdmArrays, HoldingRow, PriceRow, ShareCapitalRow, TrialBalanceRow } from '../sdm/rows.js';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures');
export const tpaDir = (tpa: string) => join(FIXTURES, 'tpas', tpa);

/**
 * The work-paper header of the Goldman Sachs Bond Fund as requested in
 * fixtures/fund-requests/real-funds.csv (its N-PORT filing's period end; PM, TE and SAD in %).
 */
export const GS_FUND = {
  id: 7,
  name: 'Goldman Sachs Bond Fund',
  fundCode: 'S000013795',
  administrator: 'Meridian Fund Services',
  client: 'GOLDMAN SACHS TRUST',
  periodEnd: '2023-03-31',
  currency: 'USD',
  pm: 1,
  te: 0.75,
  sad: 0.05,
};

interface LayoutEntry {
  sdm_type: string;
  source_column: string;
  sdm_column: string;
  date_format: string;
  decimal_separator: string;
  thousands_separator: string;
}

const readCsv = (path: string) => parse(readFileSync(path, 'utf8'), { columns: true, skip_empty_lines: true }) as Record<string, string>[];

function layouts(tpa: string): Map<string, LayoutEntry[]> {
  const out = new Map<string, LayoutEntry[]>();
  for (const e of readCsv(join(tpaDir(tpa), 'mappings/file_layout.csv')) as unknown as LayoutEntry[]) out.set(e.sdm_type, [...(out.get(e.sdm_type) ?? []), e]);
  return out;
}

function codeMap(tpa: string, type: string): Map<string, string> {
  return new Map(readCsv(join(tpaDir(tpa), `mappings/${type}.csv`)).map((r) => [r.source_code, r.target_code]));
}

function value(raw: unknown, e: LayoutEntry): string | number | null {
  if (raw === null || raw === undefined || raw === '') return null;
  if (raw instanceof Date) return raw.toISOString().slice(0, 10);
  if (typeof raw === 'number') return raw;
  const t = String(raw).trim();
  if (e.decimal_separator) {
    let n = e.thousands_separator ? t.split(e.thousands_separator).join('') : t;
    if (e.decimal_separator === ',') n = n.replace(',', '.');
    const v = Number(n);
    if (!Number.isFinite(v)) throw new Error(`bad number "${t}" in ${e.source_column}`);
    return v;
  }
  if (e.date_format === 'DD/MM/YYYY') return `${t.slice(6, 10)}-${t.slice(3, 5)}-${t.slice(0, 2)}`;
  return t;
}

type Raw = { cells: unknown[]; line: number };

/** Appends one table's rows (typed, code-mapped) to `data`. */
function addTable(data: FundSdmArrays, tpa: string, file: string, sdmType: string, header: string[], entries: LayoutEntry[], rows: Raw[]) {
  const maps = {
    account: codeMap(tpa, 'account_mapping'),
    instrument: codeMap(tpa, 'instrument_mapping'),
    share: codeMap(tpa, 'share_capital_mapping'),
    transaction: codeMap(tpa, 'transaction_mapping'),
  };
  for (const { cells, line } of rows) {
    const r: Record<string, unknown> = { file, line };
    for (const col of [
      'account_name',
      'currency',
      'balance_local',
      'id_type',
      'price_currency',
      'fx_rate',
      'market_value_local',
      'cost_base',
      'accrued_income_base',
      'country',
      'amount_base',
      'nav_per_share',
      'price_type',
    ])
      r[col] = null;
    for (const e of entries) r[e.sdm_column] = value(cells[header.indexOf(e.source_column)], e);
    if (sdmType === 'trial_balance')
      data.trial_balance.push({
        ...r,
        account_code: String(r.account_code),
        standard_account: maps.account.get(String(r.account_code)) ?? null,
      } as TrialBalanceRow);
    else if (sdmType === 'holdings')
      data.holdings.push({
        ...r,
        security_id: String(r.security_id),
        standard_instrument: maps.instrument.get(String(r.instrument_type)) ?? null,
      } as HoldingRow);
    else if (sdmType === 'share_capital')
      data.share_capital.push({ ...r, standard_activity: maps.share.get(String(r.activity_type)) ?? null } as ShareCapitalRow);
    else if (sdmType === 'prices') data.prices.push({ ...r, security_id: String(r.security_id) } as PriceRow);
  }
}

const empty = (): FundSdmArrays => ({ trial_balance: [], holdings: [], transactions: [], share_capital: [], prices: [] });

/** SDM rows of a CSV TPA fixture (`meridian_fund_services` or `demo_test`): every input file. */
export function loadCsvTpa(tpa: string): FundSdmArrays {
  const lay = layouts(tpa);
  const delimiter = [...lay.values()].flat().some((e) => e.decimal_separator === ',') ? ';' : ',';
  const data = empty();
  for (const f of readdirSync(join(tpaDir(tpa), 'inputs'))
    .filter((n) => n.endsWith('.csv'))
    .sort()) {
    const recs = parse(readFileSync(join(tpaDir(tpa), 'inputs', f), 'utf8'), {
      delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
    }) as unknown as Array<{ record: string[]; info: { lines: number } }>;
    const at = recs.findIndex(({ record }) => [...lay.values()].some((es) => es.length === record.length && es.every((e) => record.includes(e.source_column))));
    if (at < 0) throw new Error(`${f}: no header matches a layout`);
    const header = recs[at].record;
    const [sdmType, entries] = [...lay].find(([, es]) => es.length === header.length && es.every((e) => header.includes(e.source_column)))!;
    addTable(
      data,
      tpa,
      f,
      sdmType,
      header,
      entries,
      recs.slice(at + 1).map((r) => ({ cells: r.record, line: r.info.lines })),
    );
  }
  return data;
}

/** SDM rows of the Keystone xlsx fixture (one sheet per SDM type, header in row 1; file = `name#sheet`). */
export async function loadKeystone(): Promise<FundSdmArrays> {
  const tpa = 'keystone_admin';
  const lay = layouts(tpa);
  const dir = join(tpaDir(tpa), 'inputs');
  const data = empty();
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.xlsx'))) {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(join(dir, f));
    wb.eachSheet((ws) => {
      const rows: Raw[] = [];
      ws.eachRow((row, n) => rows.push({ cells: (row.values as unknown[]).slice(1), line: n }));
      const header = rows[0].cells.map(String);
      const hit = [...lay].find(([, es]) => es.every((e) => header.includes(e.source_column)));
      if (!hit) throw new Error(`${f}#${ws.name}: no header matches a layout`);
      addTable(data, tpa, `${basename(f)}#${ws.name}`, hit[0], header, hit[1], rows.slice(1));
    });
  }
  return data;
}

/** The fixture's expected.json (first fund). */
export function expectedFund(tpa: string): Record<string, any> {
  return JSON.parse(readFileSync(join(tpaDir(tpa), 'expected.json'), 'utf8')).funds[0];
}

/** The ECB cross rates against USD of 2023-03-31 (fixtures/fx), the rates the GS fund's checks use. */
export const gsFx = loadFxCsv(join(FIXTURES, 'fx/ecb-usd-cross-rates-2023-03-31.csv'));

/**
 * The check context the calculations job builds for the GS fund (S000013795, USD) from its
 * delivered data: NAV from the trial balance, materiality PM 1% / TE 0.75% / SAD 0.05% of it
 * (the fixtures' fund requests), the ECB rates of `gsFx`, external valuations on; `over`
 * replaces any of it.
 */
export function gsCheckContext(data: FundSdmArrays, periodEnd: string, over: Partial<CheckContext> = {}): CheckContext {
  const nav = navFromTrialBalance(data.trial_balance, STANDARD_ACCOUNTS);
  return {
    fundCode: 'S000013795',
    periodEnd,
    currency: 'USD',
    nav,
    materiality: materiality({ nav, pm: 1, te: 0.75, sad: 0.05 }),
    fxRates: gsFx,
    externalValuations: true,
    accountClasses: STANDARD_ACCOUNTS,
    ...over,
  };
}
