/**
 * The standardization job (DOMAIN.md 2.3): turns each current input file of a fund into SDM rows
 * through the fund's effective layouts and code mappings, records QA_Mapping entries and row
 * errors, and sets `validation_status` Valid / Invalid. Queues calculations.
 *
 * A fund's FX tables (`fx_rates`) are standardized before its other files; its holdings without a
 * base value are then converted with them at the fund's period end (`pipeline/fx/convert.ts`),
 * a currency with no usable rate reported once on the holdings file.
 *
 * Rows stream: the identified file is read row by row and the SDM rows are inserted in batches
 * under a `staging` file, which no screen, export or later stage reads; each batch is read and
 * standardized outside any transaction, then its chunks are inserted in a short one, and the event
 * loop gets a turn between batches. One last short transaction then replaces the previous
 * standardization file and its rows with the staged ones, so readers see the old rows or the new
 * ones, never a mix. A staging file left by a crash or a cancel is removed when the fund is
 * standardized again.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { sdmRowWriter } from '../../db/sdm-store.js';
import { transaction } from '../../db/tx.js';
import { effectiveMappings, type EffectiveMappings } from '../../services/mappings/store.js';
import { readIdentifiedFile } from '../../../pipeline/readers/identified-file.js';
import { createStandardizer, type StandardizeResult } from '../../../pipeline/stages/standardize.js';
import { CODE_MAPPING_COLUMN, type MappingType, type SdmType } from '../../../pipeline/sdm/model.js';
import type { FxTableRow, HoldingRow } from '../../../pipeline/sdm/rows.js';
import { createFxTableConverter } from '../../../pipeline/fx/convert.js';
import { CURRENCY_MINOR_UNITS } from '../../services/reference-data/catalog/index.js';
import { recordMappingUses, type MappingVersionUsed } from '../../services/mappings/versions.js';
import type { ProcessRow, StageHandler } from '../../queue/queue.js';
import { JobCancelled } from '../../../pipeline/engine.js';
import type { StoredRow } from '../../../pipeline/sdm/row-chunks.js';
import { assertLeaseHeld, currentInputs, loadFund, logStage, nextTurn, publishFile, ROWS_PER_TURN, type FundFileRow } from './common.js';

/** Most row errors kept per file (the count is always exact). */
const MAX_ROW_ERRORS = 500;

/**
 * Removes staged rows left by an interrupted run: of one input, or of every input of a fund (an
 * input replaced by a newer delivery after a run was killed is no longer current, but its staging
 * file must still go; one stage of a fund runs at a time, so no other run is staging meanwhile).
 */
async function dropStaging(ctx: AppContext, of: { stagingId: number } | { fundRequestId: number }): Promise<void> {
  const { db, tables: t } = storeOf(ctx);
  const owner = 'stagingId' in of ? eq(t.fundFiles.id, of.stagingId) : eq(t.fundFiles.fundRequestId, of.fundRequestId);
  const staged = (
    await db
      .select({ id: t.fundFiles.id })
      .from(t.fundFiles)
      .where(and(eq(t.fundFiles.kind, 'staging'), owner))
  ).map((r) => r.id);
  if (!staged.length) return;
  await transaction(ctx, async (tx) => {
    await tx.delete(t.sdmChunks).where(inArray(t.sdmChunks.fundFileId, staged));
    await tx.delete(t.fundFiles).where(inArray(t.fundFiles.id, staged));
  });
}

/** What the standardization of a fund's files shares between them: its FX tables' rows, the fund's currency and period end. */
interface FundFx {
  table: FxTableRow[];
  currency: string;
  periodEnd: string;
  maxAgeBusinessDays: number;
}

/**
 * Standardizes one input file into a staging file, batch by batch. An FX table's rows are kept in
 * `fx.table`; holdings are converted with it where they have no base value.
 * @returns the staging file's id, its row count and the validation outcome
 * @throws JobCancelled when the job is cancelled between batches (the staged rows are removed)
 */
async function stageInput(ctx: AppContext, job: ProcessRow, input: FundFileRow, mappings: EffectiveMappings, fx: FundFx, signal: AbortSignal) {
  const fundRequestId = job.fundRequestId!;
  const sdmType = input.fileType as SdmType;
  const layout = mappings.layouts.find((l) => l.sdmType === sdmType);
  const { db, tables: t } = storeOf(ctx);
  const [{ id: stagingId }] = await db
    .insert(t.fundFiles)
    .values({
      fundRequestId,
      importFileId: input.importFileId,
      sourceFileId: input.id,
      kind: 'staging',
      fileType: sdmType,
      fileName: `${sdmType}.csv`,
      status: 'processing',
    })
    .returning({ id: t.fundFiles.id });
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
  const converter =
    sdmType === 'holdings'
      ? createFxTableConverter({
          table: fx.table,
          currency: fx.currency,
          periodEnd: fx.periodEnd,
          minorUnits: CURRENCY_MINOR_UNITS[fx.currency.toUpperCase()] ?? 2,
          maxAgeBusinessDays: fx.maxAgeBusinessDays,
          localColumn: layout.columns.find((c) => c.sdmColumn === 'market_value_local')?.source,
        })
      : null;
  // a standardizer makes every row of a file with the same columns in the same order
  const insert = sdmRowWriter(ctx, stagingId, sdmType, { oneShape: true });
  const it = rows[Symbol.iterator]();
  let done = false;
  let rowCount = 0;
  // each row is read, standardized and kept in the open chunk, ROWS_PER_TURN a batch; the batch's chunks are then inserted in one transaction
  const step = async () => {
    for (let k = 0; k < ROWS_PER_TURN; k++) {
      const next = it.next();
      if (next.done) {
        done = true;
        break;
      }
      const standardized = std.add(next.value);
      const row = converter && standardized ? converter.convert(standardized as HoldingRow) : standardized;
      if (!row) continue;
      if (sdmType === 'fx_rates') fx.table.push(row as FxTableRow);
      insert.add(row as unknown as StoredRow);
      rowCount++;
    }
    await transaction(ctx, async () => {
      await assertLeaseHeld(ctx, job);
      await insert.flush();
    });
  };
  try {
    while (!done) {
      await step();
      if (done) break;
      await nextTurn();
      if (signal.aborted) throw new JobCancelled();
    }
  } catch (err) {
    it.return?.(undefined);
    // only this run's own rows: after a takeover the input's other staging file is the taker's
    await dropStaging(ctx, { stagingId });
    throw err;
  }
  const out = std.finish();
  const notConverted = converter?.finish() ?? [];
  if (notConverted.length) return { stagingId, rowCount, out: { ...out, errors: [...notConverted, ...out.errors], validationStatus: 'Invalid' as const } };
  return { stagingId, rowCount, out };
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
  // FX tables first: the holdings are converted with them
  const inputs = (await currentInputs(ctx, fundRequestId)).sort((a, b) => Number(b.fileType === 'fx_rates') - Number(a.fileType === 'fx_rates'));
  const { db, tables: t } = storeOf(ctx);
  const mappings = await effectiveMappings(ctx, fundRequestId);
  const { fund } = await loadFund(ctx, fundRequestId);
  const fx: FundFx = { table: [], currency: fund.currency ?? 'USD', periodEnd: fund.periodEnd ?? '', maxAgeBusinessDays: ctx.config.fxMaxAgeBusinessDays };
  const results: Array<{ file: string; sdmType: string; rows: number; validationStatus: string; qaMapping: number; rowErrors: number }> = [];
  await dropStaging(ctx, { fundRequestId });
  for (const input of inputs) {
    if (signal.aborted) throw new JobCancelled();
    await db.update(t.fundFiles).set({ status: 'processing' }).where(eq(t.fundFiles.id, input.id));
    const { stagingId, rowCount, out } = await stageInput(ctx, job, input, mappings, fx, signal);
    const validation = {
      QA_Mapping: out.qaMapping,
      rowErrors: out.errors.slice(0, MAX_ROW_ERRORS),
      rowErrorsTotal: out.errors.length,
      mappingsUsed: mappingsApplied(mappings, [input]),
      validation_status_detail: { cy: out.validationStatus, py: null },
    };
    const status = out.validationStatus === 'Valid' ? 'assigned' : 'error';
    await transaction(ctx, async (tx) => {
      await assertLeaseHeld(ctx, job);
      const old = (
        await tx
          .select({ id: t.fundFiles.id })
          .from(t.fundFiles)
          .where(and(eq(t.fundFiles.kind, 'standardization'), eq(t.fundFiles.sourceFileId, input.id)))
      ).map((o) => o.id);
      if (old.length) {
        await tx.delete(t.sdmChunks).where(inArray(t.sdmChunks.fundFileId, old));
        await tx.delete(t.fundFiles).where(inArray(t.fundFiles.id, old));
      }
      await tx
        .update(t.fundFiles)
        .set({ kind: 'standardization', status: 'done', rowCount, validationStatus: out.validationStatus, validation })
        .where(eq(t.fundFiles.id, stagingId));
      await tx
        .update(t.fundFiles)
        .set({ status, validationStatus: out.validationStatus, updatedAt: new Date().toISOString() })
        .where(eq(t.fundFiles.id, input.id));
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
  await logStage(ctx, fundRequestId, 'standardization', invalid.length ? 'error' : 'success', {
    files: results,
    ...(invalid.length ? { warnings: invalid.map((r) => `${r.file}: ${r.qaMapping} unmapped code(s), ${r.rowErrors} row error(s)`) } : {}),
  });
  return { result: { files: results }, next: inputs.length ? [{ stage: 'calculations', fundRequestId }] : [] };
};
