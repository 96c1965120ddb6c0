import { asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { orchestrationLogs, processes, trail } from '../../db/schema/index.js';
import { ValidationError } from '../../errors.js';
import { insertFund, insertProcess } from '../funds/test-factory.js';
import { createTestContext, type TestContext } from '../../testing.js';
import { listErrorLog, listOrchestrationLogs, logMessage } from './logs.js';
import { cancelFundProcess, listOngoingProcesses, listProcessesOfFund, resetFundProcess } from './process-actions.js';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestContext({ seedDemoData: false });
});
afterEach(() => ctx.dispose());

type LogInsert = typeof orchestrationLogs.$inferInsert;
const log = (fundRequestId: number, minute: number, entry: Partial<LogInsert> = {}) =>
  ctx.db
    .insert(orchestrationLogs)
    .values({
      fundRequestId,
      stage: 'standardization',
      status: 'success',
      payload: {},
      createdAt: `2025-03-01T10:${String(minute).padStart(2, '0')}:00.000Z`,
      ...entry,
    })
    .returning()
    .get().id;

describe('orchestration logs', () => {
  it("lists a fund's entries newest first with the spec fields, 200 per page", () => {
    const fund = insertFund(ctx);
    const other = insertFund(ctx);
    const first = log(fund.id, 1, { stage: 'identification', type: 'file', payload: { importFileId: 3 } });
    const second = log(fund.id, 2, { stage: 'calculations', status: 'error', subType: 'checks' });
    log(other.id, 3);
    const page = listOrchestrationLogs(ctx, { id: fund.id });
    expect(page.pagination).toEqual({ offset: 0, limit: 200, count: 2 });
    expect(page.rows).toEqual([
      { id: second, created_at: '2025-03-01T10:02:00.000Z', stage: 'calculations', status: 'error', type: null, sub_type: 'checks', payload: {} },
      {
        id: first,
        created_at: '2025-03-01T10:01:00.000Z',
        stage: 'identification',
        status: 'success',
        type: 'file',
        sub_type: null,
        payload: { importFileId: 3 },
      },
    ]);
  });

  it('pages, filters and sorts; drops View entries', () => {
    const fund = insertFund(ctx);
    const ids = Array.from({ length: 250 }, (_, i) =>
      log(fund.id, 0, { createdAt: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(), stage: i % 2 ? 'calculations' : 'standardization' }),
    );
    log(fund.id, 59, { type: 'View' });
    log(fund.id, 58, { payload: { action: 'View' } });
    const first = listOrchestrationLogs(ctx, { id: fund.id });
    expect(first.rows).toHaveLength(200);
    expect(first.pagination.count).toBe(250);
    expect(first.rows[0].id).toBe(ids[249]);
    const second = listOrchestrationLogs(ctx, { id: fund.id, offset: 200 });
    expect(second.rows.map((r) => r.id)).toEqual(ids.slice(0, 50).reverse());
    const calc = listOrchestrationLogs(ctx, { id: fund.id, filters: [{ field: 'stage', type: 'enum', value: ['calculations'] }], limit: 5 });
    expect(calc.pagination.count).toBe(125);
    expect(calc.rows.every((r) => r.stage === 'calculations')).toBe(true);
    expect(listOrchestrationLogs(ctx, { id: fund.id, sorting: [{ field: 'created_at', order: 'asc' }], limit: 1 }).rows[0].id).toBe(ids[0]);
    expect(() => listOrchestrationLogs(ctx, { id: fund.id, sorting: [{ field: 'colour', order: 'asc' }] })).toThrow(ValidationError);
  });

  it('404 for an unknown fund; an empty log is fine', () => {
    expect(() => listOrchestrationLogs(ctx, { id: 999 })).toThrow('No such fund request with id: 999');
    expect(listOrchestrationLogs(ctx, { id: insertFund(ctx).id }).rows).toEqual([]);
  });
});

describe('error log', () => {
  it('lists entries with status error or success with warnings, with the message from the payload and the raw payload', () => {
    const fund = insertFund(ctx);
    const err = log(fund.id, 1, { status: 'error', payload: { error: 'The TPA has no file layout for holdings' } });
    const warned = log(fund.id, 2, { stage: 'calculations', payload: { summary: { fail: 1 }, warnings: ['tb_balance: out by 10.00', 'nav: out by 2.00'] } });
    log(fund.id, 3, { payload: { warnings: [] } });
    log(fund.id, 4, { payload: { files: [] } });
    const invalid = log(fund.id, 5, { status: 'error', payload: { files: [], warnings: ['tb.csv: 2 unmapped code(s), 0 row error(s)'] } });
    const page = listErrorLog(ctx, { id: fund.id });
    expect(page.rows.map((r) => [r.id, r.message])).toEqual([
      [invalid, 'tb.csv: 2 unmapped code(s), 0 row error(s)'],
      [warned, 'tb_balance: out by 10.00; nav: out by 2.00'],
      [err, 'The TPA has no file layout for holdings'],
    ]);
    expect(page.rows[1]).toMatchObject({
      stage: 'calculations',
      status: 'success',
      warnings: ['tb_balance: out by 10.00', 'nav: out by 2.00'],
      payload: { summary: { fail: 1 } },
    });
    expect(page.pagination.count).toBe(3);
  });

  it('derives a message from error objects or falls back to the stage', () => {
    expect(logMessage({ stage: 'identification', status: 'error', payload: { errors: [{ sheet_name: 'S', error_message: 'No layout matches' }] } })).toBe(
      'No layout matches',
    );
    expect(logMessage({ stage: 'visualization', status: 'error', payload: {} })).toBe('visualization failed');
    expect(logMessage({ stage: 'calculations', status: 'success', payload: { warning: 'FX rate missing' } })).toBe('FX rate missing');
  });
});

describe('process actions', () => {
  const trailOf = (fundId: number) => ctx.db.select().from(trail).where(eq(trail.fundRequestId, fundId)).orderBy(asc(trail.id)).all();

  it('reset and cancel write trail entries with before/after status', () => {
    const fund = insertFund(ctx);
    const done = insertProcess(ctx, fund.id, 'calculations', 'running');
    const pending = insertProcess(ctx, fund.id, 'standardization', 'pending');
    expect(resetFundProcess(ctx, ctx.boot.admin, { id: done })).toMatchObject({ id: done, status: 'pending', force_run: true });
    expect(cancelFundProcess(ctx, ctx.boot.admin, { id: pending })).toMatchObject({ id: pending, status: 'suspended' });
    expect(trailOf(fund.id).map((t) => [t.action, t.before, t.after])).toEqual([
      [
        'process-reset',
        { id: done, stage: 'calculations', status: 'running', force_run: false },
        { id: done, stage: 'calculations', status: 'pending', force_run: true },
      ],
      [
        'process-cancel',
        { id: pending, stage: 'standardization', status: 'pending', force_run: false },
        { id: pending, stage: 'standardization', status: 'suspended', force_run: false },
      ],
    ]);
    expect(() => cancelFundProcess(ctx, ctx.boot.admin, { id: done + 100 })).toThrow(`No such process with id: ${done + 100}`);
  });

  it('a refused action writes no trail entry', () => {
    const fund = insertFund(ctx);
    const failed = insertProcess(ctx, fund.id, 'calculations', 'error');
    const finished = insertProcess(ctx, fund.id, 'visualization', 'done');
    expect(() => resetFundProcess(ctx, ctx.boot.admin, { id: failed })).toThrow(/is error; only pending or running processes can be reset/);
    expect(() => resetFundProcess(ctx, ctx.boot.admin, { id: finished })).toThrow(/is done; only pending or running/);
    expect(() => cancelFundProcess(ctx, ctx.boot.admin, { id: finished })).toThrow(/only pending or running/);
    expect(trailOf(fund.id)).toEqual([]);
  });

  it("lists a fund's processes newest first with a status filter, and the ongoing ones", () => {
    const fund = insertFund(ctx, { fundCode: 'ABC' });
    const a = insertProcess(ctx, fund.id, 'standardization', 'done');
    const b = insertProcess(ctx, fund.id, 'calculations', 'running');
    ctx.db.update(processes).set({ processAt: '2020-01-01T00:00:00.000Z' }).where(eq(processes.id, a)).run();
    expect(listProcessesOfFund(ctx, { id: fund.id }).rows.map((r) => r.id)).toEqual([b, a]);
    expect(listProcessesOfFund(ctx, { id: fund.id, filters: [{ field: 'status', type: 'enum', value: ['done'] }] }).rows.map((r) => r.id)).toEqual([a]);
    expect(() => listProcessesOfFund(ctx, { id: fund.id, filters: [{ field: 'status', type: 'enum', value: ['maybe'] }] })).toThrow(
      'Unknown process status: maybe',
    );
    expect(() => listProcessesOfFund(ctx, { id: 999 })).toThrow('No such fund request with id: 999');
    expect(listOngoingProcesses(ctx)).toMatchObject([{ id: b, fundCode: 'ABC', fundName: fund.name }]);
  });
});
