/**
 * Types of yauzl 3 (ships no declarations): the promise API Fund Audit uses to read zip files
 * (backups, xlsx packages).
 */
declare module 'yauzl' {
  import type { EventEmitter } from 'node:events';
  import type { Readable } from 'node:stream';

  export interface Options {
    /** Emit one `entry` per `readEntry()` call instead of all at once. */
    lazyEntries?: boolean;
    autoClose?: boolean;
    decodeStrings?: boolean;
    validateEntrySizes?: boolean;
    strictFileNames?: boolean;
  }

  /** A central directory record. */
  export class Entry {
    fileName: string;
    compressionMethod: number;
    compressedSize: number;
    uncompressedSize: number;
    relativeOffsetOfLocalHeader: number;
    generalPurposeBitFlag: number;
    crc32: number;
    isEncrypted(): boolean;
    isCompressed(): boolean;
    canDecodeFileData(): boolean;
    getLastModDate(): Date;
  }

  export class ZipFile extends EventEmitter {
    entryCount: number;
    isOpen: boolean;
    readEntry(): void;
    /** Async iteration over the entries (needs `lazyEntries: true`). */
    eachEntry(): AsyncIterable<Entry>;
    openReadStreamPromise(entry: Entry, options?: { decodeFileData?: boolean; start?: number; end?: number }): Promise<Readable>;
    readLocalFileHeaderPromise(entry: Entry, options: { minimal: true }): Promise<{ fileDataStart: number }>;
    /** (Its promise form is broken in 3.4.0: it calls `openReadStream` with these arguments.) */
    openReadStreamLowLevel(
      fileDataStart: number,
      compressedSize: number,
      relativeStart: number,
      relativeEnd: number,
      decompress: boolean,
      uncompressedSize: number,
      callback: (err: Error | null, stream: Readable) => void,
    ): void;
    close(): void;
  }

  export function openPromise(path: string, options?: Options): Promise<ZipFile>;
  export function fromBufferPromise(buffer: Buffer, options?: Options): Promise<ZipFile>;
}
