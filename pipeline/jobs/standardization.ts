/**
 * The standardization job (DOMAIN.md 2.3): turns each current input file of a fund into SDM rows
 * through the fund's effective layouts and code mappings, records QA_Mapping entries and row
 * errors, and sets `validation_status` Valid / Invalid. The new standardization file and its rows
 * replace the previous ones in one transaction. Queues calculations.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { insertRow } from '../../server/db/insert.js';
import { fundFiles, sdmRows } from '../../server/db/schema/index.js';
import { effectiveMappings } from '../../server/services/mappings/store.js';
import type { RawTable } from '../readers/table.js';
import { standardizeTable } from '../stages/standardize.js';
import type { SdmType } from '../sdm/model.js';
import type { StageHandler } from '../engine.js';
import { JobCancelled } from '../engine.js';
import { currentInputs, logStage, publishFile } from './common.js';

/** Most row errors kept per file (the count is always exact). */
const MAX_ROW_ERRORS = 500;

export const standardizationJob: StageHandler = async (ctx, job, signal) => {
  const fundRequestId = job.fundRequestId!;
  const inputs = currentInputs(ctx, fundRequestId);
  const mappings = effectiveMappings(ctx, fundRequestId);
  const results: Array<{ file: string; sdmType: string; rows: number; validationStatus: string; qaMapping: number; rowErrors: number }> = [];
  for (const input of inputs) {
    if (signal.aborted) throw new JobCancelled();
    ctx.db.update(fundFiles).set({ status: 'processing' }).where(eq(fundFiles.id, input.id)).run();
    const table = JSON.parse(ctx.blobs.get(input.blobKey!).toString('utf8')) as RawTable;
    const sdmType = input.fileType as SdmType;
    const layout = mappings.layouts.find((l) => l.sdmType === sdmType);
    const out = layout
      ? standardizeTable({ table, layout, sdmType, codeMaps: mappings.codeMaps })
      : { rows: [], errors: [{ file: input.fileName, line: table.headerLine, column: '', error: `The TPA has no file layout for ${sdmType}` }], qaMapping: [], validationStatus: 'Invalid' as const };
    const validation = {
      QA_Mapping: out.qaMapping,
      rowErrors: out.errors.slice(0, MAX_ROW_ERRORS),
      rowErrorsTotal: out.errors.length,
      mappingsUsed: mappings.used,
      validation_status_detail: { cy: out.validationStatus, py: null },
    };
    ctx.db.transaction((tx) => {
      const old = tx.select({ id: fundFiles.id }).from(fundFiles).where(and(eq(fundFiles.kind, 'standardization'), eq(fundFiles.sourceFileId, input.id))).all();
      if (old.length) {
        tx.delete(sdmRows).where(inArray(sdmRows.fundFileId, old.map((o) => o.id))).run();
        tx.delete(fundFiles).where(inArray(fundFiles.id, old.map((o) => o.id))).run();
      }
      const stdId = insertRow(ctx.sqlite, fundFiles, {
        fundRequestId, importFileId: input.importFileId, sourceFileId: input.id, kind: 'standardization', fileType: sdmType,
        fileName: `${sdmType}.csv`, status: 'done', rowCount: out.rows.length, validationStatus: out.validationStatus, validation,
      });
      for (const row of out.rows) insertRow(ctx.sqlite, sdmRows, { fundFileId: stdId, sdmType, line: (row as { line: number }).line, data: JSON.stringify(row) });
      tx.update(fundFiles).set({ status: out.validationStatus === 'Valid' ? 'assigned' : 'error', validationStatus: out.validationStatus, updatedAt: new Date().toISOString() }).where(eq(fundFiles.id, input.id)).run();
    });
    publishFile(ctx, { ...input, status: out.validationStatus === 'Valid' ? 'assigned' : 'error' });
    results.push({ file: input.fileName, sdmType, rows: out.rows.length, validationStatus: out.validationStatus, qaMapping: out.qaMapping.length, rowErrors: out.errors.length });
  }
  const invalid = results.filter((r) => r.validationStatus !== 'Valid');
  logStage(ctx, fundRequestId, 'standardization', invalid.length ? 'error' : 'success', { files: results, ...(invalid.length ? { warnings: invalid.map((r) => `${r.file}: ${r.qaMapping} unmapped code(s), ${r.rowErrors} row error(s)`) } : {}) });
  return { result: { files: results }, next: inputs.length ? [{ stage: 'calculations', fundRequestId }] : [] };
};
