/**
 * The visualization job (DOMAIN.md 2.5): builds the fund's work-paper workbook from its standardized
 * data and check results and stores it as the fund's work paper (replacing the previous one; a new
 * work paper has to be reviewed again).
 */
import { and, eq } from 'drizzle-orm';
import { fundFiles } from '../../db/schema/index.js';
import type { CalculationValidation } from '../../../pipeline/checks/index.js';
import { buildWorkPaper } from '../../../pipeline/work-papers/workbook.js';
import type { StageHandler } from '../queue.js';
import { loadFundData } from './calculations.js';
import { loadFund, logStage, outputName, publishFile } from './common.js';

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
  const bytes = await buildWorkPaper({
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
    data: loadFundData(ctx, fundRequestId),
    checks: { items: v.QA_Rec, summary: v.summary, status: v.status },
    investmentTotals: v.investmentTotals,
    generatedAt: new Date(),
  });
  const blob = ctx.blobs.put(bytes);
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
        validationStatus: v.status === 'fail' ? 'Invalid' : 'Valid',
      })
      .returning()
      .get();
  });
  publishFile(ctx, file);
  logStage(ctx, fundRequestId, 'visualization', 'success', { fileName: file.fileName, size: blob.size });
  return { result: { workPaperId: file.id, size: blob.size } };
};
