/**
 * Delimited text (CSV / TXT) read row by row for identification (DOMAIN.md 2.2), from decoded
 * text chunks (`decodeChunks`), so a file of any size is read in constant memory.
 *
 * - Text without any double quote is split at line breaks and at the delimiter: exactly the
 *   records csv-parse gives with `relax_column_count` and `skip_empty_lines`, about ten times
 *   faster.
 * - Other text goes through csv-parse's stream parser (ragged rows and stray quotes allowed);
 *   a quoted line break keeps the record on the line it starts on.
 * Rows are non-blank, with their 1-based physical line; empty cells are null.
 */
import { parse, CsvError } from 'csv-parse';
import type { RawRow } from './types.js';
import type { Cell } from './values.js';

/**
 * csv-parse's `record_delimiter` for text whose lines may end in CRLF, LF or CR, mixed in one file
 * (rows exported on Windows and rows added elsewhere). Left to itself csv-parse takes the first
 * line's ending for the whole file and glues the lines ending otherwise into one ragged row.
 */
export const ANY_LINE_ENDING = ['\r\n', '\n', '\r'];

/** The file cannot be read as a table: `reason` says why. */
export class UnreadableFileError extends Error {
  override name = 'UnreadableFileError';
  constructor(
    readonly fileName: string,
    readonly reason: string,
  ) {
    super(`${fileName} cannot be read: ${reason}`);
  }
}

/** Number of cells up to the last non-empty one. */
export function rowWidth(cells: Cell[]): number {
  for (let i = cells.length - 1; i >= 0; i--) {
    const c = cells[i];
    if (c !== null && !(typeof c === 'string' && c.trim() === '')) return i + 1;
  }
  return 0;
}

/**
 * The non-blank rows of delimited text.
 * @param text the decoded text in chunks, line breaks normalised to `\n`; called again (from the
 *   start) only to locate an unclosed quote for the error message
 * @param hasQuotes false when the text holds no `"` at all (the fast split is then exact)
 * @throws UnreadableFileError on malformed CSV (after the rows before the fault were given)
 */
export async function* delimitedRows(fileName: string, text: () => Iterable<string>, delimiter: string, hasQuotes: boolean): AsyncGenerator<RawRow> {
  for await (const batch of delimitedBatches(fileName, text, delimiter, hasQuotes)) yield* batch;
}

/**
 * The rows of `delimitedRows` in batches: the rows of each decoded chunk of quote-free text
 * together (a reader then pays one asynchronous step a chunk, not one a row), one row a batch
 * through csv-parse. Same arguments, rows and errors.
 */
export async function* delimitedBatches(fileName: string, text: () => Iterable<string>, delimiter: string, hasQuotes: boolean): AsyncGenerator<RawRow[]> {
  if (!hasQuotes) {
    yield* plainBatches(text(), delimiter);
    return;
  }
  const parser = parse({ delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, info: true });
  const feed = (async () => {
    try {
      for (const t of text()) {
        if (parser.destroyed) return;
        if (!parser.write(t)) await new Promise((resolve) => (parser.once('drain', resolve), parser.once('close', resolve)));
      }
      if (!parser.destroyed) parser.end();
    } catch (err) {
      parser.destroy(err as Error);
    }
  })();
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      let breaks = 0;
      let blank = true;
      const cells: Cell[] = new Array(record.length);
      for (let i = 0; i < record.length; i++) {
        const v = record[i];
        if (v.includes('\n')) breaks += v.split('\n').length - 1;
        if (v === '') cells[i] = null;
        else {
          cells[i] = v;
          if (blank && v.trim() !== '') blank = false;
        }
      }
      // csv-parse counts the line a record ends on; a quoted line break moves its start up
      if (!blank) yield [{ line: info.lines - breaks, cells }];
    }
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    const open = err.code === 'CSV_QUOTE_NOT_CLOSED' ? unclosedQuoteLine(text(), delimiter) : null;
    throw new UnreadableFileError(fileName, open ? `Quote Not Closed: the quoted field opened on line ${open} is never closed` : err.message);
  } finally {
    parser.destroy();
    await feed;
  }
}

/** Rows of quote-free text: one per non-blank line, split at the delimiter; the rows of each text chunk in one batch. */
function* plainBatches(text: Iterable<string>, delimiter: string): Generator<RawRow[]> {
  let carry = '';
  let line = 0;
  const row = (l: string): RawRow | null => {
    line++;
    if (l.trim() === '') return null;
    const cells: Cell[] = l.split(delimiter).map((v) => (v === '' ? null : v));
    return rowWidth(cells) > 0 ? { line, cells } : null;
  };
  for (const t of text) {
    const lines = (carry + t).split('\n');
    carry = lines.pop()!;
    const batch: RawRow[] = [];
    for (const l of lines) {
      const r = row(l);
      if (r) batch.push(r);
    }
    if (batch.length) yield batch;
  }
  if (carry) {
    const r = row(carry);
    if (r) yield [r];
  }
}

/** Line on which a quoted field opens that never closes (quotes open only at a field's start). */
export function unclosedQuoteLine(text: Iterable<string>, delimiter: string): number | null {
  let line = 1;
  let openedOn = 0;
  let fieldStart = true;
  // inside a quoted field, a quote was just seen: the next character tells `""` from the end
  let quoteSeen = false;
  for (const t of text) {
    for (let i = 0; i < t.length; i++) {
      const ch = t[i];
      if (openedOn) {
        if (quoteSeen) {
          quoteSeen = false;
          if (ch === '"') continue;
          openedOn = 0;
          fieldStart = false;
        } else {
          if (ch === '"') quoteSeen = true;
          else if (ch === '\n') line++;
          continue;
        }
      }
      if (ch === '"' && fieldStart) openedOn = line;
      else if (ch === '\n') line++;
      fieldStart = ch === delimiter || ch === '\n';
    }
  }
  return quoteSeen ? null : openedOn || null;
}
