/**
 * The identification job (DOMAIN.md 2.2): reads an imported file as tables (sheets), finds each
 * table's SDM type by the TPA's file layouts, splits rows per fund code and matches each part to a
 * fund request by main or alternate code and period end. Matched parts become the fund's input
 * files; unidentified tables and unmatched parts are recorded for the Input files screen. Queues
 * standardization for every fund that received a file. The file is read as a stream and each
 * fund part written to its identified file as rows go by (`identified-file.ts`), so memory does
 * not grow with the file.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, eq, gt, inArray, ne, notInArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import { NotFoundError } from '../../errors.js';
import { recordFilesReceived } from '../../services/delivery-events/record.js';
import { setImportStatus } from '../../services/imports/imports.js';
import { administratorMappings } from '../../services/mappings/store.js';
import { IdentifiedFileWriter } from '../../../pipeline/readers/identified-file.js';
import { fileSource } from '../../../pipeline/readers/source.js';
import { streamTables, type TableStream } from '../../../pipeline/readers/table.js';
import {
  createFundSplitter,
  identifyTable,
  unidentifiedError,
  type FundPartSummary,
  type Identification,
  type UnidentifiedSheetError,
} from '../../../pipeline/stages/identify.js';
import type { SkippedSheet } from '../../../rules/files.js';
import { JobCancelled, type NextJob } from '../../../pipeline/engine.js';
import type { StageHandler } from '../../queue/queue.js';
import { logStage, nextTurn, ROWS_PER_TURN } from './common.js';

interface FundMatch {
  id: number;
  periodEnd: string | null;
}

/**
 * Finds the fund request of a TPA for a fund code (main or alternate, case-insensitive) and as-of
 * date: the live request whose period end equals the date, or with no date the newest open one.
 */
export async function matchFund(ctx: AppContext, administratorId: number, fundCode: string, asOf: string | null): Promise<FundMatch | null> {
  const { db, tables: t } = storeOf(ctx);
  const { fundCodes, fundRequests } = t;
  const rows = await db
    .select({ id: fundRequests.id, periodEnd: fundRequests.periodEnd, status: fundRequests.status })
    .from(fundCodes)
    .innerJoin(fundRequests, eq(fundCodes.fundRequestId, fundRequests.id))
    .where(
      and(
        eq(fundRequests.administratorId, administratorId),
        sql`lower(${fundCodes.code}) = lower(${fundCode})`,
        notInArray(fundRequests.status, ['Deleted', 'Declined']),
      ),
    );
  if (asOf) return rows.find((r) => r.periodEnd === asOf) ?? null;
  const open = rows.filter((r) => r.status === 'Pending' || r.status === 'Approved').sort((a, b) => String(b.periodEnd).localeCompare(String(a.periodEnd)));
  return open[0] ?? null;
}

/** An identified table, its rows sorted into fund parts, each part written to its own file. */
interface IdentifiedTable {
  table: Omit<TableStream, 'rows' | 'batches'>;
  sdmType: string;
  parts: Array<FundPartSummary & { writer: IdentifiedFileWriter }>;
}

/**
 * Reads an identified table's rows once, writing each to the identified file of its fund part
 * (memory stays flat whatever the table's size).
 */
async function splitTable(ctx: AppContext, table: TableStream, idf: Identification, signal: AbortSignal): Promise<IdentifiedTable['parts']> {
  const splitter = createFundSplitter(idf);
  const writers = new Map<string, IdentifiedFileWriter>();
  try {
    let n = 0;
    // rows come in batches (a CSV chunk's rows): one asynchronous step a batch, not one a row
    for await (const batch of table.batches) {
      for (const row of batch) {
        const code = splitter.add(row);
        let w = writers.get(code);
        if (!w) writers.set(code, (w = new IdentifiedFileWriter(ctx.blobs, table)));
        w.add(row);
        n++;
      }
      // the server answers between every few thousand rows; a cancel is noticed there
      if (n >= ROWS_PER_TURN) {
        n = 0;
        await nextTurn();
        if (signal.aborted) throw new JobCancelled();
      }
    }
  } catch (err) {
    for (const [, w] of writers) w.discard();
    throw err;
  }
  return splitter.parts().map((p) => ({ ...p, writer: writers.get(p.fundCode)! }));
}

export const identificationJob: StageHandler = async (ctx, job, signal) => {
  const importFileId = Number(job.payload?.importFileId);
  const { db, tables: t } = storeOf(ctx);
  const { fundFiles, importFiles, unidentifiedFiles, unmatchedFiles } = t;
  const [imp] = await db.select().from(importFiles).where(eq(importFiles.id, importFileId));
  if (!imp) throw new NotFoundError(`No such import file with id: ${importFileId}`);
  await setImportStatus(ctx, imp.id, 'Processing');
  const identified: IdentifiedTable[] = [];
  try {
    if (!imp.administratorId) throw new Error(`${imp.fileName}: the import has no administrator`);
    const { layouts } = await administratorMappings(ctx, imp.administratorId);
    if (!layouts.length) throw new Error(`${imp.fileName}: the TPA has no file layouts (upload its master mappings first)`);
    const errors: UnidentifiedSheetError[] = [];
    let tableCount = 0;
    for await (const table of streamTables(imp.fileName, fileSource(ctx.blobs.path(imp.sha256)), { limitBytes: ctx.config.identificationLimitBytes })) {
      tableCount++;
      const idf = identifyTable(table, layouts);
      if (!idf.sdmType) errors.push(unidentifiedError(table, idf));
      else {
        const { rows: _, batches: __, ...meta } = table;
        identified.push({ table: meta, sdmType: idf.sdmType, parts: await splitTable(ctx, table, idf, signal) });
      }
    }
    if (!identified.length) {
      await db
        .insert(unidentifiedFiles)
        .values({ importFileId: imp.id, fileName: imp.fileName, administratorId: imp.administratorId, userId: imp.userId, errors });
      await setImportStatus(ctx, imp.id, 'Error', { error: `${imp.fileName} could not be identified`, errors });
      await logStage(ctx, null, 'identification', 'error', { importFileId: imp.id, fileName: imp.fileName, errors });
      return { result: { identified: 0, unidentified: tableCount } };
    }

    // the workbook's other sheets (a 'Read Me', notes) are named with every input file taken from it
    const skippedSheets: SkippedSheet[] = errors.map((e) => ({ sheet: e.sheet_name, reason: e.error_message }));
    // funds named by the file's fund-code parts; parts without a code (prices) go to those funds
    const matched = new Map<string, FundMatch | null>();
    for (const { parts } of identified)
      for (const p of parts) if (p.fundCode) matched.set(`${p.fundCode}|${p.asOf}`, await matchFund(ctx, imp.administratorId, p.fundCode, p.asOf));
    const fundsOfFile = [
      ...new Set(
        Array.from(matched, ([, m]) => m)
          .filter((m): m is FundMatch => !!m)
          .map((m) => m.id),
      ),
    ];
    const attached: Array<{ fundRequestId: number; sdmType: string; rows: number }> = [];
    const unmatched: Array<{ fundCode: string; sdmType: string }> = [];
    const alreadyAttached: Array<{ fundRequestId: number; sdmType: string }> = [];
    const forcedFund = typeof imp.payload?.fundRequestId === 'number' ? (imp.payload.fundRequestId as number) : null;
    // a fund reset identifies the file again for its fund: that fund's parts are replaced, not skipped
    const resetFund = job.payload?.reset === true && job.fundRequestId ? job.fundRequestId : null;
    // the file's name names the fund of its parts without a fund code (read before the transaction)
    const byFileName = forcedFund || fundsOfFile.length ? [] : await fundFromFileName(ctx, imp.administratorId, imp.fileName);
    await transaction(ctx, async (tx) => {
      for (const { table, sdmType, parts } of identified) {
        for (const part of parts) {
          let targets: number[];
          if (!part.fundCode) targets = forcedFund ? [forcedFund] : fundsOfFile.length ? fundsOfFile : byFileName;
          else {
            const m = matched.get(`${part.fundCode}|${part.asOf}`);
            targets = m ? [m.id] : forcedFund ? [forcedFund] : [];
          }
          if (!targets.length) {
            await tx.insert(unmatchedFiles).values({
              importFileId: imp.id,
              fileName: table.file,
              fileType: sdmType,
              fundCode: part.fundCode || null,
              administratorId: imp.administratorId,
              userId: imp.userId,
              payload: {
                asOf: part.asOf,
                rows: part.rowCount,
                reason: part.fundCode
                  ? `No fund request of this TPA has fund code ${part.fundCode}${part.asOf ? ` and period end ${part.asOf}` : ''}`
                  : 'The file has no fund code and no fund could be inferred',
              },
            });
            unmatched.push({ fundCode: part.fundCode, sdmType });
            continue;
          }
          const existing = async (fundRequestId: number) =>
            (
              await tx
                .select({ id: fundFiles.id })
                .from(fundFiles)
                .where(
                  and(
                    eq(fundFiles.fundRequestId, fundRequestId),
                    eq(fundFiles.importFileId, imp.id),
                    eq(fundFiles.kind, 'input'),
                    eq(fundFiles.fileType, sdmType),
                    eq(fundFiles.fileName, table.file),
                  ),
                )
                .limit(1)
            )[0];
          const again = resetFund !== null && targets.includes(resetFund) ? await existing(resetFund) : undefined;
          const targetsLeft: number[] = [];
          for (const fundRequestId of targets) {
            if (!(await existing(fundRequestId))) targetsLeft.push(fundRequestId);
            // attached by an earlier run of this job that stopped before it completed (a killed
            // process): attached all the same, so the import succeeds and the fund's standardization follows
            else if (fundRequestId !== resetFund) attached.push({ fundRequestId, sdmType, rows: part.rowCount });
          }
          if (!targetsLeft.length && !again) continue;
          // stored once the part is attached: a part no fund takes is thrown away below
          const blobKey = part.writer.commit();
          // the same rows delivered again in another file (e.g. one that waited for its fund
          // request, then came in again): a fund that already has them as an input of this type
          // gets no second copy, which would wait 'Pending' next to the processed one forever
          const fresh: number[] = [];
          for (const fundRequestId of targetsLeft) {
            const [copy] = await tx
              .select({ id: fundFiles.id })
              .from(fundFiles)
              .where(
                and(eq(fundFiles.fundRequestId, fundRequestId), eq(fundFiles.kind, 'input'), eq(fundFiles.fileType, sdmType), eq(fundFiles.blobKey, blobKey)),
              )
              .limit(1);
            if (!copy) fresh.push(fundRequestId);
          }
          for (const fundRequestId of targetsLeft) if (!fresh.includes(fundRequestId)) alreadyAttached.push({ fundRequestId, sdmType });
          if (again) {
            // only the fund's newest delivery of the type is standardized: an older one keeps its status
            const [superseded] = await tx
              .select({ id: fundFiles.id })
              .from(fundFiles)
              .where(and(eq(fundFiles.fundRequestId, resetFund!), eq(fundFiles.kind, 'input'), eq(fundFiles.fileType, sdmType), gt(fundFiles.id, again.id)))
              .limit(1);
            await tx
              .update(fundFiles)
              .set({
                blobKey,
                rowCount: part.rowCount,
                updatedAt: new Date().toISOString(),
                ...(superseded ? {} : { status: 'pending' }),
                ...(skippedSheets.length ? { validation: { skippedSheets } } : {}),
              })
              .where(eq(fundFiles.id, again.id));
            attached.push({ fundRequestId: resetFund!, sdmType, rows: part.rowCount });
          }
          for (const fundRequestId of fresh) {
            const [file] = await tx
              .insert(fundFiles)
              .values({
                fundRequestId,
                importFileId: imp.id,
                kind: 'input',
                fileType: sdmType,
                fileName: table.file,
                blobKey,
                status: 'pending',
                rowCount: part.rowCount,
                ...(skippedSheets.length ? { validation: { skippedSheets } } : {}),
              })
              .returning({ id: fundFiles.id });
            // a delivery of the fund, dated now (what its scorecard counts)
            await recordFilesReceived(ctx, [{ fundRequestId, fundFileId: file!.id, fileType: sdmType, fileName: table.file, importFileId: imp.id }]);
            attached.push({ fundRequestId, sdmType, rows: part.rowCount });
          }
        }
      }
    });
    const result = {
      identified: identified.map((i) => ({ file: i.table.file, sdmType: i.sdmType })),
      unidentifiedSheets: errors,
      ...(skippedSheets.length ? { skippedSheets } : {}),
      attached,
      unmatched,
      ...(alreadyAttached.length
        ? {
            alreadyAttached,
            warning: `The same rows were already delivered to fund request(s) ${[...new Set(alreadyAttached.map((a) => a.fundRequestId))].join(', ')} in another file; they were not attached again.`,
          }
        : {}),
    };
    const ok = attached.length > 0 || alreadyAttached.length > 0;
    await setImportStatus(
      ctx,
      imp.id,
      ok ? 'Success' : 'Error',
      {
        ...result,
        ...(ok ? {} : { error: `${imp.fileName}: no fund request matches (${unmatched.map((u) => u.fundCode || 'no fund code').join(', ')})` }),
      },
      {
        type: [...new Set(identified.map((i) => i.sdmType))].join(', '),
        subType:
          identified
            .map((i) => i.table.sheetName)
            .filter(Boolean)
            .join(', ') || null,
      },
    );
    for (const fundId of new Set(attached.map((a) => a.fundRequestId)))
      await logStage(ctx, fundId, 'identification', 'success', {
        importFileId: imp.id,
        fileName: imp.fileName,
        files: attached.filter((a) => a.fundRequestId === fundId),
      });
    for (const a of attached)
      ctx.events.publish('file', { id: imp.id, fundRequestId: a.fundRequestId, kind: 'input', status: 'pending', fileName: imp.fileName });
    const next: NextJob[] = [...new Set(attached.map((a) => a.fundRequestId))].map((fundRequestId) => ({ stage: 'standardization', fundRequestId }));
    return { result, next };
  } catch (err) {
    if (err instanceof JobCancelled) throw err;
    await setImportStatus(ctx, imp.id, 'Error', { error: (err as Error).message });
    await logStage(ctx, null, 'identification', 'error', { importFileId: imp.id, fileName: imp.fileName, error: (err as Error).message });
    throw err;
  } finally {
    for (const { parts } of identified) for (const p of parts) p.writer.discard();
  }
};

/** A fund whose main or alternate code appears in the file name (prices files carry no fund code column). */
async function fundFromFileName(ctx: AppContext, administratorId: number, fileName: string): Promise<number[]> {
  const { db, tables: t } = storeOf(ctx);
  const { fundCodes, fundRequests } = t;
  const codes = await db
    .select({ id: fundRequests.id, code: fundCodes.code })
    .from(fundCodes)
    .innerJoin(fundRequests, eq(fundCodes.fundRequestId, fundRequests.id))
    .where(and(eq(fundRequests.administratorId, administratorId), inArray(fundRequests.status, ['Pending', 'Approved']), ne(fundCodes.code, '')));
  const upper = fileName.toUpperCase();
  return [...new Set(codes.filter((c) => upper.includes(c.code.toUpperCase())).map((c) => c.id))];
}
