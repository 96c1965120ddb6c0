import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundMappings, mappings, savedFilters, users } from '../../db/schema/index.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { createTestContext, type TestContext } from '../../testing.js';
import { listFunds, listFundsForAuditor, type ListingInput } from './listing.js';
import { daysFromToday, insertAdministrator, insertFund, insertFundFile, insertProcess } from './test-factory.js';

let ctx: TestContext;
const ids: Record<string, number> = {};
const list = (input: ListingInput) => listFunds(ctx, ctx.boot.admin, input);
const names = (input: ListingInput) => list(input).rows.map((r) => r.name);

beforeAll(async () => {
  ctx = await createTestContext({ seedDemoData: false });
  const alpha = insertAdministrator(ctx, 'alpha_fs', 'Alpha Fund Services');
  const beta = insertAdministrator(ctx, 'beta_admin', 'Beta Admin');
  const creator = ctx.db
    .insert(users)
    .values({ email: 'c@example.com', username: 'c', firstName: 'Cora', lastName: 'Creator', role: 'DeliveryTeamMember', originalRole: 'DeliveryTeamMember' })
    .returning()
    .get();
  ids.a = insertFund(ctx, {
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
  }).id;
  ids.b = insertFund(ctx, {
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
  }).id;
  ids.c = insertFund(ctx, {
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
  }).id;
  ids.d = insertFund(ctx, { name: 'Deleted Delta', client: 'Helix Partners', status: 'Deleted', requestDate: '2025-05-01', fundCode: 'DEL04' }).id;
  ids.e = insertFund(ctx, {
    name: 'Child Echo',
    client: 'Helix Partners',
    status: 'Paused',
    parentId: ids.a,
    requestDate: '2024-11-11',
    periodEnd: '2025-09-30',
    pm: 12,
    fundCode: 'ECH05',
    dataRequestStatus: 'Chased1',
  }).id;
});
afterAll(() => ctx.dispose());

describe('fund listing', () => {
  it('lists funds not deleted, newest request first then id, with pagination count', () => {
    const r = list({});
    expect(r.rows.map((x) => x.id)).toEqual([ids.c, ids.b, ids.a, ids.e]);
    expect(r.pagination).toEqual({ offset: 0, limit: 100, count: 4 });
    const page = list({ offset: 1, pagination: { limit: 2 } });
    expect(page.rows.map((x) => x.id)).toEqual([ids.b, ids.a]);
    expect(page.pagination).toEqual({ offset: 1, limit: 2, count: 4 });
    expect(list({ offset: 10, pagination: { limit: 2 } }).pagination.count).toBe(4);
  });

  it('returns the listing row fields of the spec', () => {
    const row = list({ search: 'atlas' }).rows[0];
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

  it('filters by enum (statuses given by value or label), text, date and number', () => {
    expect(names({ filters: [{ field: 'status', type: 'enum', value: ['Open', 'Pending'] }] })).toEqual(['Boreal Bond', 'Atlas Equity']);
    expect(names({ filters: [{ field: 'status', type: 'enum', value: ['Deleted'] }] })).toEqual(['Deleted Delta']);
    expect(names({ filters: [{ field: 'administrator', type: 'text', value: 'ALPHA' }] })).toEqual(['Cygnus 100% Growth_', 'Atlas Equity']);
    expect(names({ filters: [{ field: 'name', type: 'text', value: '100%' }] })).toEqual(['Cygnus 100% Growth_']);
    expect(names({ filters: [{ field: 'name', type: 'text', value: 'h_' }] })).toEqual(['Cygnus 100% Growth_']);
    expect(names({ filters: [{ field: 'requestDate', type: 'date', value: { from: '2025-01-10', to: '2025-03-05' } }] })).toEqual([
      'Cygnus 100% Growth_',
      'Boreal Bond',
      'Atlas Equity',
    ]);
    expect(names({ filters: [{ field: 'period_end', type: 'date', value: { to: '2024-12-31' } }] })).toEqual(['Atlas Equity']);
    expect(names({ filters: [{ field: 'PM', type: 'number', value: { min: 2, max: 5 } }] })).toEqual(['Boreal Bond', 'Atlas Equity']);
    expect(names({ filters: [{ field: 'dataRequestStatus', type: 'enum', value: ['Chased 1'] }] })).toEqual(['Child Echo']);
    expect(names({ filters: [{ field: 'fundCode', type: 'enum', value: ['BOR02'] }] })).toEqual(['Boreal Bond']);
    expect(names({ filters: [{ field: 'country', type: 'enum', value: [] }] })).toHaveLength(4);
    expect(names({ filters: { client: { type: 'text', value: 'orion' }, country: { type: 'enum', value: ['IE'] } } })).toEqual(['Boreal Bond']);
  });

  it('refuses unknown fields and badly shaped values, naming the field', () => {
    expect(() => list({ filters: [{ field: 'colour', type: 'text', value: 'x' }] })).toThrow(/Unknown filter field: colour/);
    expect(() => list({ filters: [{ field: 'status', type: 'enum', value: 'Pending' }] })).toThrow(/status: an enum filter needs a list/);
    expect(() => list({ filters: [{ field: 'requestDate', type: 'date', value: { from: '10/01/2025' } }] })).toThrow(/requestDate: dates must be ISO/);
    expect(() => list({ filters: [{ field: 'PM', type: 'number', value: { min: 'many' } }] })).toThrow(/PM: min and max must be numbers/);
    expect(() => list({ filters: [{ field: 'PM', type: 'text', value: '5' }] })).toThrow(/PM: cannot be filtered by text/);
    expect(() => list({ sorting: [{ field: 'colour', order: 'asc' }] })).toThrow(ValidationError);
    expect(() => list({ pagination: { limit: 5000 } })).toThrow(/limit must be between 1 and 1000/);
  });

  it('sorts by several columns', () => {
    expect(
      names({
        sorting: [
          { field: 'client', order: 'asc' },
          { field: 'name', order: 'desc' },
        ],
      }),
    ).toEqual(['Cygnus 100% Growth_', 'Child Echo', 'Boreal Bond', 'Atlas Equity']);
    expect(
      names({
        sorting: [
          { field: 'requestDate', order: 'desc' },
          { field: 'fundCode', order: 'desc' },
        ],
      }),
    ).toEqual(['Cygnus 100% Growth_', 'Boreal Bond', 'Atlas Equity', 'Child Echo']);
    expect(
      names({
        sorting: [
          { field: 'administrator', order: 'asc' },
          { field: 'PM', order: 'asc' },
        ],
      }),
    ).toEqual(['Child Echo', 'Atlas Equity', 'Cygnus 100% Growth_', 'Boreal Bond']);
  });

  it('searches name, client and main or alternate fund codes', () => {
    expect(names({ search: 'xq-7' })).toEqual(['Atlas Equity']);
    expect(names({ search: 'bor02' })).toEqual(['Boreal Bond']);
    expect(names({ search: 'helix' })).toEqual(['Cygnus 100% Growth_', 'Child Echo']);
    expect(names({ search: 'nothing like this' })).toEqual([]);
    expect(names({ search: 'helix', filters: [{ field: 'status', type: 'enum', value: ['Paused'] }] })).toEqual(['Child Echo']);
    expect(names({ search: 'XQ-77', filters: [{ field: 'client', type: 'text', value: 'orion' }] })).toEqual(['Atlas Equity']);
    const paged = list({ search: 'helix', offset: 1, pagination: { limit: 1 } });
    expect(paged.rows.map((r) => r.name)).toEqual(['Child Echo']);
    expect(paged.pagination).toEqual({ offset: 1, limit: 1, count: 2 });
    expect(list({ search: 'helix', offset: 5, pagination: { limit: 1 } }).pagination.count).toBe(2);
  });

  it('applies a saved filter combined with the given filters', () => {
    expect(names({ filterId: 2 })).toEqual(['Atlas Equity']);
    expect(names({ filterId: 3 })).toEqual(['Deleted Delta']);
    const own = ctx.db
      .insert(savedFilters)
      .values({ userId: ctx.boot.admin.id, title: 'Orion', filter: [{ field: 'client', type: 'text', value: 'orion' }] })
      .returning()
      .get();
    expect(names({ filterId: own.id, filters: [{ field: 'status', type: 'enum', value: ['Pending'] }] })).toEqual(['Boreal Bond']);
    expect(() => list({ filterId: 4242 })).toThrow(NotFoundError);
  });

  it('derives labels from fund files and processes', async () => {
    const local = await createTestContext({ seedDemoData: false });
    try {
      const late = insertFund(local, { status: 'Approved', dueDate: daysFromToday(-1) });
      const full = insertFund(local, { status: 'Approved', dueDate: daysFromToday(-1), rerunCount: 1, isParent: true });
      const big = insertFund(local, { status: 'Approved' });
      insertFundFile(local, late.id, { fileType: 'trial_balance', status: 'error' });
      insertFundFile(local, late.id, { fileType: 'trial_balance', status: 'raw' });
      insertFundFile(local, late.id, { fileType: 'holdings', status: 'pending', disabled: true });
      insertFundFile(local, late.id, { kind: 'work_paper', fileType: 'work_paper', reviewed: false, fileName: 'wp.xlsx' });
      insertProcess(local, late.id, 'identification', 'pending');
      insertProcess(local, late.id, 'standardization', 'error');
      for (const t of ['trial_balance', 'holdings', 'transactions', 'share_capital']) insertFundFile(local, full.id, { fileType: t });
      insertFundFile(local, full.id, { kind: 'work_paper', fileType: 'work_paper', reviewed: true, fileName: 'wp.xlsx' });
      insertFundFile(local, full.id, { kind: 'calculation', fileType: 'qa', fileName: 'qa.csv' });
      insertProcess(local, full.id, 'standardization', 'error');
      insertProcess(local, full.id, 'standardization', 'done');
      insertFundFile(local, big.id, { kind: 'calculation', fileType: 'agg', validation: { aggDataOversized: true } });
      insertProcess(local, big.id, 'visualization', 'error');
      const m = local.db
        .insert(mappings)
        .values({ administratorId: insertAdministrator(local, 'x'), type: 'account_mapping', kind: 'custom', description: 'x', rows: [], sha256: 'x' })
        .returning()
        .get();
      local.db.insert(fundMappings).values({ fundRequestId: full.id, mappingId: m.id }).run();
      const rows = new Map(listFunds(local, local.boot.admin, {}).rows.map((r) => [r.id, r]));
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
        mappings: [m.id],
      });
      expect(rows.get(big.id)).toMatchObject({ dataStatusUIField: 'Too large', processStatus: 'Ready', hasErrors: true, isLate: false });
      expect(listFunds(local, null, { filters: [{ field: 'processStatus', type: 'enum', value: ['Processing'] }] }).rows.map((r) => r.id)).toEqual([late.id]);
    } finally {
      local.dispose();
    }
  });
});

describe('auditor listing', () => {
  it('excludes deleted funds, sorts by data due date descending by default and pages', () => {
    const r = listFundsForAuditor(ctx, { offset: 0, limit: 10 });
    expect(r.rows.map((x) => x.id)).toEqual([ids.c, ids.b, ids.a, ids.e]);
    expect(r.pagination).toEqual({ offset: 0, limit: 10, count: 4 });
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
    expect(r.rows[0].dataStatusCounts.total).toBe(2);
    expect(listFundsForAuditor(ctx, { offset: 1, limit: 1, sort: { field: 'name', order: 'asc' } }).rows.map((x) => x.name)).toEqual(['Boreal Bond']);
  });

  it('lists the funds of one administrator by code or id', () => {
    expect(listFundsForAuditor(ctx, { offset: 0, limit: 10, tpa: 'beta_admin' }).rows.map((x) => x.id)).toEqual([ids.b]);
    const alpha = list({ search: 'atlas' }).rows[0].administratorId!;
    expect(listFundsForAuditor(ctx, { offset: 0, limit: 10, tpa: alpha }).pagination.count).toBe(2);
    expect(() => listFundsForAuditor(ctx, { offset: 0, limit: 10, tpa: 'nobody' })).toThrow(NotFoundError);
  });
});
