/**
 * Scorecards for requests: the services of scorecard.ts, funds.ts and xlsx.ts with their work in a
 * request pool (server/threads/pools.ts), so the thread serving requests never adds up a
 * scorecard's buckets or reads events for stale ones: figures and the drill-down in the read pool,
 * the xlsx export in the parse pool. A PostgreSQL context made without a `databaseUrl` runs them
 * on the calling thread (as `off-thread.ts` of the fund listing does).
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import type { AppContext } from '../../context.js';
import { baseStoreOf } from '../../db/dialect.js';
import { runTask } from '../pools.js';
import { scorecardFunds, type ScorecardFundPage, type ScorecardFundsInput } from '../../services/scorecards/funds.js';
import { scorecard, type Scorecard, type ScorecardInput, type Viewer } from '../../services/scorecards/scorecard.js';
import { scorecardWorkbook, type ScorecardWorkbook } from '../../services/scorecards/xlsx.js';

const pooled = (ctx: AppContext) => baseStoreOf(ctx).dialect === 'sqlite' || !!ctx.config.databaseUrl;

/** `scorecard` answered by the read pool. @throws as `scorecard` */
export function scorecardOffThread(ctx: AppContext, input: ScorecardInput, viewer: Viewer | null): Promise<Scorecard> {
  if (!pooled(ctx)) return scorecard(ctx, input, viewer);
  return runTask(ctx, 'read', 'scorecards.card', [input, viewer]);
}

/** `scorecardFunds` answered by the read pool. @throws as `scorecardFunds` */
export function scorecardFundsOffThread(ctx: AppContext, input: ScorecardFundsInput, viewer: Viewer | null): Promise<ScorecardFundPage> {
  if (!pooled(ctx)) return scorecardFunds(ctx, input, viewer);
  return runTask(ctx, 'read', 'scorecards.funds', [input, viewer]);
}

/** `scorecardWorkbook` built in the parse pool. @throws as `scorecardWorkbook` */
export async function scorecardWorkbookOffThread(ctx: AppContext, input: ScorecardInput, viewer: Viewer | null): Promise<ScorecardWorkbook> {
  if (!pooled(ctx)) return scorecardWorkbook(ctx, input, viewer);
  const file = await runTask(ctx, 'parse', 'scorecards.xlsx', [input, viewer]);
  return { ...file, bytes: Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength) };
}
