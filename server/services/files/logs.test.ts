import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { describeEachDialect, openDialectDatabase, type DialectDatabase } from '../../testing/dialects.js';
import type { orchestrationLogs } from '../../db/schema/index.js';
import { ValidationError } from '../../errors.js';
import { insertFund as insertFundOf } from '../../testing/fund-factory.js';
import { listErrorLog, listOrchestrationLogs, logMessage } from './logs.js';

type LogInsert = typeof orchestrationLogs.$inferInsert;

describeEachDialect('orchestration and error logs', (dialect) => {
  let database: DialectDatabase;
  let ctx: AppContext;
  beforeEach(async () => {
    database = await openDialectDatabase(dialect);
    ctx = database.ctx;
  });
  afterEach(() => database.dispose());

  const insertFund = () => insertFundOf(ctx);

  const log = async (fundRequestId: number, minute: number, entry: Partial<LogInsert> = {}) => {
    const { db, tables: t } = storeOf(ctx);
    const [row] = await db
      .insert(t.orchestrationLogs)
      .values({
        fundRequestId,
        stage: 'standardization',
        status: 'success',
        payload: {},
        createdAt: `2025-03-01T10:${String(minute).padStart(2, '0')}:00.000Z`,
        ...entry,
      })
      .returning();
    return row.id;
  };

  describe('orchestration logs', () => {
    it("lists a fund's entries newest first with the spec fields, 200 per page", async () => {
      const fund = await insertFund();
      const other = await insertFund();
      const first = await log(fund.id, 1, { stage: 'identification', type: 'file', payload: { importFileId: 3 } });
      const second = await log(fund.id, 2, { stage: 'calculations', status: 'error', subType: 'checks' });
      await log(other.id, 3);
      const page = await listOrchestrationLogs(ctx, { id: fund.id });
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

    it('pages, filters and sorts; drops View entries', async () => {
      const fund = await insertFund();
      const ids: number[] = [];
      for (let i = 0; i < 250; i++)
        ids.push(await log(fund.id, 0, { createdAt: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(), stage: i % 2 ? 'calculations' : 'standardization' }));
      await log(fund.id, 59, { type: 'View' });
      await log(fund.id, 58, { payload: { action: 'View' } });
      const first = await listOrchestrationLogs(ctx, { id: fund.id });
      expect(first.rows).toHaveLength(200);
      expect(first.pagination.count).toBe(250);
      expect(first.rows[0].id).toBe(ids[249]);
      const second = await listOrchestrationLogs(ctx, { id: fund.id, offset: 200 });
      expect(second.rows.map((r) => r.id)).toEqual(ids.slice(0, 50).reverse());
      const calc = await listOrchestrationLogs(ctx, { id: fund.id, filters: [{ field: 'stage', type: 'enum', value: ['calculations'] }], limit: 5 });
      expect(calc.pagination.count).toBe(125);
      expect(calc.rows.every((r) => r.stage === 'calculations')).toBe(true);
      expect((await listOrchestrationLogs(ctx, { id: fund.id, sorting: [{ field: 'created_at', order: 'asc' }], limit: 1 })).rows[0].id).toBe(ids[0]);
      await expect(listOrchestrationLogs(ctx, { id: fund.id, sorting: [{ field: 'colour', order: 'asc' }] })).rejects.toThrow(ValidationError);
    });

    it('404 for an unknown fund; an empty log is fine', async () => {
      await expect(listOrchestrationLogs(ctx, { id: 999 })).rejects.toThrow('No such fund request with id: 999');
      expect((await listOrchestrationLogs(ctx, { id: (await insertFund()).id })).rows).toEqual([]);
    });
  });

  describe('error log', () => {
    it('lists entries with status error or success with warnings, with the message from the payload and the raw payload', async () => {
      const fund = await insertFund();
      const err = await log(fund.id, 1, { status: 'error', payload: { error: 'The TPA has no file layout for holdings' } });
      const warned = await log(fund.id, 2, {
        stage: 'calculations',
        payload: { summary: { fail: 1 }, warnings: ['tb_balance: out by 10.00', 'nav: out by 2.00'] },
      });
      await log(fund.id, 3, { payload: { warnings: [] } });
      await log(fund.id, 4, { payload: { files: [] } });
      const invalid = await log(fund.id, 5, { status: 'error', payload: { files: [], warnings: ['tb.csv: 2 unmapped code(s), 0 row error(s)'] } });
      const page = await listErrorLog(ctx, { id: fund.id });
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
      // a warning text counts; a warning that is not a text does not
      const text = await log(fund.id, 6, { payload: { warning: 'FX rate missing' } });
      await log(fund.id, 7, { payload: { warning: 3 } });
      const again = await listErrorLog(ctx, { id: fund.id });
      expect(again.rows.map((r) => [r.id, r.message])[0]).toEqual([text, 'FX rate missing']);
      expect(again.pagination.count).toBe(4);
    });

    it('derives a message from error objects or falls back to the stage', async () => {
      expect(logMessage({ stage: 'identification', status: 'error', payload: { errors: [{ sheet_name: 'S', error_message: 'No layout matches' }] } })).toBe(
        'No layout matches',
      );
      expect(logMessage({ stage: 'visualization', status: 'error', payload: {} })).toBe('visualization failed');
      expect(logMessage({ stage: 'calculations', status: 'success', payload: { warning: 'FX rate missing' } })).toBe('FX rate missing');
    });
  });
});
