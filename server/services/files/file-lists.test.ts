import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { describeEachDialect } from '../../testing/dialects.js';
import type { unidentifiedFiles } from '../../db/schema/index.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { AppEvents } from '../../events.js';
import type { User } from '../auth/tokens.js';
import { insertAdministrator, insertFund } from '../../testing/fund-factory.js';
import { insertUser, openFundTestDatabase, trailOf, type FundTestDatabase } from '../../testing/fund-setup.js';
import { assignFiles, listUnidentified, listUnmatched, removeIssueFiles, setFileAction } from './file-lists.js';

describeEachDialect('input file issue lists', (dialect) => {
  let database: FundTestDatabase;
  let ctx: AppContext;
  let tpa: number;
  let admin: User;
  let events: AppEvents['file'][];
  beforeEach(async () => {
    database = await openFundTestDatabase(dialect);
    ({ ctx, admin, events } = database);
    tpa = await insertAdministrator(ctx, 'alpha', 'Alpha Admin');
  });
  afterEach(() => database.dispose());

  const user = () => admin;
  const importOf = async (fileName: string) => {
    const { db, tables: t } = storeOf(ctx);
    const [row] = await db
      .insert(t.importFiles)
      .values({ administratorId: tpa, fileName, sha256: `sha-${fileName}`, size: 10, status: 'Error' })
      .returning();
    return row.id;
  };
  const SHEET_ERROR = {
    sheet_name: 'Sheet1',
    error_code: 'NO_LAYOUT',
    error_message: 'No file layout matches',
    columns_missing: ['balance_base'],
    closest_match: 'trial_balance',
    column_match_percent: 83.3,
  };

  async function unidentified(fileName: string, createdAt: string, extra: Partial<typeof unidentifiedFiles.$inferInsert> = {}) {
    const { db, tables: t } = storeOf(ctx);
    const [row] = await db
      .insert(t.unidentifiedFiles)
      .values({ importFileId: await importOf(fileName), fileName, administratorId: tpa, errors: [SHEET_ERROR], createdAt, ...extra })
      .returning();
    return row.id;
  }
  const trailRows = () => trailOf(ctx);

  describe('unidentified files', () => {
    it('lists newest first with the spec fields, TPA and assignee names and source paths', async () => {
      const swept = await unidentified('swept.csv', '2025-01-02T10:00:00.000Z');
      const older = await unidentified('older.csv', '2025-01-01T10:00:00.000Z', { errors: ['not a table'] });
      const { db, tables: t } = storeOf(ctx);
      const [{ importFileId }] = await db.select().from(t.unidentifiedFiles).where(eq(t.unidentifiedFiles.id, swept));
      const importId = importFileId!;
      await db
        .insert(t.sweptFiles)
        .values({ originalFileName: 'swept.csv', administratorId: tpa, importFileId: importId, filePathOnMoveit: '/inbox/alpha/swept.csv' });
      const bob = await insertUser(ctx, { email: 'bob@example.com', firstName: 'Bob', lastName: 'Stone' });
      await assignFiles(ctx, user(), 'unidentified', { ids: [swept], userId: bob.id });
      const page = await listUnidentified(ctx);
      expect(page.pagination).toEqual({ offset: 0, limit: 200, count: 2 });
      expect(page.rows.map((r) => r.id)).toEqual([swept, older]);
      expect(page.rows[0]).toEqual({
        id: swept,
        file_name: 'swept.csv',
        tpa_id: tpa,
        tpa: 'Alpha Admin',
        assignedToId: bob.id,
        assignedTo: 'Bob Stone',
        action: 'Unidentified',
        import_file_id: importId,
        source_file_paths: ['/inbox/alpha/swept.csv'],
        user_auth_id: null,
        timestamp: '2025-01-02T10:00:00.000Z',
        errors: [SHEET_ERROR],
      });
      expect(page.rows[1]).toMatchObject({
        source_file_paths: ['older.csv'],
        assignedTo: null,
        errors: [{ sheet_name: null, error_code: null, error_message: 'not a table', columns_missing: [], closest_match: null, column_match_percent: null }],
      });
    });

    it('pages, filters by action and assignee, and sorts', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) ids.push(await unidentified(`f${i}.csv`, `2025-01-0${i + 1}T00:00:00.000Z`));
      await setFileAction(ctx, user(), 'unidentified', { ids: [ids[0], ids[1]], action: 'Ignored' });
      expect(await listUnidentified(ctx, { offset: 1, limit: 2 })).toMatchObject({
        rows: [{ id: ids[3] }, { id: ids[2] }],
        pagination: { offset: 1, limit: 2, count: 5 },
      });
      expect((await listUnidentified(ctx, { filters: [{ field: 'action', type: 'enum', value: ['Ignored'] }] })).rows.map((r) => r.id)).toEqual([
        ids[1],
        ids[0],
      ]);
      expect((await listUnidentified(ctx, { filters: [{ field: 'action', type: 'enum', value: ['Unidentified'] }] })).pagination.count).toBe(3);
      expect((await listUnidentified(ctx, { sorting: [{ field: 'file_name', order: 'asc' }] })).rows[0].file_name).toBe('f0.csv');
      expect((await listUnidentified(ctx, { filters: { tpa: { type: 'text', value: 'alpha' } } })).pagination.count).toBe(5);
      await expect(listUnidentified(ctx, { filters: [{ field: 'colour', type: 'text', value: 'x' }] })).rejects.toThrow('Unknown filter field: colour');
    });

    it('an empty list is fine', async () => {
      expect(await listUnidentified(ctx)).toEqual({ rows: [], pagination: { offset: 0, limit: 200, count: 0 } });
      expect(await listUnmatched(ctx)).toEqual({ rows: [], pagination: { offset: 0, limit: 200, count: 0 } });
    });

    it('assigns to an existing user only, with trail and event; clears with null', async () => {
      const id = await unidentified('a.csv', '2025-01-01T00:00:00.000Z');
      await expect(assignFiles(ctx, user(), 'unidentified', { ids: [id], userId: 4321 })).rejects.toThrow(new NotFoundError('No such user with id: 4321'));
      await expect(assignFiles(ctx, user(), 'unidentified', { ids: [id, 999], userId: user().id })).rejects.toThrow('No such file with id: 999');
      expect(await trailRows()).toEqual([]);
      expect(await assignFiles(ctx, user(), 'unidentified', { ids: [id], userId: user().id })).toEqual({ ids: [id], userId: user().id });
      await assignFiles(ctx, user(), 'unidentified', { ids: [id], userId: null });
      expect((await trailRows()).map((t) => [t.action, t.fundRequestId, t.before, t.after])).toEqual([
        [
          'unidentified-file-assign',
          null,
          { kind: 'unidentified', id, file_name: 'a.csv', assignedToId: null },
          { kind: 'unidentified', id, file_name: 'a.csv', assignedToId: user().id },
        ],
        [
          'unidentified-file-assign',
          null,
          { kind: 'unidentified', id, file_name: 'a.csv', assignedToId: user().id },
          { kind: 'unidentified', id, file_name: 'a.csv', assignedToId: null },
        ],
      ]);
      expect(events[0]).toEqual({ id, fundRequestId: null, kind: 'unidentified', status: 'Unidentified', fileName: 'a.csv' });
    });

    it('sets only the issue resolution states and removes rows, keeping the imported file', async () => {
      const id = await unidentified('a.csv', '2025-01-01T00:00:00.000Z');
      for (const action of ['Re-requested', 'Ignored', 'Manually handled', 'Closed', 'Unidentified'] as const) {
        await setFileAction(ctx, user(), 'unidentified', { ids: [id], action });
        expect((await listUnidentified(ctx)).rows[0].action).toBe(action);
      }
      await expect(setFileAction(ctx, user(), 'unidentified', { ids: [id], action: 'Done' as never })).rejects.toThrow(ValidationError);
      expect((await trailRows()).at(-1)).toMatchObject({ action: 'unidentified-file-action', before: { action: 'Closed' }, after: { action: 'Unidentified' } });
      const { db, tables: t } = storeOf(ctx);
      const [{ importFileId: importId }] = await db.select().from(t.unidentifiedFiles);
      expect(await removeIssueFiles(ctx, user(), 'unidentified', { ids: [id] })).toEqual({ removed: [id] });
      expect((await listUnidentified(ctx)).rows).toEqual([]);
      expect(await db.select().from(t.importFiles).where(eq(t.importFiles.id, importId!))).toHaveLength(1);
      expect((await trailRows()).at(-1)).toMatchObject({
        action: 'unidentified-file-remove',
        before: { id, file_name: 'a.csv', action: 'Unidentified' },
        after: null,
      });
      expect(events.at(-1)).toMatchObject({ id, status: 'removed' });
      await expect(removeIssueFiles(ctx, user(), 'unidentified', { ids: [id] })).rejects.toThrow(`No such file with id: ${id}`);
    });
  });

  describe('unmatched files', () => {
    it('lists with file type, fund code, fund and payload; actions write the trail on the fund when known', async () => {
      const { db, tables: t } = storeOf(ctx);
      const fund = await insertFund(ctx, { name: 'Fund 1', administratorId: tpa });
      const [{ id: a }] = await db
        .insert(t.unmatchedFiles)
        .values({
          importFileId: await importOf('tb.csv'),
          fileName: 'tb.csv',
          fileType: 'trial_balance',
          fundCode: 'ZZ1',
          administratorId: tpa,
          payload: { asOf: '2024-12-31', rows: 10, reason: 'No fund request of this TPA has fund code ZZ1' },
          createdAt: '2025-02-01T00:00:00.000Z',
        })
        .returning();
      const [{ id: b }] = await db
        .insert(t.unmatchedFiles)
        .values({ fileName: 'h.csv', fileType: 'holdings', fundCode: 'F1', fundId: fund.id, administratorId: tpa, createdAt: '2025-02-02T00:00:00.000Z' })
        .returning();
      const page = await listUnmatched(ctx);
      expect(page.rows.map((r) => r.id)).toEqual([b, a]);
      expect(page.rows[1]).toMatchObject({
        file_name: 'tb.csv',
        file_type: 'trial_balance',
        fund_code: 'ZZ1',
        fund_id: null,
        tpa: 'Alpha Admin',
        action: 'Unidentified',
        source_file_paths: ['tb.csv'],
        payload: { rows: 10 },
      });
      expect(page.rows[0]).toMatchObject({ fund_id: fund.id, source_file_paths: [], payload: {} });
      expect('errors' in page.rows[0]).toBe(false);
      expect((await listUnmatched(ctx, { filters: [{ field: 'file_type', type: 'enum', value: ['holdings'] }] })).rows.map((r) => r.id)).toEqual([b]);
      await setFileAction(ctx, user(), 'unmatched', { ids: [a, b], action: 'Re-requested' });
      expect((await trailRows()).map((t) => [t.action, t.fundRequestId])).toEqual([
        ['unmatched-file-action', null],
        ['unmatched-file-action', fund.id],
      ]);
      expect(events.map((e) => [e.kind, e.status, e.fundRequestId])).toEqual([
        ['unmatched', 'Re-requested', null],
        ['unmatched', 'Re-requested', fund.id],
      ]);
      await expect(setFileAction(ctx, user(), 'unidentified', { ids: [a], action: 'Closed' })).rejects.toThrow(`No such file with id: ${a}`);
      await removeIssueFiles(ctx, user(), 'unmatched', { ids: [a, b] });
      expect((await listUnmatched(ctx)).pagination.count).toBe(0);
    });
  });
});
