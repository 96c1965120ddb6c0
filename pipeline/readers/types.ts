/** The shapes every reader (delimited text, xlsx) hands to table.ts and the stages: rows and tables. */
import type { Cell } from './values.js';

/** One row of a table: its 1-based line in the file (or row in the sheet) and its cells. */
export interface RawRow {
  line: number;
  cells: Cell[];
}

/** A table read from a file or worksheet, header found, data rows below it. */
export interface RawTable {
  /** The file name, or `fileName#SheetName` for an xlsx worksheet. */
  file: string;
  sheetName: string | null;
  /** Detected text encoding (CSV), null for xlsx. */
  encoding: string | null;
  /** Detected delimiter (CSV), null for xlsx. */
  delimiter: string | null;
  /** 1-based line (row) of the header. */
  headerLine: number;
  /** Header cells as trimmed text (trailing empty cells dropped). */
  header: string[];
  /** Non-blank data rows below the header. */
  rows: RawRow[];
}
