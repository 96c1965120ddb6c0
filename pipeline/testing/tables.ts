/** Helpers of the table readers' tests: fixtures, reading a text or a workbook, editing a package. */
import { readFileSync } from 'node:fs';
import type ExcelJS from 'exceljs';
import { expect } from 'vitest';
import { IDENTIFICATION_LIMIT_BYTES, readTables, UnreadableFileError, type RawTable } from '../readers/table.js';
import { unzipAll, zipFiles } from './zips.js';

export const fixture = (path: string) => readFileSync(new URL(`../../fixtures/${path}`, import.meta.url));
export const KEYSTONE = 'tpas/keystone_admin/inputs/KEYSTONE_5493006TF05454RBY690_20221231.xlsx';
export const opts = { limitBytes: IDENTIFICATION_LIMIT_BYTES };
export const read = (name: string, text: string | Buffer) => readTables(name, typeof text === 'string' ? Buffer.from(text) : text, opts);
export const one = async (name: string, text: string | Buffer): Promise<RawTable> => {
  const tables = await read(name, text);
  expect(tables).toHaveLength(1);
  return tables[0];
};
export const xlsx = async (wb: ExcelJS.Workbook) => Buffer.from(await wb.xlsx.writeBuffer());
/** Rewrites parts of a package (for packages exceljs does not write). */
export async function edit(
  bytes: Buffer,
  change: (zip: Map<string, Buffer | string>, text: (name: string) => Promise<string>) => Promise<void>,
): Promise<Buffer> {
  const zip: Map<string, Buffer | string> = await unzipAll(bytes);
  await change(zip, async (name) => zip.get(name)!.toString());
  return zipFiles(zip);
}
/** The reason of the UnreadableFileError that reading the file rejects with. */
export async function unreadable(name: string, bytes: Buffer): Promise<string> {
  const error = await readTables(name, bytes, opts).then(
    () => null,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(UnreadableFileError);
  expect((error as UnreadableFileError).fileName).toBe(name);
  return (error as UnreadableFileError).reason;
}
