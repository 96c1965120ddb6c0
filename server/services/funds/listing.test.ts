import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureFixedFilters } from '../setup/prepare.js';
import type { AppContext } from '../../context.js';
import { describeEachDialect, openDialectDatabase, type DialectDatabase } from '../../testing/dialects.js';
import { storeOf } from '../../db/dialect.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { User } from '../auth/tokens.js';
import { listFunds, listFundsForAuditor, type ListingInput } from './listing.js';
import { daysFromToday, insertAdministrator, insertFund, insertFundFile, insertProcess } from '../../testing/fund-factory.js';

/** A user row for a test database (the databases of these tests are not bootstrapped). */
async function insertUser(ctx: AppContext, email: string, firstName: string, lastName: string): Promise<User> {
  const { db, tables: t } = storeOf(ctx);
  const [user] = await db
    .insert(t.users)
    .values({ email, username: email.split('@')[0]!, firstName, lastName, role: 'DeliveryTeamMember', originalRole: 'DeliveryTeamMember' })
    .returning();
  return user as User;
}

describeEachDialect('fund listings', (dialect) => {
  let database: DialectDatabase;
  let ctx: AppContext;
  let member: User;
  const ids: Record<string, number> = {};
  const list = (input: ListingInput) => listFunds(ctx, member, input);
  const names = async (input: ListingInput) => (await list(input)).rows.map((r) => r.name);

  beforeAll(async () => {
    database = await openDialectDatabase(dialect);
    ctx = database.ctx;
    await ensureFixedFilters(ctx);
    member = await insertUser(ctx, 'member@example.com', 'Mia', 'Member');
    const alpha = await insertAdministrator(ctx, 'alpha_fs', 'Alpha Fund Services');
    const beta = await insertAdministrator(ctx, 'beta_admin', 'Beta Admin');
    const creator = await insertUser(ctx, 'c@example.com', 'Cora', 'Creator');
    ids.a = (
      await insertFund(ctx, {
        name: 'Atlas Equity',
        client: 'Orion Capital',
        status: 'Approved',
        administratorId: alpha,
        requestDate: '2025-01-10',
        periodEnd: '2024-12-31',
        dueDate: '2025-02-01',
        pm: 5,
        country: 'LU',
        fundCode: 'ATL01',
        alternateCodes: ['XQ-77'],
        createdById: creator.id,
      })
    ).id;
    ids.b = (
      await insertFund(ctx, {
        name: 'Boreal Bond',
        client: 'Orion Capital',
        status: 'Pending',
        administratorId: beta,
        requestDate: '2025-03-05',
        periodEnd: '2025-03-31',
        dueDate: '2025-04-15',
        pm: 2,
        country: 'IE',
        fundCode: 'BOR02',
      })
    ).id;
    ids.c = (
      await insertFund(ctx, {
        name: 'Cygnus 100% Growth_',
        client: 'Helix Partners',
        status: 'Completed - Fund Closed',
        administratorId: alpha,
        requestDate: '2025-03-05',
        periodEnd: '2025-06-30',
        dueDate: daysFromToday(-3),
        pm: 8,
        country: 'LU',
        fundCode: 'CYG03',
        jobType: 'SOI_ONLY',
        rerunCount: 1,
      })
    ).id;
    ids.d = (await insertFund(ctx, { name: 'Deleted Delta', client: 'Helix Partners', status: 'Deleted', requestDate: '2025-05-01', fundCode: 'DEL04' })).id;
    ids.e = (
      await insertFund(ctx, {
        name: 'Child Echo',
        client: 'Helix Partners',
        status: 'Paused',
        parentId: ids.a,
        requestDate: '2024-11-11',
        periodEnd: '2025-09-30',
        pm: 12,
        fundCode: 'ECH05',
        dataRequestStatus: 'Chased1',
      })
    ).id;
  });
  afterAll(() => database.dispose());

  describe('fund listing', () => {
    it('lists funds not deleted, newest request first then id, with pagination count', async () => {
      const r = await list({});
      expect(r.rows.map((x) => x.id)).toEqual([ids.c, ids.b, ids.a, ids.e]);
      expect(r.pagination).toEqual({ offset: 0, limit: 100, count: 4, countCapped: false, next: null, previous: null });
      const page = await list({ offset: 1, pagination: { limit: 2 } });
      expect(page.rows.map((x) => x.id)).toEqual([ids.b, ids.a]);
      expect(page.pagination).toMatchObject({ offset: 1, limit: 2, count: 4, countCapped: false });
      expect((await list({ offset: 10, pagination: { limit: 2 } })).pagination.count).toBe(4);
    });

    it('returns the listing row fields of the spec', async () => {
      const row = (await list({ search: 'atlas' })).rows[0];
      expect(row).toMatchObject({
        id: ids.a,
        name: 'Atlas Equity',
        client: 'Orion Capital',
        fundCode: 'ATL01',
        alternateCodes: ['XQ-77'],
        status: 'Approved',
        statusLabel: 'Open',
        administrator: 'Alpha Fund Services',
        administratorCode: 'alpha_fs',
        requestDate: '2025-01-10',
        period_end: '2024-12-31',
        dataDue: '2025-02-01',
        PM: 5,
        created_by: 'Cora Creator',
        children: [ids.e],
        isParentUIField: 'Parent',
        dataRequestStatus: 'NotRequested',
        dataRequestStatusLabel: 'Not requested',
        external_valuations: 'N',
        connected_audit: false,
        mappings: [],
      });
      for (const key of [
        'hasErrors',
        'runningProcesses',
        'dataStatusCounts',
        'workPaperStatusCounts',
        'hasCsvOutputs',
        'rerun_by',
        'rerunDate',
        'processStatus',
        'dataStatusUIField',
        'workPaperStatusUIField',
        'isLate',
        'price_type_4',
        'price_source_3',
        'notes',
      ]) {
        expect(row).toHaveProperty(key);
      }
    });

    it('filters by enum (statuses given by value or label), text, date and number', async () => {
      expect(await names({ filters: [{ field: 'status', type: 'enum', value: ['Open', 'Pending'] }] })).toEqual(['Boreal Bond', 'Atlas Equity']);
      expect(await names({ filters: [{ field: 'status', type: 'enum', value: ['Deleted'] }] })).toEqual(['Deleted Delta']);
      expect(await names({ filters: [{ field: 'administrator', type: 'text', value: 'ALPHA' }] })).toEqual(['Cygnus 100% Growth_', 'Atlas Equity']);
      expect(await names({ filters: [{ field: 'name', type: 'text', value: '100%' }] })).toEqual(['Cygnus 100% Growth_']);
      expect(await names({ filters: [{ field: 'name', type: 'text', value: 'h_' }] })).toEqual(['Cygnus 100% Growth_']);
      expect(await names({ filters: [{ field: 'requestDate', type: 'date', value: { from: '2025-01-10', to: '2025-03-05' } }] })).toEqual([
        'Cygnus 100% Growth_',
        'Boreal Bond',
        'Atlas Equity',
      ]);
      expect(await names({ filters: [{ field: 'period_end', type: 'date', value: { to: '2024-12-31' } }] })).toEqual(['Atlas Equity']);
      expect(await names({ filters: [{ field: 'PM', type: 'number', value: { min: 2, max: 5 } }] })).toEqual(['Boreal Bond', 'Atlas Equity']);
      expect(await names({ filters: [{ field: 'dataRequestStatus', type: 'enum', value: ['Chased 1'] }] })).toEqual(['Child Echo']);
      expect(await names({ filters: [{ field: 'fundCode', type: 'enum', value: ['BOR02'] }] })).toEqual(['Boreal Bond']);
      expect(await names({ filters: [{ field: 'country', type: 'enum', value: [] }] })).toHaveLength(4);
      expect(await names({ filters: { client: { type: 'text', value: 'orion' }, country: { type: 'enum', value: ['IE'] } } })).toEqual(['Boreal Bond']);
    });

    it('refuses unknown fields and badly shaped values, naming the field', async () => {
      await expect(list({ filters: [{ field: 'colour', type: 'text', value: 'x' }] })).rejects.toThrow(/Unknown filter field: colour/);
      await expect(list({ filters: [{ field: 'status', type: 'enum', value: 'Pending' }] })).rejects.toThrow(/status: an enum filter needs a list/);
      await expect(list({ filters: [{ field: 'requestDate', type: 'date', value: { from: '10/01/2025' } }] })).rejects.toThrow(
        /requestDate: dates must be ISO/,
      );
      await expect(list({ filters: [{ field: 'PM', type: 'number', value: { min: 'many' } }] })).rejects.toThrow(/PM: min and max must be numbers/);
      await expect(list({ filters: [{ field: 'PM', type: 'text', value: '5' }] })).rejects.toThrow(/PM: cannot be filtered by text/);
      await expect(list({ sorting: [{ field: 'colour', order: 'asc' }] })).rejects.toThrow(ValidationError);
      await expect(list({ pagination: { limit: 5000 } })).rejects.toThrow(/limit must be between 1 and 1000/);
    });

    it('sorts by several columns, empty values first ascending and last descending', async () => {
      expect(
        await names({
          sorting: [
            { field: 'client', order: 'asc' },
            { field: 'name', order: 'desc' },
          ],
        }),
      ).toEqual(['Cygnus 100% Growth_', 'Child Echo', 'Boreal Bond', 'Atlas Equity']);
      expect(
        await names({
          sorting: [
            { field: 'requestDate', order: 'desc' },
            { field: 'fundCode', order: 'desc' },
          ],
        }),
      ).toEqual(['Cygnus 100% Growth_', 'Boreal Bond', 'Atlas Equity', 'Child Echo']);
      expect(
        await names({
          sorting: [
            { field: 'administrator', order: 'asc' },
            { field: 'PM', order: 'asc' },
          ],
        }),
      ).toEqual(['Child Echo', 'Atlas Equity', 'Cygnus 100% Growth_', 'Boreal Bond']);
      // Child Echo has no data due date
      expect(await names({ sorting: [{ field: 'dataDue', order: 'asc' }] })).toEqual(['Child Echo', 'Atlas Equity', 'Boreal Bond', 'Cygnus 100% Growth_']);
      expect(await names({ sorting: [{ field: 'dataDue', order: 'desc' }] })).toEqual(['Cygnus 100% Growth_', 'Boreal Bond', 'Atlas Equity', 'Child Echo']);
    });

    it('searches name, client and main or alternate fund codes, in any case', async () => {
      expect(await names({ search: 'xq-7' })).toEqual(['Atlas Equity']);
      expect(await names({ search: 'bor02' })).toEqual(['Boreal Bond']);
      expect(await names({ search: 'helix' })).toEqual(['Cygnus 100% Growth_', 'Child Echo']);
      expect(await names({ search: 'nothing like this' })).toEqual([]);
      expect(await names({ search: 'helix', filters: [{ field: 'status', type: 'enum', value: ['Paused'] }] })).toEqual(['Child Echo']);
      expect(await names({ search: 'XQ-77', filters: [{ field: 'client', type: 'text', value: 'orion' }] })).toEqual(['Atlas Equity']);
      expect(await names({ search: 'ATLAS eq' })).toEqual(['Atlas Equity']);
      expect(await names({ search: '100%' })).toEqual(['Cygnus 100% Growth_']);
      const paged = await list({ search: 'helix', offset: 1, pagination: { limit: 1 } });
      expect(paged.rows.map((r) => r.name)).toEqual(['Child Echo']);
      expect(paged.pagination).toMatchObject({ offset: 1, limit: 1, count: 2, countCapped: false, next: null });
      expect((await list({ search: 'helix', offset: 5, pagination: { limit: 1 } })).pagination.count).toBe(2);
    });

    it("applies a saved filter combined with the given filters; another user's filter is not found", async () => {
      expect(await names({ filterId: 2 })).toEqual(['Atlas Equity']);
      expect(await names({ filterId: 3 })).toEqual(['Deleted Delta']);
      const { db, tables: t } = storeOf(ctx);
      const [own] = await db
        .insert(t.savedFilters)
        .values({ userId: member.id, title: 'Orion', filter: [{ field: 'client', type: 'text', value: 'orion' }] })
        .returning();
      expect(await names({ filterId: own!.id, filters: [{ field: 'status', type: 'enum', value: ['Pending'] }] })).toEqual(['Boreal Bond']);
      await expect(list({ filterId: 4242 })).rejects.toThrow(NotFoundError);
      const other = await insertUser(ctx, 'other@example.com', 'Otto', 'Other');
      await expect(listFunds(ctx, other, { filterId: own!.id })).rejects.toThrow(`No such filter with id: ${own!.id}`);
      await expect(listFunds(ctx, null, { filterId: own!.id })).rejects.toThrow(NotFoundError);
      // the fixed filters are everyone's
      expect((await listFunds(ctx, other, { filterId: 1 })).rows.map((r) => r.name)).toEqual(['Boreal Bond']);
    });

    it('derives labels from fund files and processes', async () => {
      const localDb = await openDialectDatabase(dialect);
      const local = localDb.ctx;
      try {
        const late = await insertFund(local, { status: 'Approved', dueDate: daysFromToday(-1) });
        const full = await insertFund(local, { status: 'Approved', dueDate: daysFromToday(-1), rerunCount: 1, isParent: true });
        const big = await insertFund(local, { status: 'Approved' });
        await insertFundFile(local, late.id, { fileType: 'trial_balance', status: 'error' });
        await insertFundFile(local, late.id, { fileType: 'trial_balance', status: 'raw' });
        await insertFundFile(local, late.id, { fileType: 'holdings', status: 'pending', disabled: true });
        await insertFundFile(local, late.id, { kind: 'work_paper', fileType: 'work_paper', reviewed: false, fileName: 'wp.xlsx' });
        await insertProcess(local, late.id, 'identification', 'pending');
        await insertProcess(local, late.id, 'standardization', 'error');
        for (const t of ['trial_balance', 'holdings', 'transactions', 'share_capital']) await insertFundFile(local, full.id, { fileType: t });
        await insertFundFile(local, full.id, { kind: 'work_paper', fileType: 'work_paper', reviewed: true, fileName: 'wp.xlsx' });
        await insertFundFile(local, full.id, { kind: 'calculation', fileType: 'qa', fileName: 'qa.csv' });
        await insertProcess(local, full.id, 'standardization', 'error');
        await insertProcess(local, full.id, 'standardization', 'done');
        await insertFundFile(local, big.id, { kind: 'calculation', fileType: 'agg', validation: { aggDataOversized: true } });
        await insertProcess(local, big.id, 'visualization', 'error');
        const { db, tables: t } = storeOf(local);
        const [m] = await db
          .insert(t.mappings)
          .values({ administratorId: await insertAdministrator(local, 'x'), type: 'account_mapping', kind: 'custom', description: 'x', rows: [], sha256: 'x' })
          .returning();
        await db.insert(t.fundMappings).values({ fundRequestId: full.id, mappingId: m!.id });
        const rows = new Map((await listFunds(local, null, {})).rows.map((r) => [r.id, r]));
        expect(rows.get(late.id)).toMatchObject({
          dataStatusCounts: { rawCount: 1, errorCount: 0, notRequiredCount: 1, notReviewedCount: 1, assignedCount: 0, total: 4 },
          dataStatusUIField: 'Late',
          isLate: true,
          // a work paper made but not reviewed (not released) is in progress
          workPaperStatusUIField: 'Partially available',
          processStatus: 'Processing',
          hasErrors: true,
          runningProcesses: [{ status: 'pending', stage: 'identification' }],
          isParentUIField: null,
          hasCsvOutputs: false,
        });
        expect(rows.get(full.id)).toMatchObject({
          dataStatusCounts: { assignedCount: 4, total: 4 },
          dataStatusUIField: 'Received',
          isLate: false,
          workPaperStatusUIField: 'Available Rerun',
          processStatus: 'Ready',
          hasErrors: false,
          isParentUIField: 'Parent (empty)',
          hasCsvOutputs: true,
          mappings: [m!.id],
        });
        expect(rows.get(big.id)).toMatchObject({ dataStatusUIField: 'Too large', processStatus: 'Ready', hasErrors: true, isLate: false });
        expect((await listFunds(local, null, { filters: [{ field: 'processStatus', type: 'enum', value: ['Processing'] }] })).rows.map((r) => r.id)).toEqual([
          late.id,
        ]);
      } finally {
        await localDb.dispose();
      }
    });
  });

  describe('auditor listing', () => {
    it('excludes deleted funds, sorts by data due date descending by default and pages', async () => {
      const r = await listFundsForAuditor(ctx, { offset: 0, limit: 10 });
      expect(r.rows.map((x) => x.id)).toEqual([ids.c, ids.b, ids.a, ids.e]);
      expect(r.pagination).toEqual({ offset: 0, limit: 10, count: 4, countCapped: false, next: null, previous: null });
      expect(r.rows[0]).toMatchObject({
        id: ids.c,
        type: null,
        administrator: 'Alpha Fund Services',
        dueDate: daysFromToday(-3),
        uploadStatus: 'Completed - Fund Closed',
        dataRequestStatus: 'NotRequested',
        dataStatus: 'Late',
        dataStatusUIField: 'Late',
        isLate: true,
        isStatusUnChanged: false,
        workPaperStatusUIField: 'Not available',
        calculationStatus: null,
        isParentUIField: null,
        parentId: null,
      });
      expect(r.rows[0]!.dataStatusCounts.total).toBe(2);
      expect((await listFundsForAuditor(ctx, { offset: 1, limit: 1, sort: { field: 'name', order: 'asc' } })).rows.map((x) => x.name)).toEqual(['Boreal Bond']);
    });

    it('lists the funds of one administrator by code or id', async () => {
      expect((await listFundsForAuditor(ctx, { offset: 0, limit: 10, tpa: 'beta_admin' })).rows.map((x) => x.id)).toEqual([ids.b]);
      const alpha = (await list({ search: 'atlas' })).rows[0]!.administratorId!;
      expect((await listFundsForAuditor(ctx, { offset: 0, limit: 10, tpa: alpha })).pagination.count).toBe(2);
      await expect(listFundsForAuditor(ctx, { offset: 0, limit: 10, tpa: 'nobody' })).rejects.toThrow(NotFoundError);
    });
  });
});
