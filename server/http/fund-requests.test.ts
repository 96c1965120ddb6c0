import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { seedDemoAdministrators } from '../services/setup/prepare.js';
import { storeOf } from '../db/dialect.js';
import { fixturesDir } from '../paths.js';
import { issueToken } from '../services/auth/tokens.js';
import { fundRequestInput } from '../testing/fund-input.js';
import { addUser } from '../services/users/users.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
let token: string;
beforeEach(async () => {
  ctx = await createTestContext({ seedDemoData: false });
  await seedDemoAdministrators(ctx);
  api = apiClient(ctx);
  token = await sessionToken(ctx, ctx.boot.admin.id);
});
afterEach(() => ctx.dispose());

const upload = (path: string, file: string, tok = token) => {
  const form = new FormData();
  form.append('upload', new Blob([readFileSync(join(fixturesDir(), 'fund-requests', file))]), file);
  return api.call('POST', path, { token: tok, body: form });
};

describe('bulk upload over HTTP', () => {
  it('downloads the template with a download token: every column and one example row', async () => {
    const dl = (await api.get('export/token', token)).body.payload.token;
    const res = await api.app.fetch(new Request(`http://t/api/v2.0/fund-request/download?token=${dl}`));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/fund_request_bulk_upload_template\.csv/);
    const lines = (await res.text())
      .replace(/^\ufeff/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines).toHaveLength(2);
    expect(lines[0].split(',')).toHaveLength(54);
    expect(lines[1]).toMatch(/^Goldman Sachs Bond Fund,Goldman Sachs Trust,,meridian_fund_services,S000013795/);
    const noToken = await apiClient(ctx).app.fetch(new Request('http://t/api/v2.0/fund-request/download'));
    expect(noToken.status).toBe(401);
  });

  it('validates an upload, then saves the accepted rows (delivery)', async () => {
    const res = await upload('funds/upload', 'real-funds.csv');
    expect(res.status).toBe(200);
    expect(res.body.payload.accepted).toHaveLength(4);
    const save = await api.post('funds', { requestDate: '2023-04-03', funds: res.body.payload.accepted }, token);
    expect(save.status).toBe(200);
    expect(save.body.payload.saved).toHaveLength(4);
    expect(save.body.payload.failed).toEqual([]);
  });

  it('answers a bad file with the file, row and column in the message', async () => {
    const res = await upload('funds/upload', 'encodings/ragged-rows.csv');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/ragged-rows\.csv: row 3 has 53 values but the header has 54 columns/);
  });

  it('saves valid rows and reports failed ones for an auditor upload', async () => {
    const auditor = await addUser(ctx, { email: 'a@example.com', name: 'Ann Auditor', role: 'Auditor' });
    const res = await upload('fund-request/bulk', 'bad-rows.csv', await sessionToken(ctx, auditor.id));
    expect(res.status).toBe(200);
    expect(res.body.payload.saved).toEqual([]);
    expect(res.body.payload.failed.length).toBe(res.body.payload.totalRows);
    const ok = await upload('fund-request/bulk', 'real-funds.csv', await sessionToken(ctx, auditor.id));
    expect(ok.body.payload.saved).toHaveLength(4);
  });
});

describe('fund details, validate and save', () => {
  const newFund = fundRequestInput('keystone_admin');

  it('creates a fund, drops empty codes and returns every details field', async () => {
    const res = await api.post('fund', { fund: newFund }, token);
    expect(res.status).toBe(200);
    const d = res.body.payload;
    expect(d.fund_codes.map((c: any) => c.code)).toEqual(['S000012000', '5493006TF05454RBY690']);
    expect(d).toMatchObject({
      fund_code: 'S000012000',
      status: 'Pending',
      administrator: { code: 'keystone_admin' },
      PM: 1,
      currency: 'USD',
      editable: { rows: true },
    });
    for (const k of [
      'gfis_client_code',
      'ey_country',
      'structure',
      'fund_sub_type',
      'audit_type',
      'due_date',
      'audit_start_date',
      'accounting_standard',
      'rerun_count',
      'rerun_by',
      'rerun_date',
      'soi_rec_type',
      'fihi_type',
      'has_investment_analyzer',
      'aggreg_consol_flag',
      'group_key',
      'parentId',
      'is_parent',
      'connected_audit',
      'external_valuations',
      'engagement_code',
      'price_type_1',
      'price_source_3',
      'RTTPlus',
      'RTTMinus',
      'audit_comments',
      'administrator_comments',
      'delivery_comments',
      'administrator_recipients',
      'children',
      'inputFiles',
      'standardizationFiles',
      'workPapers',
      'hasCsvOutputs',
    ]) {
      expect(d, k).toHaveProperty(k);
    }
    const got = await api.get(`fund/${d.id}`, token);
    expect(got.body.payload.id).toBe(d.id);
  });

  it('gives a recipient sent without a name the name of the user with that e-mail, and keeps a given name', async () => {
    await addUser(ctx, { email: 'ada@example.com', name: 'Ada Lovelace', role: 'Auditor' });
    const res = await api.post(
      'fund',
      {
        fund: {
          ...newFund,
          administrator_recipients: [
            { full_name: '', email: 'Ada@Example.com', role: 'Auditor' },
            { email: 'nobody@example.com', role: 'Auditor' },
            { full_name: 'Jane Auditor', email: 'jane.auditor@example.com', role: 'Auditor' },
          ],
        },
      },
      token,
    );
    expect(res.status).toBe(200);
    expect(res.body.payload.administrator_recipients.map((r: any) => [r.full_name, r.email])).toEqual([
      ['Ada Lovelace', 'ada@example.com'],
      ['', 'nobody@example.com'],
      ['Jane Auditor', 'jane.auditor@example.com'],
    ]);
  });

  it("answers 404 'No such fund request with id: {id}'", async () => {
    const res = await api.get('fund/999', token);
    expect(res.status).toBe(404);
    expect(res.body.errors).toEqual(['No such fund request with id: 999']);
  });

  it('lists every missing required field and a recipient without role', async () => {
    const res = await api.post('fund/validate', { fund: { administrator_recipients: [{ email: 'x@example.com' }] } }, token);
    expect(res.body.payload.errors).toEqual(
      expect.arrayContaining([
        'client is required',
        'name is required',
        'period_end is required',
        'currency is required',
        'request_date is required',
        'country is required',
        'PM is required',
        'TE is required',
        'SAD is required',
        'fund_code is required',
        'administrator is required',
        'Recipient 1 (x@example.com) needs a role',
      ]),
    );
  });

  it('refuses materialities over 100 and reports a Duplicate Fund with its id', async () => {
    const first = await api.post('fund', { fund: newFund }, token);
    const res = await api.post('fund', { fund: { ...newFund, PM: 120 } }, token);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('You have validation errors');
    expect(res.body.errors).toContain('PM must be between 0 and 100');
    expect(res.body.errors).toContainEqual({
      id: first.body.payload.id,
      type: 'Duplicate Fund',
      message: expect.stringMatching(/already has fund code S000012000/),
    });
  });

  it('keeps the main code and allows only comments and recipients once the fund is Open', async () => {
    const { id } = (await api.post('fund', { fund: newFund }, token)).body.payload;
    const dropMain = await api.post('fund', { id, fund: { fund_codes: [{ code: 'OTHER', main: true }] } }, token);
    expect(dropMain.body.errors).toContain('The main fund code S000012000 cannot be removed');
    const { db, tables: t } = storeOf(ctx);
    await db.update(t.fundRequests).set({ status: 'Approved' }).where(eq(t.fundRequests.id, id));
    const edit = await api.post('fund', { id, fund: { name: 'Renamed' } }, token);
    expect(edit.status).toBe(400);
    expect(edit.body.errors[0]).toMatch(/Only comments and recipients can be changed because the fund request is Open \(changed: name\)/);
    const comment = await api.post('fund', { id, fund: { audit_comments: 'TB received late' } }, token);
    expect(comment.status).toBe(200);
    expect(comment.body.payload.audit_comments).toBe('TB received late');
    const trail = await db.select({ action: t.trail.action }).from(t.trail).where(eq(t.trail.fundRequestId, id)).orderBy(asc(t.trail.id));
    expect(trail.map((r) => r.action)).toEqual(['create', 'update']);
  });

  it('refuses a download token where a session is needed', async () => {
    const dl = (await issueToken(ctx, ctx.boot.admin.id, 'download', 60_000)).token;
    expect((await api.get('fund/1', dl)).status).toBe(401);
  });
});

describe('reference data', () => {
  it('lists every spec list with {code, alt_code, deprecated}, omitting deprecated entries', async () => {
    const nrd = (await api.get('nrd', token)).body.payload;
    for (const list of [
      'accountingStandards',
      'administrators',
      'countries',
      'regions',
      'currencies',
      'structures',
      'auditTypes',
      'roles',
      'users',
      'jobType',
      'soiRecType',
      'fundSubType',
      'priceType',
      'priceSource',
      'aggregateType',
      'fihiType',
      'hasInvestmentAnalyzer',
      'hasConnectedAudit',
    ]) {
      expect(nrd[list]?.length, list).toBeGreaterThan(0);
      for (const e of nrd[list]) expect(Object.keys(e).sort()).toEqual(['alt_code', 'code', 'deprecated']);
    }
    expect(nrd.currencies.find((c: any) => c.code === 'USD')).toEqual({ code: 'USD', alt_code: 'US Dollar', deprecated: false });
    expect(nrd.currencies.some((c: any) => c.code === 'DEM')).toBe(false);
    expect(nrd.accountingStandards.some((c: any) => c.code === 'UK_GAAP_OLD')).toBe(false);
    const { db, tables: t } = storeOf(ctx);
    const dem = await db
      .select({ deprecated: t.referenceData.deprecated })
      .from(t.referenceData)
      .where(and(eq(t.referenceData.list, 'currencies'), eq(t.referenceData.code, 'DEM')));
    expect(dem).toEqual([{ deprecated: true }]);
    expect(nrd.administrators.map((a: any) => a.code).sort()).toEqual(['demo_test', 'keystone_admin', 'meridian_fund_services']);
  });

  it('gives fund details the data-status counts and derived labels', async () => {
    const { id } = (
      await api.post(
        'fund',
        {
          fund: {
            administrator: 'demo_test',
            fund_code: 'X1',
            name: 'N',
            client: 'C',
            period_end: '2022-12-31',
            request_date: '2023-01-02',
            currency: 'USD',
            country: 'US',
            PM: 1,
            TE: 0.75,
            SAD: 0.05,
            due_date: '2023-01-30',
          },
        },
        token,
      )
    ).body.payload;
    const d = (await api.get(`fund/${id}`, token)).body.payload;
    expect(d.dataStatusCounts).toMatchObject({ assignedCount: 0, total: 4 });
    expect(d).toMatchObject({ isLate: true, dataStatusUIField: 'Late', workPaperStatusUIField: 'Not available', processStatus: 'Idle' });
  });
});
