/**
 * Test support: fund requests with a recorded history, written through the recording services the
 * pipeline and chasing use (delivery events, chase events), for the scorecard tests of the routes,
 * the CLI and the pages.
 */
import type { AppContext } from '../context.js';
import { storeOf } from '../db/dialect.js';
import { recordChaseEvent } from '../services/chasing/history.js';
import { recordChecksRun, recordFilesReceived } from '../services/delivery-events/record.js';
import { insertFund } from './fund-factory.js';

const DAY = 86_400_000;

/** The ISO date `n` days before today (UTC). */
export function daysAgo(n: number): string {
  return new Date(Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`) - n * DAY).toISOString().slice(0, 10);
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
  const { db, tables: t } = storeOf(ctx);
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
  for (const fileType of ['trial_balance', 'holdings']) {
    const [file] = await db
      .insert(t.fundFiles)
      .values({ fundRequestId: fund.id, kind: 'input', fileType, fileName: `${fileType}.csv`, status: 'assigned' })
      .returning();
    await recordFilesReceived(ctx, [{ fundRequestId: fund.id, fundFileId: file!.id, fileType, fileName: file!.fileName, importFileId: null }], { at });
    await db.insert(t.fundFiles).values({
      fundRequestId: fund.id,
      kind: 'standardization',
      sourceFileId: file!.id,
      fileType,
      fileName: `${fileType}.csv`,
      status: 'done',
      validationStatus: 'Valid',
      validation: { QA_Mapping: [], rowErrorsTotal: 0 },
    });
  }
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
  const { db, tables: t } = storeOf(ctx);
  const [chase] = await db
    .insert(t.chases)
    .values({
      fundRequestId: fund.id,
      administratorId: fund.administratorId,
      client: fund.client,
      reason: 'failed_check',
      key: 'failed_check:tb_balance',
      evidence: {},
      recipients: [],
    })
    .returning();
  const ref = { id: chase!.id, fundRequestId: fund.id, administratorId: fund.administratorId, client: fund.client, reason: 'failed_check' } as const;
  await recordChaseEvent(ctx, ref, 'scheduled', { at: sentAt });
  await recordChaseEvent(ctx, ref, 'sent', { at: sentAt });
  if (answeredAt) await recordChaseEvent(ctx, ref, 'answered', { at: answeredAt });
  return chase!.id;
}
