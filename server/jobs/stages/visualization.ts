/**
 * The visualization job (DOMAIN.md 2.5): builds the fund's work-paper workbook from its standardized
 * data and check results and stores it as the fund's work paper (replacing the previous one; a new
 * work paper has to be reviewed again). An Invalid standardization makes the work paper Invalid and
 * its Summary 'Incomplete data'; the Summary names the mapping versions applied; the Holdings sheet
 * lists every position with its file, line, mapping rows and independent evidence.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { fundFiles } from '../../db/schema/index.js';
import type { CalculationValidation } from '../../../pipeline/checks/index.js';
import { writeWorkPaper, type WorkPaperInput } from '../../../pipeline/work-papers/workbook.js';
import type { StageHandler } from '../queue.js';
import { applyAdjustments } from '../../../pipeline/adjustments/apply.js';
import { fundAdjustments } from '../../services/adjustments/adjustments.js';
import { checkContextFor, loadFundData } from './calculations.js';
import { currentInputs, loadFund, logStage, outputName, publishFile } from './common.js';
import { aggregateWorkPaperSources, mergeOutcomes } from './aggregation.js';
import { invalidFiles, type MappingUsed, type StandardizedFile } from '../../../pipeline/work-papers/data-quality.js';
import type { QaMapping, RowError } from '../../../pipeline/sdm/rows.js';

/**
 * The standardization outcome of a fund's current input files and the mapping versions applied
 * (each standardization file records both in its validation).
 */
export function standardizationOutcome(ctx: AppContext, fundRequestId: number): { standardization: StandardizedFile[]; mappings: MappingUsed[] } {
  const inputs = currentInputs(ctx, fundRequestId);
  const files = inputs.length
    ? ctx.db
        .select()
        .from(fundFiles)
        .where(
          and(
            eq(fundFiles.kind, 'standardization'),
            inArray(
              fundFiles.sourceFileId,
              inputs.map((i) => i.id),
            ),
          ),
        )
        .orderBy(fundFiles.id)
        .all()
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
    };
  });
  return { standardization, mappings: [...mappings.values()] };
}

export const visualizationJob: StageHandler = async (ctx, job) => {
  const fundRequestId = job.fundRequestId!;
  const { fund, admin, code } = loadFund(ctx, fundRequestId);
  const calc = ctx.db
    .select()
    .from(fundFiles)
    .where(and(eq(fundFiles.fundRequestId, fundRequestId), eq(fundFiles.kind, 'calculation')))
    .get();
  if (!calc) throw new Error(`Fund request ${fundRequestId} has no calculation results yet`);
  // the calculations stage stores a CalculationValidation (the column's type is any JSON object)
  const v = calc.validation as unknown as CalculationValidation;
  // an aggregate parent's work paper is over its children's data combined, with an Aggregation sheet
  const agg = aggregateWorkPaperSources(ctx, fundRequestId, v);
  const std = agg
    ? mergeOutcomes(agg.aggregation.children.map((c) => ({ code: c.fundCode, outcome: standardizationOutcome(ctx, c.id) })))
    : standardizationOutcome(ctx, fundRequestId);
  // booked adjustments (pre- and post-calc) are in the reported figures; unbooked ones are listed as differences
  const adjustments = await fundAdjustments(ctx, fundRequestId);
  const data = applyAdjustments(agg?.data ?? loadFundData(ctx, fundRequestId), adjustments, 'all');
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
    checkContext: checkContextFor(ctx, fundRequestId, data),
    ...std,
    adjustments,
    ...(agg ? { aggregation: agg.aggregation } : {}),
  };
  const incomplete = invalidFiles(std.standardization).length > 0;
  // written to the blob store as it is made: a fund with many positions never holds its work paper in memory
  const blob = await ctx.blobs.putStream((out) => writeWorkPaper(input, out));
  const file = ctx.db.transaction((tx) => {
    tx.delete(fundFiles)
      .where(and(eq(fundFiles.fundRequestId, fundRequestId), eq(fundFiles.kind, 'work_paper')))
      .run();
    return tx
      .insert(fundFiles)
      .values({
        fundRequestId,
        kind: 'work_paper',
        fileType: 'work_papers',
        fileName: outputName(code, fund.dueDate, 'work_papers', 'xlsx'),
        blobKey: blob.key,
        status: 'done',
        validationStatus: v.status === 'fail' || incomplete ? 'Invalid' : 'Valid',
      })
      .returning()
      .get();
  });
  publishFile(ctx, file);
  logStage(ctx, fundRequestId, 'visualization', 'success', { fileName: file.fileName, size: blob.size });
  return { result: { workPaperId: file.id, size: blob.size } };
};
