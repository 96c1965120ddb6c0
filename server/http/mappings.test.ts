import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, count, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storeOf } from '../db/dialect.js';
import { fixturesDir } from '../paths.js';
import { NAME_MESSAGE } from '../services/mappings/mappings.js';
import { addUser } from '../services/users/users.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
let token: string;
beforeEach(async () => {
  ctx = await createTestContext();
  api = apiClient(ctx);
  token = await sessionToken(ctx, ctx.boot.admin.id);
});
afterEach(() => ctx.dispose());

const mappingFile = (tpa: string, type: string) => join(fixturesDir(), 'tpas', tpa, 'mappings', `${type}.csv`);
function upload(fields: Record<string, string>, file: { name: string; bytes: Buffer }, tok = token) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('upload', new Blob([new Uint8Array(file.bytes)]), file.name);
  return api.call('POST', 'mappings/create', { token: tok, body: form });
}
const instrumentCsv = () => ({ name: 'instrument_mapping.csv', bytes: readFileSync(mappingFile('meridian_fund_services', 'instrument_mapping')) });
const custom = (name: string, extra: Record<string, string> = {}) =>
  upload(
    {
      administrator: 'meridian_fund_services',
      mappingType: 'instrument_mapping',
      mappingMode: 'custom',
      mappingName: name,
      rationale: 'client classification',
      ...extra,
    },
    instrumentCsv(),
  );
/** The id of the demo fund request with the code S000013795. */
async function gsId(): Promise<number> {
  const { db, tables: t } = storeOf(ctx);
  const [row] = await db.select({ id: t.fundCodes.fundRequestId }).from(t.fundCodes).where(eq(t.fundCodes.code, 'S000013795'));
  return row!.id;
}

describe('live mappings', () => {
  it('lists the master mappings of every TPA; masters cannot be deleted', async () => {
    const list = (await api.get('mappings', token)).body.payload;
    expect(list.filter((m: any) => m.kind === 'master')).toHaveLength(15);
    const master = list.find((m: any) => m.description === 'meridian_fund_services_instrument_mapping');
    expect(master).toMatchObject({ kind: 'master', canLiveMappingBeDeleted: false, administrator: { code: 'meridian_fund_services' } });
    const del = await api.post('mappings/delete', { id: master.id }, token);
    expect(del.status).toBe(400);
    expect(del.body.errors[0]).toMatch(/master mappings cannot be deleted/);
  });

  it('applies the name, client and reason rules with the spec messages', async () => {
    expect((await custom('Bad Name')).body.errors).toContain(NAME_MESSAGE);
    expect((await custom('ok_name', { clientName: 'Acme & Co' })).body.errors).toContain(
      'Provided name is invalid. Only alphanumeric, underscore and white spaces allowed. Maximum length is 300 characters.',
    );
    expect((await custom('ok_name', { rationale: '' })).body.errors).toContain('A reason for creating the mapping is required');
    expect((await custom('gs_instruments')).status).toBe(200);
    expect((await custom('gs_instruments')).body.errors).toContain('Custom mapping gs_instruments already exist. Please choose different name.');
  });

  it('reports the errors of a bad mapping file with totalErrorsFound and maxErrorsNo', async () => {
    const bad = Buffer.from('source_code,target_code,description\nABS-MBS,NOT_A_TARGET,x\nABS-MBS,DEBT,y\n,DEBT,z\n');
    const res = await upload(
      { administrator: 'meridian_fund_services', mappingType: 'instrument_mapping', mappingMode: 'custom', mappingName: 'broken', rationale: 'test' },
      { name: 'instrument_mapping.csv', bytes: bad },
    );
    expect(res.status).toBe(400);
    expect(res.body.totalErrorsFound).toBe(3);
    expect(res.body.maxErrorsNo).toBe(20);
    expect(res.body.errors.join(' ')).toMatch(/NOT_A_TARGET/);
  });

  it('assigns a custom mapping to a fund (rerunning it), blocks its deletion, and removes it again', async () => {
    const m = (await custom('gs_instruments')).body.payload;
    const gs = await gsId();
    const assigned = await api.post('mappings/assign-bulk', { fundRequestIds: [gs], mappingId: m.id }, token);
    expect(assigned.status).toBe(200);
    const { db, tables: t } = storeOf(ctx);
    const pending = and(eq(t.processes.stage, 'standardization'), eq(t.processes.fundRequestId, gs), eq(t.processes.status, 'pending'));
    expect(await db.select({ n: count() }).from(t.processes).where(pending)).toEqual([{ n: 1 }]);
    const types = (await api.get(`mappings/types-for-fund-request/${gs}`, token)).body.payload;
    expect(types.find((t: any) => t.type === 'instrument_mapping').inUse).toBe(m.id);
    const listed = (await api.get('mappings', token)).body.payload.find((x: any) => x.id === m.id);
    expect(listed).toMatchObject({ canLiveMappingBeDeleted: false, fundRequests: [{ id: gs, code: 'S000013795' }] });
    const refused = await api.post('mappings/delete', { id: m.id }, token);
    expect(refused.body.message).toBe('Something went wrong when we tried to delete the mapping');
    expect(refused.body.errors[0]).toMatch(/used by fund request\(s\) S000013795/);
    await api.post('mappings/remove-bulk', { fundMappingPairs: [{ fundRequestId: gs, mappingId: m.id }] }, token);
    expect((await api.post('mappings/delete', { id: m.id }, token)).status).toBe(200);
    expect((await api.get('mappings', token)).body.payload.some((x: any) => x.id === m.id)).toBe(false);
  });

  it('lets only the creator or a delivery team member change a custom mapping', async () => {
    const auditor = await addUser(ctx, { email: 'aud@example.com', name: 'Ann Auditor', role: 'Auditor' });
    const m = (await custom('gs_instruments')).body.payload;
    const res = await upload(
      { administrator: 'meridian_fund_services', mappingType: 'instrument_mapping', mappingMode: 'update-custom', customId: String(m.id) },
      instrumentCsv(),
      await sessionToken(ctx, auditor.id),
    );
    expect(res.status).toBe(403);
    // the Live mappings toggle follows the same rule: the creator (or the delivery team) only, never a master
    const seen = (tok: string) => api.get('mappings', tok).then((r) => r.body.payload as Array<{ id: number; kind: string; canToggle: boolean }>);
    const asAdmin = await seen(token);
    expect(asAdmin.find((x) => x.id === m.id)?.canToggle).toBe(true);
    expect(asAdmin.filter((x) => x.kind === 'master').every((x) => !x.canToggle)).toBe(true);
    expect((await seen(await sessionToken(ctx, auditor.id))).find((x) => x.id === m.id)?.canToggle).toBe(false);
    const del = await api.post('mappings/delete-selected-custom-mappings', { ids: [m.id] }, await sessionToken(ctx, auditor.id));
    expect(del.status).not.toBe(200);
  });

  it("refuses an Auditor replacing a TPA's master mapping, and keeps the master as it was", async () => {
    const auditor = await addUser(ctx, { email: 'aud-master@example.com', name: 'Ann Auditor', role: 'Auditor' });
    const masters = async () =>
      (await api.get('mappings', token)).body.payload.filter(
        (x: { kind: string; type: string; administrator: { code: string } }) =>
          x.kind === 'master' && x.type === 'instrument_mapping' && x.administrator.code === 'meridian_fund_services',
      );
    const before = await masters();
    expect(before).toHaveLength(1);
    const history = async () => (await api.get(`mappings/${before[0].id}/history`, token)).body.payload.versions as unknown[];
    const versionsBefore = await history();
    const oneRow = {
      name: 'instrument_mapping.csv',
      bytes: Buffer.from(`${readFileSync(mappingFile('meridian_fund_services', 'instrument_mapping'), 'utf8').split('\n').slice(0, 2).join('\n')}\n`),
    };
    const fields = { administrator: 'meridian_fund_services', mappingType: 'instrument_mapping', mappingMode: 'master', rationale: 'replace it' };
    const refused = await upload(fields, oneRow, await sessionToken(ctx, auditor.id));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("Only the delivery team can replace a TPA's master mapping; upload it as a custom mapping instead");
    expect(await history()).toEqual(versionsBefore);
    // the delivery team still can
    expect((await upload(fields, oneRow)).status).toBe(200);
    expect((await history()).length).toBe(versionsBefore.length + 1);
  });

  it('downloads a mapping as csv with a download token', async () => {
    const list = (await api.get('mappings', token)).body.payload;
    const m = list.find((x: any) => x.description === 'meridian_fund_services_account_mapping');
    const dl = (await api.get('export/token', token)).body.payload.token;
    const res = await api.app.fetch(new Request(`http://t/api/v2.0/mappings/download?id=${m.id}&token=${dl}`));
    expect(res.status).toBe(200);
    const text = (await res.text()).replace(/^\ufeff/, '');
    expect(text.split(/\r?\n/)[0]).toBe('source_code,target_code,description');
  });
});

describe('self-onboarding', () => {
  const form = (fields: Record<string, string>, files: Array<{ field: string; name: string; bytes: Buffer }>) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.append(k, v);
    for (const x of files) f.append(x.field, new Blob([new Uint8Array(x.bytes)]), x.name);
    return f;
  };
  const demoMappings = () =>
    ['file_layout', 'account_mapping', 'instrument_mapping', 'transaction_mapping', 'share_capital_mapping'].map((t) => ({
      field: 'mappings',
      name: `${t}.csv`,
      bytes: readFileSync(mappingFile('demo_test', t)),
    }));

  it('onboards a new TPA from its mapping files, fund request and SDM files to a processed fund', async () => {
    expect((await api.get('sdm-upload/check-name?code=demo_test', token)).body.payload.status).toBe('Administrator already exist');
    expect((await api.get('sdm-upload/check-name?code=Bad-Name', token)).body.payload.message).toBe(NAME_MESSAGE);
    expect((await api.get('sdm-upload/check-name?code=acme_fund_admin', token)).body.payload.status).toBe('New');
    const invalid = await api.call('POST', 'sdm-upload/validate-mappings', {
      token,
      body: form({ code: 'acme_fund_admin' }, [{ field: 'mappings', name: 'accounts.csv', bytes: Buffer.from('x') }]),
    });
    expect(invalid.body.payload['accounts.csv'].error).toBe('Invalid file - Please upload a .csv file that matches one of the mapping names.');
    const created = await api.call('POST', 'sdm-upload/create', {
      token,
      body: form({ code: 'acme_fund_admin', name: 'Acme Fund Administration' }, demoMappings()),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.payload.id;
    expect(created.body.payload).toMatchObject({ status: 'Created', administrator: { code: 'acme_fund_admin' } });
    const events: any[] = [];
    ctx.events.on('upload-file', (e) => events.push(e.file.status));
    const notCsv = await api.call('POST', 'sdm-upload/add-file', {
      token,
      body: form({ sdmUploadId: String(id) }, [{ field: 'upload', name: 'positions.xls', bytes: Buffer.from('a') }]),
    });
    expect(notCsv.body.errors[0]).toMatch(/positions\.xls: only \.csv files can be added/);
    const real = readFileSync(join(fixturesDir(), 'fund-requests', 'real-funds.csv'), 'utf8').split('\n');
    const fr = [real[0], real.find((l) => l.includes(',demo_test,'))!.replace(',demo_test,', ',acme_fund_admin,')].join('\n');
    await api.call('POST', 'sdm-upload/add-file', {
      token,
      body: form({ sdmUploadId: String(id) }, [{ field: 'upload', name: 'fund_request.csv', bytes: Buffer.from(fr) }]),
    });
    await api.call('POST', 'sdm-upload/add-file', {
      token,
      body: form({ sdmUploadId: String(id) }, [
        { field: 'upload', name: 'holdings.csv', bytes: readFileSync(join(fixturesDir(), 'tpas/demo_test/inputs/demo_holdings.csv')) },
      ]),
    });
    const processed = await api.post('sdm-upload/process', { id, isSelfOnboarded: true, forceRun: true }, token);
    expect(processed.status, JSON.stringify(processed.body)).toBe(200);
    expect(processed.body.payload.uploaded_files.map((f: any) => [f.file_name, f.status])).toEqual([
      ['fund_request.csv', 'Uploaded'],
      ['holdings.csv', 'Uploaded'],
    ]);
    expect(events).toEqual(['Uploading', 'Validated', 'Uploading', 'Validated', 'Uploaded', 'Uploaded']);
    const { db, tables: t } = storeOf(ctx);
    const [fund] = await db
      .select({ id: t.fundRequests.id, name: t.fundRequests.name })
      .from(t.fundRequests)
      .innerJoin(t.administrators, eq(t.administrators.id, t.fundRequests.administratorId))
      .where(eq(t.administrators.code, 'acme_fund_admin'));
    expect(fund!.name).toBe('Kentucky Tax-Free Short-to-Medium Series');
    expect(await db.select({ n: count() }).from(t.importFiles).where(eq(t.importFiles.source, 'sdm-upload'))).toEqual([{ n: 1 }]);
    // the fund request came through self-onboarding, and says so
    expect((await api.get(`fund/${fund!.id}`, token)).body.payload.selfOnboarded).toBe(true);
    // its TPA's master mappings start at version 1, recorded as self-onboarding
    const layout = (await api.get('mappings', token)).body.payload.find((m: any) => m.administrator.code === 'acme_fund_admin' && m.type === 'file_layout');
    expect(layout.version).toBe(1);
    const history = (await api.get(`mappings/${layout.id}/history`, token)).body.payload;
    expect(history.versions).toMatchObject([{ version: 1, reason: 'self-onboarding', current: true, author: expect.any(String) }]);
  });

  it("marks an added SDM file Error when it is junk or its header is not the TPA's layout for its type", async () => {
    const created = await api.call('POST', 'sdm-upload/create', { token, body: form({ code: 'acme_three' }, demoMappings()) });
    const sdmUploadId = String(created.body.payload.id);
    const add = async (name: string, bytes: Buffer) =>
      (await api.call('POST', 'sdm-upload/add-file', { token, body: form({ sdmUploadId }, [{ field: 'upload', name, bytes }]) })).body.payload;
    const junk = await add('holdings.csv', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)));
    expect(junk.status).toBe('Error');
    expect(junk.errors[0]).toMatch(/^holdings\.csv cannot be read: /);
    const holdings = readFileSync(join(fixturesDir(), 'tpas/demo_test/inputs/demo_holdings.csv'));
    const wrongType = await add('trial_balance.csv', holdings);
    expect(wrongType.status).toBe('Error');
    expect(wrongType.errors[0]).toMatch(
      /^trial_balance\.csv: the header does not match the TPA's trial_balance layout \(\d+(\.\d+)?% of its required columns found; missing /,
    );
    expect(await add('holdings.csv', holdings)).toMatchObject({ status: 'Validated', errors: [] });
  });

  it('needs a fund request file and an SDM file before processing', async () => {
    const created = await api.call('POST', 'sdm-upload/create', { token, body: form({ code: 'acme_two' }, demoMappings()) });
    const res = await api.post('sdm-upload/process', { id: created.body.payload.id }, token);
    expect(res.body.errors[0]).toBe('Add at least one fund request file and one SDM file before processing');
  });
});
