/**
 * The calculations and work-paper inputs of an aggregate parent fund (spec: parent and child funds;
 * docs/decisions/0013-fund-aggregation.md): its children's standardized data, read with
 * `loadFundData` per child, converted into the parent's currency with the independent FX rates the
 * checks use and combined (`pipeline/aggregation`), then checked like any fund's data. An aggregate
 * with more rows than `aggregationMaxRows` is not computed: its calculation file says so
 * (`aggDataOversized`, data status 'Too large') and no work paper follows. The run turns the
 * parent's `needs_rerun` and forced rerun switch off.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import {
  aggregateRowCount,
  AGGREGATION,
  combineChildren,
  type Aggregate,
  type AggregationSummary,
  type ChildInput,
} from '../../../pipeline/aggregation/combine.js';
import { runChecks, type CalculationValidation } from '../../../pipeline/checks/index.js';
import { worst } from '../../../pipeline/checks/common.js';
import type { QaRec } from '../../../pipeline/sdm/rows.js';
import type { MappingUsed, StandardizedFile } from '../../../pipeline/work-papers/data-quality.js';
import type { StageResult } from '../../../pipeline/engine.js';
import { lineageOf } from '../../../pipeline/work-papers/lineage.js';
import { applyAdjustments, type ApplyPhase, type FundAdjustment } from '../../../pipeline/adjustments/apply.js';
import { childAdjustments } from '../../../pipeline/aggregation/convert.js';
import { childUnapplied, unappliedLines, type UnappliedLine } from '../../../pipeline/adjustments/unapplied.js';
import { fundAdjustments } from '../../services/adjustments/adjustments.js';
import { aggregatedChildren, clearRerunFlags } from '../../services/aggregation/rules.js';
import { loadFxRates } from '../../services/reference-data/fx-rates.js';
import { checkContextFor, loadFundData } from './fund-data.js';
import { loadFund, logStage, publishFile } from './common.js';

/** A calculation file of an aggregate parent: the checks' validation plus the aggregation's figures. */
export type AggregateValidation = CalculationValidation & {
  aggregation: AggregationSummary | { rowCount: number; limit: number };
  aggDataOversized?: boolean;
};

/**
 * The children of a parent as the combination reads them (own currency and period end, data read
 * lazily), each with its own booked audit adjustments of `phase` applied, in its own currency,
 * before it is converted: a child's correction is a correction of the group's figures.
 */
async function childInputs(ctx: AppContext, childIds: number[], phase: ApplyPhase): Promise<ChildInput[]> {
  const out: ChildInput[] = [];
  for (const id of childIds) {
    const { fund, code } = await loadFund(ctx, id);
    const data = applyAdjustments(await loadFundData(ctx, id), await fundAdjustments(ctx, id), phase);
    out.push({ id, fundCode: code, name: fund.name, currency: fund.currency ?? 'USD', periodEnd: fund.periodEnd ?? '', data });
  }
  return out;
}

/** The parent's children combined in its currency (dated independent rates, stale limit `fxMaxAgeDays`). */
async function combine(ctx: AppContext, parentId: number, children: ChildInput[]): Promise<Aggregate> {
  const { fund } = await loadFund(ctx, parentId);
  const currency = fund.currency ?? 'USD';
  return combineChildren(children, currency, loadFxRates(ctx, currency), ctx.config.fxMaxAgeDays);
}

/** Counts of items by status. */
function summarize(items: QaRec[]) {
  return {
    pass: items.filter((i) => i.status === 'pass').length,
    warning: items.filter((i) => i.status === 'warning').length,
    fail: items.filter((i) => i.status === 'fail').length,
  };
}

/** Replaces the parent's calculation file and turns its rerun flags off, in one transaction. */
async function storeCalculation(ctx: AppContext, parentId: number, validation: AggregateValidation) {
  const { tables: t } = storeOf(ctx);
  const file = await transaction(ctx, async (tx) => {
    await tx.delete(t.fundFiles).where(and(eq(t.fundFiles.fundRequestId, parentId), eq(t.fundFiles.kind, 'calculation')));
    await clearRerunFlags(ctx, parentId);
    const [inserted] = await tx
      .insert(t.fundFiles)
      .values({
        fundRequestId: parentId,
        kind: 'calculation',
        fileType: 'calculations',
        fileName: 'calculations.json',
        status: 'done',
        rowCount: validation.QA_Rec.length,
        validationStatus: validation.status === 'fail' ? 'Invalid' : 'Valid',
        validation,
      })
      .returning();
    return inserted;
  });
  publishFile(ctx, file);
  ctx.events.publish('fund-request', { ids: [parentId], action: 'aggregation' });
}

/**
 * The calculations of an aggregate parent, or null when the fund is not one (the caller then runs a
 * fund's own calculations). Over the row limit: an oversized calculation file and no next stage;
 * otherwise the checks over the combined data, with one aggregation item per child first, and the
 * work paper queued.
 */
export async function aggregateCalculations(ctx: AppContext, parentId: number): Promise<StageResult | null> {
  const childIds = await aggregatedChildren(ctx, parentId);
  if (!childIds) return null;
  const children = await childInputs(ctx, childIds, 'pre-calc');
  const rowCount = aggregateRowCount(children);
  const limit = ctx.config.aggregationMaxRows;
  if (rowCount > limit) {
    const item: QaRec = {
      check: AGGREGATION,
      name: 'Aggregate too large',
      status: 'fail',
      diff: 0,
      threshold: null,
      message: `The ${children.length} child funds hold ${rowCount} rows together, more than the aggregation limit of ${limit} (setting aggregationMaxRows); the aggregate was not computed`,
      notPerformed: `${rowCount} rows, over the limit of ${limit}`,
    };
    await storeCalculation(ctx, parentId, {
      QA_Rec: [item],
      summary: summarize([item]),
      status: 'fail',
      nav: 0,
      materiality: { pm: 0, te: 0, sad: 0 },
      rowCounts: {},
      aggregation: { rowCount, limit },
      aggDataOversized: true,
    });
    await logStage(ctx, parentId, 'calculations', 'error', { aggregation: 'too large', rowCount, limit, children: childIds });
    return { result: { aggDataOversized: true, rowCount, limit } };
  }
  const aggregate = await combine(ctx, parentId, children);
  // the parent's booked pre-calc audit adjustments change the combined inputs, as for any fund
  const data = applyAdjustments(aggregate.data, await fundAdjustments(ctx, parentId), 'pre-calc');
  const checkCtx = await checkContextFor(ctx, parentId, data);
  const checks = await runChecks(data, checkCtx);
  const items = [...aggregate.items, ...checks.items];
  const summary = summarize(items);
  const status = worst(items.map((i) => i.status));
  await storeCalculation(ctx, parentId, {
    QA_Rec: items,
    summary,
    status,
    nav: checkCtx.nav,
    materiality: checkCtx.materiality,
    rowCounts: aggregate.summary.total.rows,
    ...(checks.investmentTotals ? { investmentTotals: checks.investmentTotals } : {}),
    sources: (await lineageOf(data)).sources,
    aggregation: aggregate.summary,
  });
  await logStage(ctx, parentId, 'calculations', 'success', {
    aggregation: { children: childIds, rowCount, total: aggregate.summary.total },
    nav: checkCtx.nav,
    summary,
    status,
  });
  return { result: { nav: checkCtx.nav, summary, children: childIds }, next: [{ stage: 'visualization', fundRequestId: parentId }] };
}

/** What the work paper of an aggregate parent is built from. */
export interface AggregateWorkPaperSources {
  data: Aggregate['data'];
  aggregation: AggregationSummary;
  /** The children's audit adjustments in the parent's currency (`childAdjustments`), for its schedule. */
  adjustments: FundAdjustment[];
  /** The children's adjustment lines that do not fit their own data (`childUnapplied`): the parent's outcome is then 'Incomplete data'. */
  unapplied: UnappliedLine[];
}

/**
 * The combined data and the figures of a parent whose calculation file is an aggregate's (its
 * validation has `aggregation` figures per child), or null for any other fund.
 */
export async function aggregateWorkPaperSources(
  ctx: AppContext,
  parentId: number,
  validation: CalculationValidation,
): Promise<AggregateWorkPaperSources | null> {
  const stored = (validation as Partial<AggregateValidation>).aggregation;
  if (!stored || !('children' in stored)) return null;
  const aggregate = await combine(
    ctx,
    parentId,
    await childInputs(
      ctx,
      stored.children.map((c) => c.id),
      'all',
    ),
  );
  const adjustments: FundAdjustment[] = [];
  const unapplied: UnappliedLine[] = [];
  for (const c of aggregate.summary.children) {
    if (c.conversion.unitsPerParent === null) continue;
    const own = await fundAdjustments(ctx, c.id);
    adjustments.push(...childAdjustments(own, c.conversion.unitsPerParent, c.fundCode));
    // judged against the child's data as delivered, as the child's own work paper judges them
    if (own.length) unapplied.push(...childUnapplied(await unappliedLines(await loadFundData(ctx, c.id), own), c.fundCode));
  }
  return { data: aggregate.data, aggregation: aggregate.summary, adjustments, unapplied };
}

/** The standardization outcomes and mapping versions of several children, as one (files named with their fund code). */
export function mergeOutcomes(outcomes: Array<{ code: string; outcome: { standardization: StandardizedFile[]; mappings: MappingUsed[] } }>): {
  standardization: StandardizedFile[];
  mappings: MappingUsed[];
} {
  const mappings = new Map<string, MappingUsed>();
  for (const o of outcomes) for (const m of o.outcome.mappings) mappings.set(`${m.type}|${m.id}|${m.version}`, m);
  return {
    standardization: outcomes.flatMap((o) => o.outcome.standardization.map((s) => ({ ...s, file: `${o.code}: ${s.file}` }))),
    mappings: Array.from(mappings, ([, m]) => m),
  };
}
