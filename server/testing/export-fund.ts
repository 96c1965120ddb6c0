/**
 * Test data for exports: one fund with the files every stage leaves behind, inserted directly
 * (import file + raw bytes, identified input file, standardization file with SDM rows,
 * calculation results, a work paper workbook, a log line), and helpers reading a zip with the
 * system's `zipinfo` / `unzip`. Not used by the application.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { AppContext } from '../context.js';
import { storeOf } from '../db/dialect.js';
import { sdmRowWriter } from '../db/sdm-store.js';
import { transaction } from '../db/tx.js';
import { insertAdministrator, insertFund } from './fund-factory.js';

/** Raw bytes of the test holdings file (also the identified rows). */
export const RAW_HOLDINGS = 'Fund,Security,Name,Quantity\r\nF1,US0378331005,=SUM(A1),1200\r\n';

/** A tiny xlsx workbook. */
export async function tinyWorkbook(title = 'Summary'): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet(title).addRow(['Check', 'Status']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export interface SeededFund {
  id: number;
  code: string;
  prefix: string;
  workPaperId: number;
  rawSha: string;
}

/**
 * Inserts a fund with files of every stage.
 * @param opts.sdmRows standardized holdings rows to insert (default 3)
 */
export async function seedExportFund(
  ctx: AppContext,
  opts: { code?: string; dueDate?: string | null; sdmRows?: number; workPaper?: { disabled?: boolean; reviewed?: boolean } | null; logs?: boolean } = {},
): Promise<SeededFund> {
  const code = opts.code ?? 'LUX01';
  const administratorId = await insertAdministrator(ctx, 'tpa_exports', 'Exports TPA');
  const dueDate = opts.dueDate === undefined ? '2025-01-31' : opts.dueDate;
  const fund = await insertFund(ctx, { fundCode: code, dueDate, administratorId, name: `Fund ${code}`, client: 'Client, "Quoted"' });
  const { db, tables: t } = storeOf(ctx);
  const raw = ctx.blobs.put(RAW_HOLDINGS);
  const [imp] = await db
    .insert(t.importFiles)
    .values({ administratorId, fileName: 'holdings 2024.csv', sha256: raw.key, size: raw.size, status: 'Success' })
    .returning();
  const identified = ctx.blobs.put(
    JSON.stringify({
      file: 'holdings 2024.csv',
      sheetName: null,
      header: ['Fund', 'Security', 'Name', 'Quantity'],
      headerLine: 1,
      rows: [{ line: 2, cells: ['F1', 'US0378331005', '=SUM(A1)', '1200'] }],
    }),
  );
  const [input] = await db
    .insert(t.fundFiles)
    .values({
      fundRequestId: fund.id,
      importFileId: imp!.id,
      kind: 'input',
      fileType: 'holdings',
      fileName: 'holdings 2024.csv',
      blobKey: identified.key,
      status: 'assigned',
      rowCount: 1,
    })
    .returning();
  const [std] = await db
    .insert(t.fundFiles)
    .values({
      fundRequestId: fund.id,
      sourceFileId: input!.id,
      kind: 'standardization',
      fileType: 'holdings',
      fileName: 'holdings 2024.csv',
      status: 'done',
      validationStatus: 'Invalid',
      validation: {
        QA_Mapping: [{ name: 'XBOND', column: 'instrument_type', file: 'holdings 2024.csv', error: "No instrument_mapping for 'XBOND'", lines: [3] }],
        rowErrors: [{ file: 'holdings 2024.csv', line: 4, column: 'price', error: "'abc' is not a number" }],
      },
    })
    .returning();
  const n = opts.sdmRows ?? 3;
  const insert = sdmRowWriter(ctx, std!.id, 'holdings');
  await transaction(ctx, async () => {
    for (let i = 0; i < n; i++) {
      insert.add({
        file: 'holdings 2024.csv',
        line: i + 2,
        fund_code: code,
        as_of: '2024-12-31',
        security_id: `SEC${i}`,
        id_type: 'INTERNAL',
        security_name: i === 0 ? '=SUM(A1)' : `Security ${i}`,
        instrument_type: 'EQ',
        standard_instrument: 'EQUITY',
        quantity: 1200 + i,
        price: -1234567.5,
        price_currency: 'EUR',
        fx_rate: 1,
        market_value_local: null,
        market_value_base: 1234567.89,
        cost_base: null,
        accrued_income_base: null,
        country: 'LU',
      });
    }
    await insert.flush();
  });
  await db.insert(t.fundFiles).values({
    fundRequestId: fund.id,
    kind: 'calculation',
    fileType: 'calculations',
    fileName: 'calculations.json',
    status: 'done',
    validationStatus: 'Invalid',
    validation: {
      QA_Rec: [
        { check: 'tb_balance', name: 'Trial balance sums to zero', status: 'pass', diff: 0, threshold: 250, message: 'TB sums to 0' },
        { check: 'investments_reconciliation', name: 'Investments', status: 'fail', diff: 1234567.89, threshold: 3750, message: '+ holdings exceed TB' },
        {
          check: 'holdings_integrity',
          name: 'SEC1',
          status: 'warning',
          diff: -12.5,
          threshold: 250,
          message: 'Rounding',
          file: 'holdings 2024.csv',
          line: 3,
        },
      ],
      summary: { pass: 1, warning: 1, fail: 1 },
      status: 'fail',
    },
  });
  let workPaperId = 0;
  if (opts.workPaper !== null) {
    const wp = ctx.blobs.put(await tinyWorkbook(`WP ${code}`));
    const [row] = await db
      .insert(t.fundFiles)
      .values({
        fundRequestId: fund.id,
        kind: 'work_paper',
        fileType: 'work_papers',
        fileName: `fund_${code}_work_papers.xlsx`,
        blobKey: wp.key,
        status: 'done',
        disabled: opts.workPaper?.disabled ?? false,
        reviewed: opts.workPaper?.reviewed ?? true,
      })
      .returning({ id: t.fundFiles.id });
    workPaperId = row!.id;
  }
  if (opts.logs !== false)
    await db
      .insert(t.orchestrationLogs)
      .values({ fundRequestId: fund.id, stage: 'identification', status: 'success', payload: { message: '-identified 1 file' } });
  const prefix = `fund_${code}_dd_${dueDate ?? 'none'}`;
  return { id: fund.id, code, prefix, workPaperId, rawSha: raw.key };
}

/** Names of the entries of a zip file, in order (needs `zipinfo`). */
export function zipNames(file: string): string[] {
  return execFileSync('zipinfo', ['-1', file], { encoding: 'utf8' }).split('\n').filter(Boolean);
}

/** One entry's bytes (needs `unzip`). */
export function zipEntry(file: string, name: string): Buffer {
  return execFileSync('unzip', ['-p', file, name], { maxBuffer: 256 * 1024 * 1024 });
}

/** Writes bytes to a zip file in a directory and returns its path. */
export function saveZip(dir: string, bytes: Uint8Array, name = 'out.zip'): string {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  return file;
}
