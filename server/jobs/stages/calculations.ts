/**
 * The calculations job (DOMAIN.md 2.4): loads a fund's standardized rows, computes NAV and the
 * materiality amounts from its PM / TE / SAD, runs every audit check against the independent FX
 * rates of the reference data (`services/reference-data/fx-rates.ts`: the shipped ECB history and
 * uploaded files, at the period end; a rate more than `fxMaxAgeBusinessDays` business days old is
 * never used), and stores the QA_Rec items as the fund's calculation file. Queues visualization.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { countSdmRows, readSdmChunks } from '../../db/sdm-store.js';
import { transaction } from '../../db/tx.js';
import { STANDARD_ACCOUNTS } from '../../../pipeline/sdm/model.js';
import {
  allRows,
  type FundSdmData,
  type FxTableRow,
  type HoldingRow,
  type PriceRow,
  type RowSource,
  type ShareCapitalRow,
  type TrialBalanceRow,
  type TransactionRow,
} from '../../../pipeline/sdm/rows.js';
import { runChecks, type CalculationValidation, type CheckContext } from '../../../pipeline/checks/index.js';
import { lineageOf } from '../../../pipeline/work-papers/lineage.js';
import { materiality, navFromTrialBalance } from '../../../pipeline/checks/materiality.js';
import type { StageHandler } from '../../queue/queue.js';
import { applyAdjustments } from '../../../pipeline/adjustments/apply.js';
import { fundAdjustments } from '../../services/adjustments/adjustments.js';
import { recordChecksRun } from '../../services/delivery-events/record.js';
import { independentRatesAt } from '../../services/reference-data/fx-rates.js';
import { currentInputs, loadFund, logStage, publishFile } from './common.js';
import { aggregateCalculations } from './aggregation.js';

/**
 * The SDM rows of one type in some standardization files, read from the database a chunk at a
 * time on every pass (file by file, in line order); `length` is counted when the source is made.
 * Only the files of that type are read: a standardization file holds the rows of its own SDM
 * type, and reading the others would go through all their rows to find none.
 */
class StoredRows<T> implements RowSource<T> {
  constructor(
    private readonly ctx: AppContext,
    private readonly fileIds: number[],
    private readonly sdmType: string,
    readonly length: number,
  ) {}

  [Symbol.asyncIterator](): AsyncIterator<T[]> {
    return readSdmChunks<T>(this.ctx, this.fileIds, this.sdmType);
  }
}

/** The stored rows of one SDM type in some standardization files (counted from the chunks, no row read). */
async function storedRows<T>(ctx: AppContext, files: Array<{ id: number; fileType: string }>, sdmType: string): Promise<StoredRows<T>> {
  const ids = files.filter((f) => f.fileType === sdmType).map((f) => f.id);
  return new StoredRows<T>(ctx, ids, sdmType, await countSdmRows(ctx, ids));
}

/**
 * The SDM data of a fund's current standardization files. Holdings, transactions and prices are
 * row sources read from the database on each pass (memory does not grow with them); the trial
 * balance, share-capital and FX table rows are loaded (rows come back in file order).
 */
export async function loadFundData(ctx: AppContext, fundRequestId: number): Promise<FundSdmData> {
  const inputs = (await currentInputs(ctx, fundRequestId)).map((i) => i.id);
  const { db, tables: t } = storeOf(ctx);
  const files = inputs.length
    ? await db
        .select({ id: t.fundFiles.id, fileType: t.fundFiles.fileType })
        .from(t.fundFiles)
        .where(and(eq(t.fundFiles.kind, 'standardization'), inArray(t.fundFiles.sourceFileId, inputs)))
        .orderBy(t.fundFiles.id)
    : [];
  return {
    trial_balance: await allRows(await storedRows<TrialBalanceRow>(ctx, files, 'trial_balance')),
    holdings: await storedRows<HoldingRow>(ctx, files, 'holdings'),
    transactions: await storedRows<TransactionRow>(ctx, files, 'transactions'),
    share_capital: await allRows(await storedRows<ShareCapitalRow>(ctx, files, 'share_capital')),
    prices: await storedRows<PriceRow>(ctx, files, 'prices'),
    fx_rates: await allRows(await storedRows<FxTableRow>(ctx, files, 'fx_rates')),
  };
}

/**
 * What the checks of a fund receive besides its rows (NAV from its trial balance, PM / TE / SAD
 * amounts, the independent FX rate of every currency per its currency at the period end, the age
 * limit of rates, its FX tolerance); the work paper's Holdings sheet uses the same to show each
 * position's evidence.
 */
export async function checkContextFor(ctx: AppContext, fundRequestId: number, data: FundSdmData): Promise<CheckContext> {
  const { fund, admin, code } = await loadFund(ctx, fundRequestId);
  const nav = navFromTrialBalance(data.trial_balance, STANDARD_ACCOUNTS);
  return {
    fundCode: code,
    periodEnd: fund.periodEnd ?? '',
    currency: fund.currency ?? 'USD',
    materiality: materiality({ nav, pm: fund.pm ?? 0, te: fund.te ?? 0, sad: fund.sad ?? 0 }),
    nav,
    fxRates: independentRatesAt(ctx, fund.currency ?? 'USD', fund.periodEnd ?? ''),
    fxMaxAgeBusinessDays: ctx.config.fxMaxAgeBusinessDays,
    fxTolerancePct: fund.fxTolerance ?? ctx.config.fxTolerancePct,
    externalValuations: fund.externalValuations === 'Y',
    accountClasses: STANDARD_ACCOUNTS,
    administrator: admin?.name,
  };
}

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
