/**
 * Types of archiver 8 (ESM-only; ships no declarations): the parts Fund Audit uses.
 * `new ZipArchive({ zlib: { level: 9 } })`, `append(source, {name})`, `finalize()`, `abort()`.
 */
declare module 'archiver' {
  import { Transform } from 'node:stream';

  export interface EntryData {
    /** Path inside the archive (forward slashes). */
    name: string;
    date?: Date | string;
    mode?: number;
    prefix?: string;
  }

  export interface ZipOptions {
    zlib?: { level?: number };
    comment?: string;
    forceLocalTime?: boolean;
    forceZip64?: boolean;
    store?: boolean;
  }

  export class Archiver extends Transform {
    /** Queues an entry: a buffer, a string or a readable stream (read when its turn comes). */
    append(source: Buffer | string | NodeJS.ReadableStream, data: EntryData): this;
    /** Ends the archive; resolves once everything is written. */
    finalize(): Promise<void>;
    abort(): this;
    /** Bytes written so far. */
    pointer(): number;
  }

  export class ZipArchive extends Archiver {
    constructor(options?: ZipOptions);
  }
}
