/**
 * Reads the HTTP suites make of what no route serves as such, on either database of the test
 * context (through `storeOf`): a fund's current work paper as a workbook. Not used by the
 * application.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, desc, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { AppContext } from '../context.js';
import { storeOf } from '../db/dialect.js';

/**
 * The current work paper of a fund request, read back from the blob store.
 * @param fundRequestId the fund request's id
 * @returns the workbook
 * @throws Error naming the fund request when it has no work paper (or one without its file)
 */
export async function readWorkPaper(ctx: AppContext, fundRequestId: number): Promise<ExcelJS.Workbook> {
  const { db, tables: t } = storeOf(ctx);
  const [row] = await db
    .select({ blobKey: t.fundFiles.blobKey })
    .from(t.fundFiles)
    .where(and(eq(t.fundFiles.fundRequestId, fundRequestId), eq(t.fundFiles.kind, 'work_paper')))
    .orderBy(desc(t.fundFiles.id))
    .limit(1);
  if (!row?.blobKey) throw new Error(`Fund request ${fundRequestId} has no work paper`);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(ctx.blobs.get(row.blobKey) as unknown as ArrayBuffer);
  return wb;
}
