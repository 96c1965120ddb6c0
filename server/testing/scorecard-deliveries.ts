/**
 * Test support: fund requests with a recorded history, written through the recording services the
 * pipeline and chasing use (delivery events, chase events), for the scorecard tests of the routes,
 * the CLI and the pages.
 */
import type { ChaseReason } from '../../rules/chasing.js';
import type { AppContext } from '../context.js';
import { storeOf } from '../db/dialect.js';
import { recordChaseEvent, type ChaseRef } from '../services/chasing/history.js';
import { recordChecksRun, recordFilesReceived } from '../services/delivery-events/record.js';
import { insertFund } from './fund-factory.js';

const DAY = 86_400_000;

/** The ISO date `n` days before today (UTC). */
export function daysAgo(n: number): string {
  return new Date(Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`) - n * DAY).toISOString().slice(0, 10);
}

/**
 * One input file of a request received at `at` (ISO timestamp) and standardized: its input row
 * (`disabled`: marked not required), its `received` delivery event, and its standardization output,
 * valid or (`invalid`) with one mapping finding.
 * @returns the input file row
 */
export async function insertStandardizedInput(
  ctx: AppContext,
  fundRequestId: number,
  fileType: string,
  at: string,
  opts: { disabled?: boolean; invalid?: boolean } = {},
) {
  const { db, tables: t } = storeOf(ctx);
  const [file] = await db
    .insert(t.fundFiles)
    .values({ fundRequestId, kind: 'input', fileType, fileName: `${fileType}.csv`, status: 'assigned', disabled: opts.disabled ?? false })
    .returning();
  await recordFilesReceived(ctx, [{ fundRequestId, fundFileId: file!.id, fileType, fileName: file!.fileName, importFileId: null }], { at });
  await db.insert(t.fundFiles).values({
    fundRequestId,
    kind: 'standardization',
    sourceFileId: file!.id,
    fileType,
    fileName: `${fileType}.csv`,
    status: 'done',
    validationStatus: opts.invalid ? 'Invalid' : 'Valid',
    validation: { QA_Mapping: opts.invalid ? [{ name: 'X' }] : [], rowErrorsTotal: 0 },
  });
  return file!;
}

/**
 * A chase row of a request (no evidence, no recipients) with no state change recorded yet.
 * @returns the reference its chase events are recorded against
 */
export async function insertChase(
  ctx: AppContext,
  fund: { id: number; administratorId: number | null; client: string },
  reason: ChaseReason,
  key: string,
): Promise<ChaseRef> {
  const { db, tables: t } = storeOf(ctx);
  const [chase] = await db
    .insert(t.chases)
    .values({ fundRequestId: fund.id, administratorId: fund.administratorId, client: fund.client, reason, key, evidence: {}, recipients: [] })
    .returning();
  return { id: chase!.id, fundRequestId: fund.id, administratorId: fund.administratorId, client: fund.client, reason };
}

/**
 * A schedule-of-investments request (trial balance and holdings required), both files received
 * `lateBy` days after its data due date (negative: early) and standardized, its checks run an hour
 * later, passed or failed (`tb_balance`).
 * @returns the fund request row
 */
export async function insertDeliveredFund(
  ctx: AppContext,
  opts: { administratorId: number; client: string; dueDate: string; lateBy: number; passed: boolean; name?: string; fundCode?: string },
) {
  const fund = await insertFund(ctx, {
    administratorId: opts.administratorId,
    client: opts.client,
    dueDate: opts.dueDate,
    jobType: 'SOI_ONLY',
    status: 'Approved',
    ...(opts.name ? { name: opts.name } : {}),
    ...(opts.fundCode ? { fundCode: opts.fundCode } : {}),
  });
  const at = new Date(Date.parse(`${opts.dueDate}T10:00:00Z`) + opts.lateBy * DAY).toISOString();
  for (const fileType of ['trial_balance', 'holdings']) await insertStandardizedInput(ctx, fund.id, fileType, at);
  await recordChecksRun(ctx, fund.id, null, [{ check: 'tb_balance', status: opts.passed ? 'pass' : 'fail' }], {
    at: new Date(Date.parse(at) + 3_600_000).toISOString(),
  });
  return fund;
}

/** A failed-check chase of a request: opened and mailed at `sentAt`, answered at `answeredAt` when given (ISO timestamps). */
export async function insertAnsweredChase(
  ctx: AppContext,
  fund: { id: number; administratorId: number | null; client: string },
  sentAt: string,
  answeredAt?: string,
): Promise<number> {
  const ref = await insertChase(ctx, fund, 'failed_check', 'failed_check:tb_balance');
  await recordChaseEvent(ctx, ref, 'scheduled', { at: sentAt });
  await recordChaseEvent(ctx, ref, 'sent', { at: sentAt });
  if (answeredAt) await recordChaseEvent(ctx, ref, 'answered', { at: answeredAt });
  return ref.id;
}
