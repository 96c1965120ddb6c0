/**
 * Where a work paper's figures come from: for each SDM type, the delivered files its rows came
 * from and the line range of each, so that a check item computed over many rows (a total, a
 * comparison) names its source files and lines in the Summary and Exceptions, as a one-row item
 * names its file and line.
 */
import { fmt, Sum } from '../checks/common.js';
import { chunksOf, type AdjustmentRef, type FundSdmData, type HoldingRow, type QaRec, type Rows } from '../sdm/rows.js';
import type { Cell } from './sheet-writer.js';

/** The rows one delivered file gave to one SDM type. */
export interface FileLines {
  file: string;
  first: number;
  last: number;
  rows: number;
}

/** Delivered files per SDM type (in the order first seen). */
export type SourceFiles = Record<keyof FundSdmData, FileLines[]>;

/** The SDM types each check reads, for the items that come from no single row. */
export const CHECK_SOURCES: Record<string, Array<keyof FundSdmData>> = {
  tb_balance: ['trial_balance'],
  investments_reconciliation: ['holdings', 'trial_balance'],
  nav: ['trial_balance', 'share_capital'],
  price_testing: ['holdings', 'prices'],
  capital_roll_forward: ['share_capital'],
  holdings_integrity: ['holdings'],
};

/** The key of a delivered row in `lineageOf`'s `locate` and `positions`: its file and line. */
export const rowKey = (file: string, line: number): string => `${file}\u0000${line}`;

/**
 * One pass over each SDM type: the files and line ranges of its rows, and on the way the total
 * base market value of the holdings (fund currency, unrounded) that the Summary shows.
 * @param locate keys (`rowKey`) of holdings to find: `positions` gives the 0-based place in
 *   delivery order of each one found (the Holdings sheet's order)
 */
export async function lineageOf(
  data: FundSdmData,
  locate?: ReadonlySet<string>,
): Promise<{ sources: SourceFiles; holdingsTotal: number; positions: Map<string, number> }> {
  const total = new Sum();
  const positions = new Map<string, number>();
  let position = 0;
  const eachHolding = locate?.size
    ? (h: HoldingRow) => {
        total.add(h.market_value_base);
        const key = rowKey(h.file, h.line);
        if (locate.has(key) && !positions.has(key)) positions.set(key, position);
        position++;
      }
    : (h: HoldingRow) => total.add(h.market_value_base);
  const of = async (rows: Rows<{ file: string; line: number }>, each?: (r: never) => void): Promise<FileLines[]> => {
    const byFile = new Map<string, FileLines>();
    for await (const chunk of chunksOf(rows))
      for (const r of chunk) {
        each?.(r as never);
        const f = byFile.get(r.file);
        if (!f) byFile.set(r.file, { file: r.file, first: r.line, last: r.line, rows: 1 });
        else {
          f.rows++;
          if (r.line < f.first) f.first = r.line;
          if (r.line > f.last) f.last = r.line;
        }
      }
    return [...byFile.values()];
  };
  const sources = {
    trial_balance: await of(data.trial_balance),
    holdings: await of(data.holdings, eachHolding),
    transactions: await of(data.transactions),
    share_capital: await of(data.share_capital),
    prices: await of(data.prices),
  };
  return { sources, holdingsTotal: total.value, positions };
}

/**
 * The File and Line cells of a check item: its own file and line when it comes from one row, else
 * the files of the SDM types its check reads with their line ranges (`a.csv; b.csv`, `5-60; 2-9`).
 */
export function itemSource(it: Pick<QaRec, 'check' | 'file' | 'line'>, sources: SourceFiles | undefined): [Cell, Cell] {
  if (it.file) return [it.file, it.line === undefined ? null : [it.line, 'int']];
  const files = (CHECK_SOURCES[it.check] ?? []).flatMap((t) => sources?.[t] ?? []);
  if (!files.length) return [null, null];
  return [files.map((f) => f.file).join('; '), files.map((f) => (f.first === f.last ? String(f.first) : `${f.first}-${f.last}`)).join('; ')];
}

/**
 * The booked audit adjustments that changed a row, as a work paper cell: `Adjustment #3 line 2
 * (1,000.00)` for each, joined with `; `; null for a row as delivered.
 */
export function adjustedByText(refs: readonly AdjustmentRef[] | undefined): string | null {
  if (!refs?.length) return null;
  return refs.map((r) => `Adjustment #${r.adjustment} line ${r.line} (${fmt(r.amount)})`).join('; ');
}

/**
 * The delivered rows a consolidated position of an aggregate parent is made of, as a work paper
 * cell: `<fund code> <file> line <n> (quantity <q>)` for each, joined with `; `; null otherwise.
 */
export function consolidatedFromText(h: Pick<HoldingRow, 'parts'>): string | null {
  if (!h.parts?.length) return null;
  return h.parts.map((p) => `${p.fund_code} ${p.file} line ${p.line} (quantity ${p.quantity})`).join('; ');
}

/**
 * The file and line of a check item as plain text, for csv exports: its own, or the files and line
 * ranges of the SDM types its check reads (as `itemSource`); nulls when neither is known.
 */
export function itemSourceText(it: Pick<QaRec, 'check' | 'file' | 'line'>, sources: SourceFiles | undefined): [string | null, string | number | null] {
  const [file, line] = itemSource(it, sources);
  const plain = Array.isArray(line) ? (line[0] as number) : (line as string | null);
  return [file === null ? null : String(file), plain ?? null];
}
