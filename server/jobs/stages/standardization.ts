/**
 * The standardization job (DOMAIN.md 2.3): turns each current input file of a fund into SDM rows
 * through the fund's effective layouts and code mappings, records QA_Mapping entries and row
 * errors, and sets `validation_status` Valid / Invalid. Queues calculations.
 *
 * Rows stream: the identified file is read row by row and the SDM rows are inserted in batches
 * under a `staging` file, which no screen, export or later stage reads; the event loop gets a
 * turn between batches. One last transaction then replaces the previous standardization file and
 * its rows with the staged ones, so readers see the old rows or the new ones, never a mix. A
 * staging file left by a crash or a cancel is removed when the input is standardized again.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { insertRow } from '../../db/insert.js';
import { fundFiles, sdmChunks } from '../../db/schema/index.js';
import { sdmRowWriter } from '../../db/sdm-store.js';
import { effectiveMappings, type EffectiveMappings } from '../../services/mappings/store.js';
import { readIdentifiedFile } from '../../../pipeline/readers/identified-file.js';
import { createStandardizer, type StandardizeResult } from '../../../pipeline/stages/standardize.js';
import { CODE_MAPPING_COLUMN, type MappingType, type SdmType } from '../../../pipeline/sdm/model.js';
import { recordMappingUses, type MappingVersionUsed } from '../../services/mappings/versions.js';
import type { StageHandler } from '../queue.js';
import { JobCancelled } from '../../../pipeline/engine.js';
import type { StoredRow } from '../../../pipeline/sdm/row-chunks.js';
import { currentInputs, logStage, nextTurn, publishFile, ROWS_PER_TURN, type FundFileRow } from './common.js';

/** Most row errors kept per file (the count is always exact). */
const MAX_ROW_ERRORS = 500;

/** Removes staged rows of an input (left by an interrupted run). */
function dropStaging(ctx: AppContext, inputId: number): void {
  const staged = ctx.db
    .select({ id: fundFiles.id })
    .from(fundFiles)
    .where(and(eq(fundFiles.kind, 'staging'), eq(fundFiles.sourceFileId, inputId)))
    .all()
    .map((r) => r.id);
  if (!staged.length) return;
  ctx.db.transaction((tx) => {
    tx.delete(sdmChunks).where(inArray(sdmChunks.fundFileId, staged)).run();
    tx.delete(fundFiles).where(inArray(fundFiles.id, staged)).run();
  });
}

/**
 * Standardizes one input file into a staging file, batch by batch.
 * @returns the staging file's id, its row count and the validation outcome
 * @throws JobCancelled when the job is cancelled between batches (the staged rows are removed)
 */
async function stageInput(ctx: AppContext, fundRequestId: number, input: FundFileRow, mappings: EffectiveMappings, signal: AbortSignal) {
  const sdmType = input.fileType as SdmType;
  const layout = mappings.layouts.find((l) => l.sdmType === sdmType);
  const stagingId = insertRow(ctx.sqlite, fundFiles, {
    fundRequestId,
    importFileId: input.importFileId,
    sourceFileId: input.id,
    kind: 'staging',
    fileType: sdmType,
    fileName: `${sdmType}.csv`,
    status: 'processing',
  });
  const { meta, rows } = readIdentifiedFile(ctx.blobs, input.blobKey!);
  if (!layout) {
    return {
      stagingId,
      rowCount: 0,
      out: {
        errors: [{ file: input.fileName, line: meta.headerLine, column: '', error: `The TPA has no file layout for ${sdmType}` }],
        qaMapping: [],
        validationStatus: 'Invalid',
      } as Omit<StandardizeResult, 'rows'>,
    };
  }
  const std = createStandardizer({ file: meta.file, header: meta.header, headerLine: meta.headerLine, layout, sdmType, codeMaps: mappings.codeMaps });
  // a standardizer makes every row of a file with the same columns in the same order
  const insert = sdmRowWriter(ctx.sqlite, stagingId, sdmType, { oneShape: true });
  const it = rows[Symbol.iterator]();
  let done = false;
  let rowCount = 0;
  // each row is read, standardized and kept in the open chunk (a chunk is inserted as it fills), ROWS_PER_TURN a transaction
  const step = ctx.sqlite.transaction(() => {
    for (let k = 0; k < ROWS_PER_TURN; k++) {
      const next = it.next();
      if (next.done) {
        done = true;
        break;
      }
      const row = std.add(next.value);
      if (!row) continue;
      insert.add(row as unknown as StoredRow);
      rowCount++;
    }
    insert.flush();
  });
  try {
    while (!done) {
      step.immediate();
      if (done) break;
      await nextTurn();
      if (signal.aborted) throw new JobCancelled();
    }
  } catch (err) {
    it.return?.(undefined);
    dropStaging(ctx, input.id);
    throw err;
  }
  return { stagingId, rowCount, out: std.finish() };
}

/** The mapping versions a fund's standardization applies: the file layout, and the code mappings of its inputs' SDM types. */
function mappingsApplied(mappings: EffectiveMappings, inputs: FundFileRow[]): Partial<Record<MappingType, MappingVersionUsed>> {
  const types = new Set(inputs.map((i) => i.fileType));
  return Object.fromEntries(
    Object.entries(mappings.used).filter(
      ([type]) => type === 'file_layout' || types.has(CODE_MAPPING_COLUMN[type as Exclude<MappingType, 'file_layout'>]?.sdmType),
    ),
  );
}

export const standardizationJob: StageHandler = async (ctx, job, signal) => {
  const fundRequestId = job.fundRequestId!;
  const inputs = currentInputs(ctx, fundRequestId);
  const mappings = await effectiveMappings(ctx, fundRequestId);
  const results: Array<{ file: string; sdmType: string; rows: number; validationStatus: string; qaMapping: number; rowErrors: number }> = [];
  for (const input of inputs) {
    if (signal.aborted) throw new JobCancelled();
    dropStaging(ctx, input.id);
    ctx.db.update(fundFiles).set({ status: 'processing' }).where(eq(fundFiles.id, input.id)).run();
    const { stagingId, rowCount, out } = await stageInput(ctx, fundRequestId, input, mappings, signal);
    const validation = {
      QA_Mapping: out.qaMapping,
      rowErrors: out.errors.slice(0, MAX_ROW_ERRORS),
      rowErrorsTotal: out.errors.length,
      mappingsUsed: mappingsApplied(mappings, [input]),
      validation_status_detail: { cy: out.validationStatus, py: null },
    };
    const status = out.validationStatus === 'Valid' ? 'assigned' : 'error';
    ctx.db.transaction((tx) => {
      const old = tx
        .select({ id: fundFiles.id })
        .from(fundFiles)
        .where(and(eq(fundFiles.kind, 'standardization'), eq(fundFiles.sourceFileId, input.id)))
        .all();
      if (old.length) {
        tx.delete(sdmChunks)
          .where(
            inArray(
              sdmChunks.fundFileId,
              old.map((o) => o.id),
            ),
          )
          .run();
        tx.delete(fundFiles)
          .where(
            inArray(
              fundFiles.id,
              old.map((o) => o.id),
            ),
          )
          .run();
      }
      tx.update(fundFiles)
        .set({ kind: 'standardization', status: 'done', rowCount, validationStatus: out.validationStatus, validation })
        .where(eq(fundFiles.id, stagingId))
        .run();
      tx.update(fundFiles).set({ status, validationStatus: out.validationStatus, updatedAt: new Date().toISOString() }).where(eq(fundFiles.id, input.id)).run();
    });
    publishFile(ctx, { ...input, status });
    results.push({
      file: input.fileName,
      sdmType: input.fileType,
      rows: rowCount,
      validationStatus: out.validationStatus,
      qaMapping: out.qaMapping.length,
      rowErrors: out.errors.length,
    });
  }
  await recordMappingUses(ctx, fundRequestId, Object.values(mappingsApplied(mappings, inputs)));
  const invalid = results.filter((r) => r.validationStatus !== 'Valid');
  logStage(ctx, fundRequestId, 'standardization', invalid.length ? 'error' : 'success', {
    files: results,
    ...(invalid.length ? { warnings: invalid.map((r) => `${r.file}: ${r.qaMapping} unmapped code(s), ${r.rowErrors} row error(s)`) } : {}),
  });
  return { result: { files: results }, next: inputs.length ? [{ stage: 'calculations', fundRequestId }] : [] };
};
