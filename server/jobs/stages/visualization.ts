/**
 * The visualization job (DOMAIN.md 2.5): builds the fund's work-paper workbook from its standardized
 * data and check results and stores it as the fund's work paper (replacing the previous one; a new
 * work paper has to be reviewed again). An Invalid standardization makes the work paper Invalid and
 * its Summary 'Incomplete data'; the Summary names the mapping versions applied; the Holdings sheet
 * lists every position with its file, line, mapping rows and independent evidence.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import type { CalculationValidation } from '../../../pipeline/checks/index.js';
import { isIncomplete, writeWorkPaper, type WorkPaperInput } from '../../../pipeline/work-papers/workbook.js';
import type { StageHandler } from '../../queue/queue.js';
import { applyAdjustments } from '../../../pipeline/adjustments/apply.js';
import { unappliedLines } from '../../../pipeline/adjustments/unapplied.js';
import { fundAdjustments } from '../../services/adjustments/adjustments.js';
import { checkContextFor, loadFundData } from './fund-data.js';
import { currentInputs, loadFund, logStage, outputName, publishFile } from './common.js';
import { aggregateWorkPaperSources, mergeOutcomes } from './aggregation.js';
import { invalidFiles, overallStatusText, type MappingUsed, type StandardizedFile } from '../../../pipeline/work-papers/data-quality.js';
import type { SkippedSheet } from '../../../rules/files.js';
import type { WorkPaperOutcome } from '../../services/files/display.js';
import type { QaMapping, RowError } from '../../../pipeline/sdm/rows.js';

/**
 * The standardization outcome of a fund's current input files and the mapping versions applied
 * (each standardization file records both in its validation).
 */
export async function standardizationOutcome(
  ctx: AppContext,
  fundRequestId: number,
): Promise<{ standardization: StandardizedFile[]; mappings: MappingUsed[] }> {
  const inputs = await currentInputs(ctx, fundRequestId);
  const { db, tables: t } = storeOf(ctx);
  const files = inputs.length
    ? await db
        .select()
        .from(t.fundFiles)
        .where(
          and(
            eq(t.fundFiles.kind, 'standardization'),
            inArray(
              t.fundFiles.sourceFileId,
              inputs.map((i) => i.id),
            ),
          ),
        )
        .orderBy(t.fundFiles.id)
    : [];
  const mappings = new Map<string, MappingUsed>();
  const standardization = files.map((f): StandardizedFile => {
    const v = (f.validation ?? {}) as {
      QA_Mapping?: QaMapping[];
      rowErrors?: RowError[];
      rowErrorsTotal?: number;
      mappingsUsed?: Record<string, Omit<MappingUsed, 'type'>>;
    };
    for (const [type, m] of Object.entries(v.mappingsUsed ?? {})) mappings.set(`${type}|${m.id}|${m.version}`, { ...m, type });
    const input = inputs.find((i) => i.id === f.sourceFileId);
    return {
      file: input?.fileName ?? f.fileName,
      sdmType: f.fileType,
      validationStatus: f.validationStatus ?? 'Valid',
      qaMapping: v.QA_Mapping ?? [],
      rowErrors: v.rowErrors ?? [],
      rowErrorsTotal: v.rowErrorsTotal ?? v.rowErrors?.length ?? 0,
      skippedSheets: (input?.validation as { skippedSheets?: SkippedSheet[] } | null)?.skippedSheets,
    };
  });
  return { standardization, mappings: Array.from(mappings, ([, m]) => m) };
}

export const visualizationJob: StageHandler = async (ctx, job) => {
  const fundRequestId = job.fundRequestId!;
  const { fund, admin, code } = await loadFund(ctx, fundRequestId);
  const { db, tables: t } = storeOf(ctx);
  const [calc] = await db
    .select()
    .from(t.fundFiles)
    .where(and(eq(t.fundFiles.fundRequestId, fundRequestId), eq(t.fundFiles.kind, 'calculation')))
    .limit(1);
  if (!calc) throw new Error(`Fund request ${fundRequestId} has no calculation results yet`);
  // the calculations stage stores a CalculationValidation (the column's type is any JSON object)
  const v = calc.validation as unknown as CalculationValidation;
  // an aggregate parent's work paper is over its children's data combined, with an Aggregation sheet
  const agg = await aggregateWorkPaperSources(ctx, fundRequestId, v);
  const outcomes = [];
  for (const c of agg?.aggregation.children ?? []) outcomes.push({ code: c.fundCode, outcome: await standardizationOutcome(ctx, c.id) });
  const std = agg ? mergeOutcomes(outcomes) : await standardizationOutcome(ctx, fundRequestId);
  // booked adjustments (pre- and post-calc) are in the reported figures; unbooked ones are listed as differences
  const adjustments = await fundAdjustments(ctx, fundRequestId);
  const delivered = agg?.data ?? (await loadFundData(ctx, fundRequestId));
  const data = applyAdjustments(delivered, adjustments, 'all');
  // an adjustment line to an account or security the fund does not have makes the outcome 'Incomplete data'
  // (for a parent, its children's lines too: a child's correction is one of the group's figures)
  const unappliedAdjustments = [...(await unappliedLines(delivered, adjustments)), ...(agg?.unapplied ?? [])];
  // a parent's schedule also lists its children's adjustments (the booked ones are in their figures already)
  const scheduled = agg ? [...adjustments, ...agg.adjustments] : adjustments;
  const input: WorkPaperInput = {
    fund: {
      id: fund.id,
      name: fund.name,
      fundCode: code,
      administrator: admin?.name ?? '',
      client: fund.client,
      periodEnd: fund.periodEnd ?? '',
      currency: fund.currency ?? 'USD',
      pm: fund.pm ?? 0,
      te: fund.te ?? 0,
      sad: fund.sad ?? 0,
    },
    materiality: v.materiality,
    nav: v.nav,
    data,
    checks: { items: v.QA_Rec, summary: v.summary, status: v.status },
    investmentTotals: v.investmentTotals,
    generatedAt: new Date(),
    // the Holdings sheet shows each position's independent price and rate, looked up as the checks did
    checkContext: await checkContextFor(ctx, fundRequestId, data),
    ...std,
    adjustments: scheduled,
    unappliedAdjustments,
    ...(agg ? { aggregation: agg.aggregation } : {}),
  };
  const incomplete = isIncomplete(input);
  // what the Summary says, kept with the file so that the screens say the same (auditor Fund details)
  const outcome: WorkPaperOutcome = {
    overallStatus: overallStatusText(v.status, std.standardization, unappliedAdjustments),
    incompleteData: invalidFiles(std.standardization).map((f) => ({
      file: f.file,
      sdmType: f.sdmType,
      unmappedCodes: f.qaMapping.length,
      rowErrors: f.rowErrorsTotal,
    })),
    incompleteAdjustments: unappliedAdjustments.map((u) => ({ adjustment: u.adjustment, line: u.line, reason: u.reason })),
  };
  // written to the blob store as it is made: a fund with many positions never holds its work paper in memory
  const blob = await ctx.blobs.putStream((out) => writeWorkPaper(input, out));
  const file = await transaction(ctx, async (tx) => {
    // the work paper this run replaces stays downloadable as the previous one (the one before it goes)
    await tx.delete(t.fundFiles).where(and(eq(t.fundFiles.fundRequestId, fundRequestId), eq(t.fundFiles.kind, 'work_paper_previous')));
    await tx
      .update(t.fundFiles)
      .set({ kind: 'work_paper_previous', updatedAt: new Date().toISOString() })
      .where(and(eq(t.fundFiles.fundRequestId, fundRequestId), eq(t.fundFiles.kind, 'work_paper')));
    const [inserted] = await tx
      .insert(t.fundFiles)
      .values({
        fundRequestId,
        kind: 'work_paper',
        fileType: 'work_papers',
        fileName: outputName(code, fund.dueDate, 'work_papers', 'xlsx'),
        blobKey: blob.key,
        status: 'done',
        validationStatus: v.status === 'fail' || incomplete ? 'Invalid' : 'Valid',
        validation: { ...outcome },
      })
      .returning();
    return inserted;
  });
  publishFile(ctx, file);
  await logStage(ctx, fundRequestId, 'visualization', 'success', { fileName: file.fileName, size: blob.size });
  return { result: { workPaperId: file.id, size: blob.size } };
};
