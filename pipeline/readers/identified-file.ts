/**
 * The stored form of an identified input file (DOMAIN.md 2.2): the rows of one fund's part of a
 * delivered table, kept as a blob that standardization and exports read back row by row.
 *
 * Format (UTF-8, one JSON value a line): the first line is the table's description
 * `{"format":"rows-ndjson","file","sheetName","header","headerLine"}`, every further line one row
 * `[line, [cells...]]` (xlsx dates as ISO text). Written and read in chunks, so neither side holds
 * the file in memory. Files stored earlier as one JSON object `{file, sheetName, header,
 * headerLine, rows}` are still read.
 */
import { StringDecoder } from 'node:string_decoder';
import type { BlobAccess, BlobSink } from '../storage.js';
import type { RawRow, RawTable } from './types.js';

/** What an identified file says of the table it comes from. */
export type IdentifiedMeta = Pick<RawTable, 'file' | 'sheetName' | 'header' | 'headerLine'>;

const FORMAT = 'rows-ndjson';

/** Writes one identified file, row by row. */
export class IdentifiedFileWriter {
  private readonly out: BlobSink;
  /** Rows written so far. */
  rowCount = 0;

  constructor(blobs: BlobAccess, meta: IdentifiedMeta) {
    this.out = blobs.writer();
    this.out.write(`${JSON.stringify({ format: FORMAT, file: meta.file, sheetName: meta.sheetName, header: meta.header, headerLine: meta.headerLine })}\n`);
  }

  add(row: RawRow): void {
    this.out.write(`${JSON.stringify([row.line, row.cells])}\n`);
    this.rowCount++;
  }

  /** Stores the file; returns its blob key. */
  commit(): string {
    return this.out.commit().key;
  }

  /** Throws the file away (safe after commit). */
  discard(): void {
    this.out.discard();
  }
}

/** The lines of a blob, decoded as UTF-8 chunk by chunk. */
function* lines(blobs: BlobAccess, key: string): Generator<string> {
  const decoder = new StringDecoder('utf8');
  let carry = '';
  for (const chunk of blobs.chunks(key)) {
    const parts = (carry + decoder.write(chunk)).split('\n');
    carry = parts.pop()!;
    yield* parts;
  }
  carry += decoder.end();
  if (carry) yield carry;
}

/**
 * Opens an identified file: its description at once, its rows as they are read (once).
 * @throws Error when the blob is missing or not an identified file
 */
export function readIdentifiedFile(blobs: BlobAccess, key: string): { meta: IdentifiedMeta; rows: Iterable<RawRow> } {
  if (!blobs.has(key)) throw new Error(`The stored rows of this file (${key.slice(0, 12)}) are missing from the data directory`);
  const it = lines(blobs, key);
  const first = it.next();
  let head: (IdentifiedMeta & { format?: string; rows?: RawRow[] }) | null = null;
  try {
    head = first.done ? null : JSON.parse(first.value);
  } catch {
    head = null;
  }
  if (!head || typeof head !== 'object' || !Array.isArray(head.header)) {
    it.return(undefined);
    throw new Error(`Blob ${key.slice(0, 12)} is not an identified input file`);
  }
  const meta: IdentifiedMeta = { file: head.file, sheetName: head.sheetName ?? null, header: head.header, headerLine: head.headerLine };
  if (head.format !== FORMAT) {
    it.return(undefined);
    return { meta, rows: head.rows ?? [] };
  }
  return {
    meta,
    rows: (function* () {
      for (const l of it) {
        if (!l) continue;
        const [line, cells] = JSON.parse(l) as [number, RawRow['cells']];
        yield { line, cells };
      }
    })(),
  };
}
