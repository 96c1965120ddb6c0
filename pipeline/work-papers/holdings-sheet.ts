/**
 * The work paper's Holdings sheet: one row per position in file order, with its SDM values, the
 * file as delivered and its line, the mapping rows applied (the instrument mapping's source code
 * -> standard type, with the mapping's id and version, and the file layout's version), and the
 * independent price and FX rate price testing used for it, each with its date and source (a rate
 * older than the stale-rate limit says STALE RATE, a missing one NOT PERFORMED), the delivered rows
 * a consolidated position of an aggregate parent sums (each child's file and line) and the booked
 * audit adjustments that revalued it (adjustment and line). A totals row
 * gives the positions and market value that the Summary and the investments reconciliation show.
 * Past Excel's row limit the sheet continues on 'Holdings (2)', 'Holdings (3)', … (see
 * `continued-sheet.ts`). Streams: one row is written per holding, nothing per holding is kept (only the distinct mapping
 * texts and dates, made once each), and the writing waits for the zip to take the rows every few
 * hundred.
 */
import type { XlsxWorkbook } from './xlsx-stream.js';
import type { CheckContext } from '../checks/common.js';
import { Sum, round } from '../checks/common.js';
import { evidenceLookup, type EvidenceLookup } from '../checks/price-evidence.js';
import { chunksOf, type FundSdmData, type HoldingRow } from '../sdm/rows.js';
import type { MappingUsed } from './data-quality.js';
import { ContinuedSheet, EXCEL_MAX_ROWS } from './continued-sheet.js';
import { isoDate } from './sheet-writer.js';
import { adjustedByText, consolidatedFromText } from './lineage.js';

export const HOLDINGS_SHEET = 'Holdings';

/** Header rows at the top of each Holdings sheet. */
export const HOLDINGS_HEADER_ROWS = 1;

/** Rows written between two waits for the zip to take them (memory stays flat). */
const ROWS_PER_DRAIN = 500;

/** Distinct mapping texts and dates kept for reuse while the sheet is written. */
const MEMO_LIMIT = 10_000;

/** The header of the Holdings sheet (tests read columns by these names). */
export const HOLDINGS_COLUMNS = [
  'Security id',
  'Id type',
  'Name',
  'Instrument type (delivered)',
  'Standard instrument',
  'Quantity',
  'Price',
  'Price currency',
  'TPA FX rate',
  'Value local',
  'Value base',
  'Cost base',
  'Accrued income base',
  'Country',
  'As of',
  'File',
  'Line',
  'Mapping rows applied',
  'Independent price',
  'Price date',
  'Price source',
  'Independent FX rate',
  'Rate date',
  'Rate source',
  'FX rate status',
  'Consolidated from',
  'Adjusted by',
] as const;

const mappingName = (m: MappingUsed | undefined) => (m ? `${m.description} (id ${m.id}) v${m.version}` : null);

/** The mapping rows applied to a holding: its instrument code's row and the file layout. */
export function mappingApplied(h: HoldingRow, mappings: MappingUsed[] | undefined): string {
  const instrument = mappings?.find((m) => m.type === 'instrument_mapping');
  const layout = mappings?.find((m) => m.type === 'file_layout');
  const parts = [
    `instrument_mapping ${mappingName(instrument) ?? '(not recorded)'}: '${h.instrument_type}' -> ${h.standard_instrument ?? '(unmapped)'}`,
    layout && `file_layout ${mappingName(layout)}: holdings columns`,
  ];
  return parts.filter(Boolean).join('; ');
}

/** The FX rate status of a holding as the Holdings sheet shows it. */
function fxStatus(ev: ReturnType<EvidenceLookup['of']>, maxAgeDays: number): string {
  if (!ev.foreign) return 'fund currency';
  if (!ev.rate) return 'NOT PERFORMED: no independent rate on or before the period end';
  return ev.stale
    ? `STALE RATE: ${ev.rateAgeDays} days before the period end (limit ${maxAgeDays})`
    : `current: ${ev.rateAgeDays} day(s) before the period end`;
}

/**
 * Writes the Holdings sheet: past `maxRows` rows it continues on 'Holdings (2)', 'Holdings (3)',
 * … with the same header, positions in delivery order (`placeOf` gives a position's sheet and row).
 * @param checkContext the checks' context (period end, currency, independent rates, stale limit);
 *   without it, or when the fund has no external valuations, the evidence columns stay empty
 * @param maxRows rows a sheet holds, header included (default Excel's limit; a RangeError beyond it)
 * @returns the names of the sheets written, in order
 */
export async function holdingsSheet(
  wb: XlsxWorkbook,
  data: FundSdmData,
  currency: string,
  mappings: MappingUsed[] | undefined,
  checkContext: CheckContext | undefined,
  maxRows = EXCEL_MAX_ROWS,
): Promise<readonly string[]> {
  const s = new ContinuedSheet(
    wb,
    HOLDINGS_SHEET,
    [20, 10, 40, 18, 18, 16, 16, 10, 14, 18, 18, 18, 16, 10, 12, 44, 8, 70, 16, 12, 34, 14, 12, 50, 40, 60, 40],
    [
      null,
      null,
      null,
      null,
      null,
      'price',
      'price',
      null,
      'rate',
      'money',
      'money',
      'money',
      'money',
      null,
      null,
      null,
      'int',
      null,
      'price',
      null,
      null,
      'rate',
      null,
      null,
      null,
      null,
      null,
    ],
    [HOLDINGS_COLUMNS.map((c) => (c === 'Value base' ? `Value base (${currency})` : c))],
    maxRows,
  );
  const evidence = checkContext?.externalValuations ? await evidenceLookup(data, checkContext) : null;
  const total = new Sum();
  let positions = 0;
  // the same few texts and dates recur on most rows: each is made once
  const applied = new Map<string, string>();
  const mappingOf = (h: HoldingRow) => {
    const key = `${h.instrument_type}\u0000${h.standard_instrument ?? '\u0001'}`;
    let text = applied.get(key);
    if (text === undefined) {
      text = mappingApplied(h, mappings);
      if (applied.size < MEMO_LIMIT) applied.set(key, text);
    }
    return text;
  };
  const dates = new Map<string, Date | string | null>();
  const dateOf = (iso: string | null | undefined) => {
    if (!iso) return null;
    let d = dates.get(iso);
    if (d === undefined) {
      d = isoDate(iso);
      if (dates.size < MEMO_LIMIT) dates.set(iso, d);
    }
    return d;
  };
  for await (const chunk of chunksOf(data.holdings))
    for (const h of chunk) {
      if (++positions % ROWS_PER_DRAIN === 0) await s.drain();
      total.add(h.market_value_base);
      const ev = evidence?.of(h);
      s.row([
        h.security_id,
        h.id_type,
        h.security_name,
        h.instrument_type,
        h.standard_instrument ?? '(unmapped)',
        h.quantity,
        h.price,
        h.price_currency,
        h.fx_rate,
        h.market_value_local,
        h.market_value_base,
        h.cost_base,
        h.accrued_income_base,
        h.country,
        dateOf(h.as_of),
        h.file,
        h.line,
        mappingOf(h),
        ev?.price?.price ?? null,
        dateOf(ev?.price?.price_date),
        ev ? (ev.price?.price_source ?? 'no independent price') : null,
        ev?.rate?.units_per_base ?? null,
        dateOf(ev?.rate?.rate_date),
        ev?.rate?.source ?? null,
        ev && evidence ? fxStatus(ev, evidence.maxAgeDays) : null,
        consolidatedFromText(h),
        adjustedByText(h.adjustedBy),
      ]);
    }
  s.blank();
  s.row([`Total: ${positions} position(s)`, null, null, null, null, null, null, null, null, null, round(total.value)], true);
  s.commit();
  return s.sheets;
}
