/**
 * The calculations job (DOMAIN.md 2.4): loads a fund's standardized rows, computes NAV and the
 * materiality amounts from its PM / TE / SAD, runs every audit check against independent FX rates
 * (`<data dir>/reference/fx/*.csv`, ECB-derived units per base currency), and stores the QA_Rec
 * items as the fund's calculation file. Queues visualization.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../server/context.js';
import { fundFiles, sdmRows } from '../../server/db/schema/index.js';
import { STANDARD_ACCOUNTS } from '../sdm/model.js';
import type { FundSdmData, FxRate } from '../sdm/rows.js';
import { runChecks } from '../checks/index.js';
import { parseFxCsv } from '../checks/fx.js';
import { materiality, navFromTrialBalance } from '../checks/materiality.js';
import type { StageHandler } from '../engine.js';
import { currentInputs, loadFund, logStage, publishFile } from './common.js';

/** Folder of independent FX rate files in a data directory. */
export const fxDir = (ctx: AppContext) => join(ctx.config.dataDir, 'reference', 'fx');

/** Every independent FX rate available to the checks, as units per one unit of `base` (the fund currency). */
export function loadFxRates(ctx: AppContext, base: string): FxRate[] {
  const dir = fxDir(ctx);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.csv')).flatMap((f) => parseFxCsv(readFileSync(join(dir, f), 'utf8'), base, f));
}

/** Loads the SDM rows of a fund's current standardization files (rows come back in file order). */
export function loadFundData(ctx: AppContext, fundRequestId: number): FundSdmData {
  const inputs = currentInputs(ctx, fundRequestId).map((i) => i.id);
  const data: FundSdmData = { trial_balance: [], holdings: [], transactions: [], share_capital: [], prices: [] };
  if (!inputs.length) return data;
  const files = ctx.db.select().from(fundFiles).where(and(eq(fundFiles.kind, 'standardization'), inArray(fundFiles.sourceFileId, inputs))).all();
  const stmt = ctx.sqlite.prepare('SELECT sdm_type, data FROM sdm_rows WHERE fund_file_id = ? ORDER BY line');
  for (const f of files) {
    for (const r of stmt.iterate(f.id) as Iterable<{ sdm_type: keyof FundSdmData; data: string }>) (data[r.sdm_type] as unknown[])?.push(JSON.parse(r.data));
  }
  return data;
}

export const calculationsJob: StageHandler = async (ctx, job) => {
  const fundRequestId = job.fundRequestId!;
  const { fund, admin, code } = loadFund(ctx, fundRequestId);
  const data = loadFundData(ctx, fundRequestId);
  const nav = navFromTrialBalance(data.trial_balance, STANDARD_ACCOUNTS);
  const amounts = materiality({ nav, pm: fund.pm ?? 0, te: fund.te ?? 0, sad: fund.sad ?? 0 });
  const checks = runChecks(data, {
    fundCode: code, periodEnd: fund.periodEnd ?? '', currency: fund.currency ?? 'USD', materiality: amounts, nav,
    fxRates: loadFxRates(ctx, fund.currency ?? 'USD'), externalValuations: fund.externalValuations === 'Y', accountClasses: STANDARD_ACCOUNTS,
    administrator: admin?.name,
  });
  const validation = { QA_Rec: checks.items, summary: checks.summary, status: checks.status, nav, materiality: amounts, rowCounts: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, v.length])) };
  const file = ctx.db.transaction((tx) => {
    tx.delete(fundFiles).where(and(eq(fundFiles.fundRequestId, fundRequestId), eq(fundFiles.kind, 'calculation'))).run();
    return tx.insert(fundFiles).values({
      fundRequestId, kind: 'calculation', fileType: 'calculations', fileName: `calculations.json`, status: 'done',
      rowCount: checks.items.length, validationStatus: checks.status === 'fail' ? 'Invalid' : 'Valid', validation,
    }).returning().get();
  });
  publishFile(ctx, file);
  logStage(ctx, fundRequestId, 'calculations', 'success', { nav, summary: checks.summary, status: checks.status, ...(checks.summary.fail || checks.summary.warning ? { warnings: checks.items.filter((i) => i.status !== 'pass').slice(0, 20).map((i) => `${i.check}: ${i.message}`) } : {}) });
  return { result: { nav, summary: checks.summary }, next: [{ stage: 'visualization', fundRequestId }] };
};
