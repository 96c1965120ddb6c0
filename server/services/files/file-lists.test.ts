import { asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importFiles, sweptFiles, trail, unidentifiedFiles, unmatchedFiles } from '../../db/schema/index.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { AppEvents } from '../../events.js';
import { insertAdministrator, insertFund } from '../funds/test-factory.js';
import { addUser } from '../users/users.js';
import { createTestContext, type TestContext } from '../../testing.js';
import { assignFiles, listUnidentified, listUnmatched, removeIssueFiles, setFileAction } from './file-lists.js';

let ctx: TestContext;
let tpa: number;
let events: AppEvents['file'][];
beforeEach(async () => {
  ctx = await createTestContext({ seedDemoData: false });
  tpa = insertAdministrator(ctx, 'alpha', 'Alpha Admin');
  events = [];
  ctx.events.on('file', (e) => events.push(e));
});
afterEach(() => ctx.dispose());

const user = () => ctx.boot.admin;
const importOf = (fileName: string) =>
  ctx.db
    .insert(importFiles)
    .values({ administratorId: tpa, fileName, sha256: `sha-${fileName}`, size: 10, status: 'Error' })
    .returning()
    .get().id;
const SHEET_ERROR = {
  sheet_name: 'Sheet1',
  error_code: 'NO_LAYOUT',
  error_message: 'No file layout matches',
  columns_missing: ['balance_base'],
  closest_match: 'trial_balance',
  column_match_percent: 83.3,
};

function unidentified(fileName: string, createdAt: string, extra: Partial<typeof unidentifiedFiles.$inferInsert> = {}) {
  return ctx.db
    .insert(unidentifiedFiles)
    .values({ importFileId: importOf(fileName), fileName, administratorId: tpa, errors: [SHEET_ERROR], createdAt, ...extra })
    .returning()
    .get().id;
}
const trailRows = () => ctx.db.select().from(trail).orderBy(asc(trail.id)).all();

describe('unidentified files', () => {
  it('lists newest first with the spec fields, TPA and assignee names and source paths', () => {
    const swept = unidentified('swept.csv', '2025-01-02T10:00:00.000Z');
    const older = unidentified('older.csv', '2025-01-01T10:00:00.000Z', { errors: ['not a table'] });
    const importId = ctx.db.select().from(unidentifiedFiles).where(eq(unidentifiedFiles.id, swept)).get()!.importFileId!;
    ctx.db
      .insert(sweptFiles)
      .values({ originalFileName: 'swept.csv', administratorId: tpa, importFileId: importId, filePathOnMoveit: '/inbox/alpha/swept.csv' })
      .run();
    const bob = addUser(ctx, { email: 'bob@example.com', name: 'Bob Stone', role: 'DeliveryTeamMember' });
    assignFiles(ctx, user(), 'unidentified', { ids: [swept], userId: bob.id });
    const page = listUnidentified(ctx);
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

  it('pages, filters by action and assignee, and sorts', () => {
    const ids = Array.from({ length: 5 }, (_, i) => unidentified(`f${i}.csv`, `2025-01-0${i + 1}T00:00:00.000Z`));
    setFileAction(ctx, user(), 'unidentified', { ids: [ids[0], ids[1]], action: 'Ignored' });
    expect(listUnidentified(ctx, { offset: 1, limit: 2 })).toMatchObject({
      rows: [{ id: ids[3] }, { id: ids[2] }],
      pagination: { offset: 1, limit: 2, count: 5 },
    });
    expect(listUnidentified(ctx, { filters: [{ field: 'action', type: 'enum', value: ['Ignored'] }] }).rows.map((r) => r.id)).toEqual([ids[1], ids[0]]);
    expect(listUnidentified(ctx, { filters: [{ field: 'action', type: 'enum', value: ['Unidentified'] }] }).pagination.count).toBe(3);
    expect(listUnidentified(ctx, { sorting: [{ field: 'file_name', order: 'asc' }] }).rows[0].file_name).toBe('f0.csv');
    expect(listUnidentified(ctx, { filters: { tpa: { type: 'text', value: 'alpha' } } }).pagination.count).toBe(5);
    expect(() => listUnidentified(ctx, { filters: [{ field: 'colour', type: 'text', value: 'x' }] })).toThrow('Unknown filter field: colour');
  });

  it('an empty list is fine', () => {
    expect(listUnidentified(ctx)).toEqual({ rows: [], pagination: { offset: 0, limit: 200, count: 0 } });
    expect(listUnmatched(ctx)).toEqual({ rows: [], pagination: { offset: 0, limit: 200, count: 0 } });
  });

  it('assigns to an existing user only, with trail and event; clears with null', () => {
    const id = unidentified('a.csv', '2025-01-01T00:00:00.000Z');
    expect(() => assignFiles(ctx, user(), 'unidentified', { ids: [id], userId: 4321 })).toThrow(new NotFoundError('No such user with id: 4321'));
    expect(() => assignFiles(ctx, user(), 'unidentified', { ids: [id, 999], userId: user().id })).toThrow('No such file with id: 999');
    expect(trailRows()).toEqual([]);
    expect(assignFiles(ctx, user(), 'unidentified', { ids: [id], userId: user().id })).toEqual({ ids: [id], userId: user().id });
    assignFiles(ctx, user(), 'unidentified', { ids: [id], userId: null });
    expect(trailRows().map((t) => [t.action, t.fundRequestId, t.before, t.after])).toEqual([
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

  it('sets only the issue resolution states and removes rows, keeping the imported file', () => {
    const id = unidentified('a.csv', '2025-01-01T00:00:00.000Z');
    for (const action of ['Re-requested', 'Ignored', 'Manually handled', 'Closed', 'Unidentified'] as const) {
      setFileAction(ctx, user(), 'unidentified', { ids: [id], action });
      expect(listUnidentified(ctx).rows[0].action).toBe(action);
    }
    expect(() => setFileAction(ctx, user(), 'unidentified', { ids: [id], action: 'Done' as never })).toThrow(ValidationError);
    expect(trailRows().at(-1)).toMatchObject({ action: 'unidentified-file-action', before: { action: 'Closed' }, after: { action: 'Unidentified' } });
    const importId = ctx.db.select().from(unidentifiedFiles).get()!.importFileId!;
    expect(removeIssueFiles(ctx, user(), 'unidentified', { ids: [id] })).toEqual({ removed: [id] });
    expect(listUnidentified(ctx).rows).toEqual([]);
    expect(ctx.db.select().from(importFiles).where(eq(importFiles.id, importId)).get()).toBeDefined();
    expect(trailRows().at(-1)).toMatchObject({ action: 'unidentified-file-remove', before: { id, file_name: 'a.csv', action: 'Unidentified' }, after: null });
    expect(events.at(-1)).toMatchObject({ id, status: 'removed' });
    expect(() => removeIssueFiles(ctx, user(), 'unidentified', { ids: [id] })).toThrow(`No such file with id: ${id}`);
  });
});

describe('unmatched files', () => {
  it('lists with file type, fund code, fund and payload; actions write the trail on the fund when known', () => {
    const fund = insertFund(ctx, { administratorId: tpa });
    const a = ctx.db
      .insert(unmatchedFiles)
      .values({
        importFileId: importOf('tb.csv'),
        fileName: 'tb.csv',
        fileType: 'trial_balance',
        fundCode: 'ZZ1',
        administratorId: tpa,
        payload: { asOf: '2024-12-31', rows: 10, reason: 'No fund request of this TPA has fund code ZZ1' },
        createdAt: '2025-02-01T00:00:00.000Z',
      })
      .returning()
      .get().id;
    const b = ctx.db
      .insert(unmatchedFiles)
      .values({ fileName: 'h.csv', fileType: 'holdings', fundCode: 'F1', fundId: fund.id, administratorId: tpa, createdAt: '2025-02-02T00:00:00.000Z' })
      .returning()
      .get().id;
    const page = listUnmatched(ctx);
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
    expect(listUnmatched(ctx, { filters: [{ field: 'file_type', type: 'enum', value: ['holdings'] }] }).rows.map((r) => r.id)).toEqual([b]);
    setFileAction(ctx, user(), 'unmatched', { ids: [a, b], action: 'Re-requested' });
    expect(trailRows().map((t) => [t.action, t.fundRequestId])).toEqual([
      ['unmatched-file-action', null],
      ['unmatched-file-action', fund.id],
    ]);
    expect(events.map((e) => [e.kind, e.status, e.fundRequestId])).toEqual([
      ['unmatched', 'Re-requested', null],
      ['unmatched', 'Re-requested', fund.id],
    ]);
    expect(() => setFileAction(ctx, user(), 'unidentified', { ids: [a], action: 'Closed' })).toThrow(`No such file with id: ${a}`);
    removeIssueFiles(ctx, user(), 'unmatched', { ids: [a, b] });
    expect(listUnmatched(ctx).pagination.count).toBe(0);
  });
});
