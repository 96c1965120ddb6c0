/**
 * A fund's data as its checks read it (DOMAIN.md 2.4): the rows of its current standardization
 * files, streamed from the database, and the context of its checks (NAV, materiality, the
 * independent FX rates at its period end). The calculations, aggregation and visualization stages
 * and the test runner's cases read the same.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { countSdmRows, readSdmChunks } from '../../db/sdm-store.js';
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
import type { CheckContext } from '../../../pipeline/checks/index.js';
import { materiality, navFromTrialBalance } from '../../../pipeline/checks/materiality.js';
import { independentRatesAt } from '../../services/reference-data/fx-rates.js';
import { currentInputs, loadFund } from './common.js';

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
