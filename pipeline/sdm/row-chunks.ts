/**
 * The stored form of standardized SDM rows: chunks of consecutive rows of one delivered file,
 * each chunk one JSON document `{"file": name, "columns": [...], "rows": [[...], ...]}` whose rows
 * are arrays of values in `columns` order (the row's `file` is the chunk's). Against one JSON
 * object a row, a chunk spells each column name once instead of on every row, and is read and
 * written in one step instead of one a row (docs/decisions/0014-sdm-rows-in-chunks.md).
 */

/** Rows a chunk holds at most (~200 KB of JSON for a holdings chunk). */
export const ROWS_PER_CHUNK = 1000;

/** One encoded chunk: its line range, row count and JSON text. */
export interface EncodedChunk {
  firstLine: number;
  lastLine: number;
  rowCount: number;
  data: string;
}

/** An SDM row as the standardization stage makes it: `file`, `line` and the SDM columns. */
export type StoredRow = { file: string; line: number } & Record<string, unknown>;

interface ChunkJson {
  file: string;
  columns: string[];
  rows: unknown[][];
}

/**
 * Collects rows into chunks. A chunk closes when it holds `ROWS_PER_CHUNK` rows, or when a row
 * comes from another file or has other columns (in another order) than the rows before it.
 */
export class ChunkEncoder {
  private file = '';
  private columns: string[] = [];
  private rows: unknown[][] = [];
  private firstLine = 0;
  private lastLine = 0;

  /**
   * @param rowsPerChunk rows a chunk holds at most
   * @param oneShape the rows' columns are known to come in the same order on every row of a file
   *   (a standardizer's rows): they are then not compared row by row
   */
  constructor(
    private readonly rowsPerChunk = ROWS_PER_CHUNK,
    private readonly oneShape = false,
  ) {}

  /** Adds a row; returns the chunk it closed, if any (the row then opens the next one). */
  add(row: StoredRow): EncodedChunk | null {
    let closed: EncodedChunk | null = null;
    if (this.rows.length && (this.rows.length >= this.rowsPerChunk || row.file !== this.file || (!this.oneShape && !this.sameColumns(row))))
      closed = this.flush();
    if (!this.rows.length) {
      this.file = row.file;
      this.columns = Object.keys(row).filter((k) => k !== 'file');
      this.firstLine = row.line;
    }
    const cols = this.columns;
    const values = new Array<unknown>(cols.length);
    for (let i = 0; i < cols.length; i++) values[i] = row[cols[i]] ?? null;
    this.rows.push(values);
    this.lastLine = row.line;
    return closed;
  }

  /** Closes the open chunk; null when no row waits. */
  flush(): EncodedChunk | null {
    if (!this.rows.length) return null;
    const json: ChunkJson = { file: this.file, columns: this.columns, rows: this.rows };
    const chunk = { firstLine: this.firstLine, lastLine: this.lastLine, rowCount: this.rows.length, data: JSON.stringify(json) };
    this.rows = [];
    return chunk;
  }

  private sameColumns(row: StoredRow): boolean {
    const cols = this.columns;
    let i = 0;
    for (const k in row) {
      if (k === 'file') continue;
      if (cols[i++] !== k) return false;
    }
    return i === cols.length;
  }
}

type RowMaker = (file: string, values: unknown[]) => StoredRow;
const makers = new Map<string, RowMaker>();

/** A function building a row object from a chunk's values (one object shape per column list). */
function makerFor(columns: string[]): RowMaker {
  const key = columns.join('\u0000');
  let make = makers.get(key);
  if (!make) {
    const fields = columns.map((c, i) => `${JSON.stringify(c)}: v[${i}]`);
    make = new Function('file', 'v', `return { file, ${fields.join(', ')} };`) as RowMaker;
    if (makers.size > 256) makers.clear();
    makers.set(key, make);
  }
  return make;
}

/**
 * The rows of a chunk, as objects with `file` first and the columns in stored order.
 * @param data a chunk's JSON text (as `ChunkEncoder` made it)
 * @throws SyntaxError when the text is not JSON; Error when it is not a chunk
 */
export function decodeChunk<T = StoredRow>(data: string): T[] {
  const json = JSON.parse(data) as ChunkJson;
  if (!json || !Array.isArray(json.columns) || !Array.isArray(json.rows)) throw new Error('Stored SDM rows are not a row chunk');
  const make = makerFor(json.columns);
  const out = new Array<T>(json.rows.length);
  for (let i = 0; i < json.rows.length; i++) out[i] = make(json.file, json.rows[i]) as T;
  return out;
}
