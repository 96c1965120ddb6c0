/**
 * Where the positions land when the Holdings sheet continues past the row limit ('Holdings',
 * 'Holdings (2)', …): which positions each sheet holds, named in the Summary, and the sheet and
 * row of each check item that comes from one position, given in the Summary's and Exceptions'
 * 'Holdings row' column. While the Holdings sheet fits one sheet nothing changes: no column, and
 * the Summary names the sheet Holdings as ever.
 */
import { CHECK_SOURCES, rowKey } from './lineage.js';
import { placeOf, sheetsFor } from './continued-sheet.js';
import { HOLDINGS_HEADER_ROWS, HOLDINGS_SHEET } from './holdings-sheet.js';
import type { QaRec } from '../sdm/rows.js';
import type { Cell } from './sheet-writer.js';

/** Rows after the positions on the Holdings sheet: a blank row and the totals row. */
const TRAILING_ROWS = 2;

/** The header of the column that gives an item's Holdings sheet and row. */
export const HOLDINGS_ROW_COLUMN = 'Holdings row';

/** The Holdings sheets' layout for one work paper (see the module's description). */
export interface HoldingsLayout {
  /** Whether the Holdings sheet continues on further sheets. */
  readonly continued: boolean;
  /** The file-and-line keys (`rowKey`) of the positions the check items come from, when continued. */
  readonly wanted: ReadonlySet<string> | undefined;
  /** Records the delivery-order place of the wanted positions (from `lineageOf`). */
  found(positions: ReadonlyMap<string, number>): void;
  /** The Holdings sheets with the positions on each, e.g. `Holdings (positions 1-9), Holdings (2) (positions 10-18 and the total)`. */
  describe(): string;
  /** Header cells to append to a table of check items: the 'Holdings row' column, when continued. */
  readonly header: string[];
  /** The 'Holdings row' cell of an item (`Holdings (2), row 7`; empty when it comes from no position), when continued. */
  cells(it: Pick<QaRec, 'check' | 'file' | 'line'>): Cell[];
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * The layout of `positions` positions at `maxRows` rows a sheet (header included).
 * @param items the check items whose positions are to be found
 */
export function holdingsLayout(positions: number, maxRows: number, items: ReadonlyArray<Pick<QaRec, 'check' | 'file' | 'line'>>): HoldingsLayout {
  const perSheet = maxRows - HOLDINGS_HEADER_ROWS;
  const continued = positions + TRAILING_ROWS > perSheet;
  const keyOf = (it: Pick<QaRec, 'check' | 'file' | 'line'>) =>
    it.file && typeof it.line === 'number' && CHECK_SOURCES[it.check]?.includes('holdings') ? rowKey(it.file, it.line) : null;
  const wanted = continued ? new Set(items.map(keyOf).filter((k): k is string => k !== null)) : undefined;
  let places: ReadonlyMap<string, number> = new Map();
  return {
    continued,
    wanted,
    found(p) {
      places = p;
    },
    describe() {
      return sheetsFor(HOLDINGS_SHEET, positions + TRAILING_ROWS, HOLDINGS_HEADER_ROWS, maxRows)
        .map((name, i) => {
          const first = i * perSheet + 1;
          const last = Math.min(positions, (i + 1) * perSheet);
          const total = positions + TRAILING_ROWS <= (i + 1) * perSheet ? ' and the total' : '';
          return first > positions ? `${name} (the total)` : `${name} (positions ${count(first)}-${count(last)}${total})`;
        })
        .join(', ');
    },
    header: continued ? [HOLDINGS_ROW_COLUMN] : [],
    cells(it) {
      if (!continued) return [];
      const key = keyOf(it);
      const at = key === null ? undefined : places.get(key);
      if (at === undefined) return [null];
      const place = placeOf(HOLDINGS_SHEET, at, HOLDINGS_HEADER_ROWS, maxRows);
      return [`${place.sheet}, row ${place.row}`];
    },
  };
}
