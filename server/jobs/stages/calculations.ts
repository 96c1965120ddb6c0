/**
 * The calculations job (DOMAIN.md 2.4): loads a fund's standardized rows, computes NAV and the
 * materiality amounts from its PM / TE / SAD, runs every audit check against the independent FX
 * rates of the reference data (`services/reference-data/fx-rates.ts`: the shipped ECB history and
 * uploaded files, at the period end; a rate more than `fxMaxAgeBusinessDays` business days old is
 * never used), and stores the QA_Rec items as the fund's calculation file. Queues visualization.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, eq } from 'drizzle-orm';
import { storeOf } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import { runChecks, type CalculationValidation } from '../../../pipeline/checks/index.js';
import { lineageOf } from '../../../pipeline/work-papers/lineage.js';
import type { StageHandler } from '../../queue/queue.js';
import { applyAdjustments } from '../../../pipeline/adjustments/apply.js';
import { fundAdjustments } from '../../services/adjustments/adjustments.js';
import { recordChecksRun } from '../../services/delivery-events/record.js';
import { logStage, publishFile } from './common.js';
import { aggregateCalculations } from './aggregation.js';
import { checkContextFor, loadFundData } from './fund-data.js';

/** The calculations stage: runs the audit checks of a fund (or of a consolidating parent over its children) and stores its calculation file. */
export const calculationsJob: StageHandler = async (ctx, job) => {
  const fundRequestId = job.fundRequestId!;
  // a parent whose consolidation flag is set is calculated over its children's data (aggregation.ts)
  const aggregated = await aggregateCalculations(ctx, fundRequestId);
  if (aggregated) return aggregated;
  // booked pre-calc audit adjustments change the checks' inputs (docs/decisions/0012-audit-adjustments.md)
  const data = applyAdjustments(await loadFundData(ctx, fundRequestId), await fundAdjustments(ctx, fundRequestId), 'pre-calc');
  const checkCtx = await checkContextFor(ctx, fundRequestId, data);
  const { nav, materiality: amounts } = checkCtx;
  const checks = await runChecks(data, checkCtx);
  const validation: CalculationValidation = {
    QA_Rec: checks.items,
    summary: checks.summary,
    status: checks.status,
    nav,
    materiality: amounts,
    rowCounts: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, (v as { length: number }).length])),
    ...(checks.investmentTotals ? { investmentTotals: checks.investmentTotals } : {}),
    // the delivered files and line ranges the checks read, for items computed over many rows
    sources: (await lineageOf(data)).sources,
  };
  const { tables: t } = storeOf(ctx);
  const file = await transaction(ctx, async (tx) => {
    await tx.delete(t.fundFiles).where(and(eq(t.fundFiles.fundRequestId, fundRequestId), eq(t.fundFiles.kind, 'calculation')));
    const [inserted] = await tx
      .insert(t.fundFiles)
      .values({
        fundRequestId,
        kind: 'calculation',
        fileType: 'calculations',
        fileName: `calculations.json`,
        status: 'done',
        rowCount: checks.items.length,
        validationStatus: checks.status === 'fail' ? 'Invalid' : 'Valid',
        validation,
      })
      .returning();
    // the run's outcome as a dated delivery event (what the fund's scorecard counts)
    await recordChecksRun(ctx, fundRequestId, inserted!.id, checks.items);
    return inserted;
  });
  publishFile(ctx, file);
  await logStage(ctx, fundRequestId, 'calculations', 'success', {
    nav,
    summary: checks.summary,
    status: checks.status,
    ...(checks.summary.fail || checks.summary.warning
      ? {
          warnings: checks.items
            .filter((i) => i.status !== 'pass')
            .slice(0, 20)
            .map((i) => `${i.check}: ${i.message}`),
        }
      : {}),
  });
  return { result: { nav, summary: checks.summary }, next: [{ stage: 'visualization', fundRequestId }] };
};
