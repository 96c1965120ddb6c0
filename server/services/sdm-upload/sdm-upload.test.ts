import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { MESSAGES } from '../../../rules/messages.js';
import { storeOf } from '../../db/dialect.js';
import { describeEachDialect } from '../../testing/dialects.js';
import { ValidationError } from '../../errors.js';
import { fixturesDir } from '../../paths.js';
import { createTestContext, errorOf, type TestContext } from '../../testing/context.js';
import { addUser } from '../users/users.js';
import { processSdmUpload } from './process.js';
import { addSdmFile, checkTpaName, createSdmUpload, sdmAdministrators, sdmUploadInfo } from './sdm-upload.js';

const demo = (path: string) => readFileSync(join(fixturesDir(), 'tpas', 'demo_test', path));
const mappingFiles = (types: string[]) => types.map((t) => ({ fileName: `${t}.csv`, bytes: demo(`mappings/${t}.csv`) }));

describeEachDialect('self-onboarding uploads', (dialect) => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext({ dialect, seedDemoData: false });
  });
  afterEach(() => ctx.dispose());

  it('creates the TPA with its master mappings and an upload, and needs the three main mapping types of a new TPA', async () => {
    expect(await checkTpaName(ctx, 'acme_fund_admin')).toEqual({ status: 'New', message: 'New' });
    expect(await checkTpaName(ctx, 'Acme')).toEqual({ status: 'Invalid', message: MESSAGES.invalidName });
    const missing = await errorOf<ValidationError>(() =>
      createSdmUpload(ctx, ctx.boot.admin, { code: 'acme_fund_admin', files: mappingFiles(['file_layout']) }),
    );
    expect(missing.message).toBe('Upload the account_mapping, instrument_mapping mapping file(s) first');
    expect(await sdmAdministrators(ctx)).toEqual([]);
    const upload = await createSdmUpload(ctx, ctx.boot.admin, {
      code: 'acme_fund_admin',
      name: 'Acme Fund Administration',
      files: mappingFiles(['file_layout', 'account_mapping', 'instrument_mapping']),
      touchedMappings: { newMappings: ['file_layout'] },
    });
    expect(upload).toMatchObject({
      status: 'Created',
      force_run: false,
      administrator: { code: 'acme_fund_admin', name: 'Acme Fund Administration' },
      uploaded_files: [],
    });
    expect(Object.keys(upload.validationResults).sort()).toEqual(['account_mapping', 'file_layout', 'instrument_mapping', 'touchedMappings']);
    expect(await checkTpaName(ctx, 'acme_fund_admin')).toEqual({ status: 'Administrator already exist', message: 'Administrator already exist' });
    const [tpa] = await sdmAdministrators(ctx);
    expect(tpa.mappings.map((m) => m.type).sort()).toEqual(['account_mapping', 'file_layout', 'instrument_mapping']);
    // an existing TPA needs only the files it changes
    const next = await createSdmUpload(ctx, ctx.boot.admin, { code: 'acme_fund_admin', files: mappingFiles(['share_capital_mapping']) });
    expect(next.id).not.toBe(upload.id);
    expect((await sdmAdministrators(ctx))[0].mappings).toHaveLength(4);
  });

  it('lets only the delivery team replace the master mappings of a TPA not onboarded through the wizard', async () => {
    const auditor = await addUser(ctx, { email: 'aud@example.com', name: 'Au Ditor', role: 'Auditor' });
    // onboarded through the wizard: its onboarding auditor may correct its masters ("existing and replaced")
    await createSdmUpload(ctx, auditor, { code: 'acme_fund_admin', files: mappingFiles(['file_layout', 'account_mapping', 'instrument_mapping']) });
    await createSdmUpload(ctx, auditor, { code: 'acme_fund_admin', files: mappingFiles(['account_mapping']) });
    // a TPA the delivery team runs: its masters feed its funds
    const { db, tables: t } = storeOf(ctx);
    await db.update(t.administrators).set({ selfOnboarded: false }).where(eq(t.administrators.code, 'acme_fund_admin'));
    const versions = async () => (await db.select().from(t.mappingVersions)).length;
    const before = await versions();
    const refused = await errorOf(() => createSdmUpload(ctx, auditor, { code: 'acme_fund_admin', files: mappingFiles(['instrument_mapping']) }));
    expect(refused.message).toBe(
      'Only the delivery team can replace the master instrument_mapping of acme_fund_admin, a TPA not onboarded through this wizard; upload only the mapping types it does not have yet',
    );
    expect(await versions()).toBe(before);
    // a type it does not have yet is the auditor's to add, and the delivery team may replace any
    await createSdmUpload(ctx, auditor, { code: 'acme_fund_admin', files: mappingFiles(['share_capital_mapping']) });
    await createSdmUpload(ctx, ctx.boot.admin, { code: 'acme_fund_admin', files: mappingFiles(['instrument_mapping']) });
    // a version for the new type; the same instrument mapping again is no new version
    expect(await versions()).toBe(before + 1);
  });

  it('adds files as Validated or Error, each change published, and will not process without a fund request and an SDM file', async () => {
    const { id } = await createSdmUpload(ctx, ctx.boot.admin, {
      code: 'acme_fund_admin',
      files: mappingFiles(['file_layout', 'account_mapping', 'instrument_mapping']),
    });
    const events: string[] = [];
    ctx.events.on('upload-file', (e) => events.push(`${e.file.file_name} ${e.file.status}`));
    const notCsv = await errorOf<ValidationError>(() => addSdmFile(ctx, { sdmUploadId: id, file: { fileName: 'positions.xls', bytes: Buffer.from('a') } }));
    expect(notCsv.message).toBe('positions.xls: only .csv files can be added');
    const junk = await addSdmFile(ctx, { sdmUploadId: id, file: { fileName: 'trial_balance.csv', bytes: demo('inputs/demo_holdings.csv') } });
    expect(junk.status).toBe('Error');
    expect(junk.errors[0]).toMatch(/^trial_balance\.csv: the header does not match the TPA's trial_balance layout/);
    const holdings = await addSdmFile(ctx, { sdmUploadId: id, file: { fileName: 'holdings.csv', bytes: demo('inputs/demo_holdings.csv') } });
    expect(holdings).toMatchObject({ status: 'Validated', errors: [] });
    expect(events).toEqual(['trial_balance.csv Uploading', 'trial_balance.csv Error', 'holdings.csv Uploading', 'holdings.csv Validated']);
    const info = await sdmUploadInfo(ctx, id);
    expect(info.uploaded_files.map((f) => [f.file_name, f.status])).toEqual([
      ['trial_balance.csv', 'Error'],
      ['holdings.csv', 'Validated'],
    ]);
    // where the bytes are is kept with the upload, not shown
    expect(Object.keys(info.validationResults).some((k) => k.startsWith('blob:'))).toBe(false);
    const refused = await errorOf<ValidationError>(() => processSdmUpload(ctx, ctx.boot.admin, { id }));
    expect(refused.message).toBe('Add at least one fund request file and one SDM file before processing');
    expect((await sdmUploadInfo(ctx, id)).status).toBe('Created');
  });

  it("accepts the TPA's files under their own names, typed by their header, and refuses one no layout recognises", async () => {
    const { id } = await createSdmUpload(ctx, ctx.boot.admin, {
      code: 'acme_fund_admin',
      files: mappingFiles(['file_layout', 'account_mapping', 'instrument_mapping']),
    });
    const real = readFileSync(join(fixturesDir(), 'fund-requests', 'real-funds.csv'), 'utf8').split('\n');
    const fr = [real[0], real.find((l) => l.includes(',demo_test,'))!.replace(',demo_test,', ',acme_fund_admin,')].join('\n');
    const added = [];
    for (const [fileName, bytes] of [
      ['Acme requests 2022.csv', Buffer.from(fr)],
      ['demo_holdings.csv', demo('inputs/demo_holdings.csv')],
      ['demo_trial_balance.csv', demo('inputs/demo_trial_balance.csv')],
      ['notes.csv', Buffer.from('Note,Author\nDelivered late,ops\n')],
    ] as const)
      added.push(await addSdmFile(ctx, { sdmUploadId: id, file: { fileName, bytes } }));
    expect(added.map((f) => [f.file_name, f.type, f.sub_type, f.status])).toEqual([
      ['Acme requests 2022.csv', 'FundRequest', 'fund_request', 'Validated'],
      ['demo_holdings.csv', 'SDM', 'holdings', 'Validated'],
      ['demo_trial_balance.csv', 'SDM', 'trial_balance', 'Validated'],
      ['notes.csv', 'SDM', null, 'Error'],
    ]);
    expect(added[3].errors[0]).toMatch(/^notes\.csv: its header matches none of the TPA's file layouts .*and is not the fund request template/);
    const processed = await processSdmUpload(ctx, ctx.boot.admin, { id, forceRun: true });
    expect(processed.uploaded_files.filter((f) => f.status === 'Uploaded').map((f) => f.file_name)).toEqual([
      'Acme requests 2022.csv',
      'demo_holdings.csv',
      'demo_trial_balance.csv',
    ]);
    const { db, tables: t } = storeOf(ctx);
    const imports = await db.select().from(t.importFiles).where(eq(t.importFiles.source, 'sdm-upload'));
    expect(imports.map((i) => i.fileName).sort()).toEqual(['demo_holdings.csv', 'demo_trial_balance.csv']);
  });

  it('processing saves its fund requests and imports its SDM files, queueing their identification', async () => {
    const { id } = await createSdmUpload(ctx, ctx.boot.admin, {
      code: 'acme_fund_admin',
      files: mappingFiles(['file_layout', 'account_mapping', 'instrument_mapping']),
    });
    const real = readFileSync(join(fixturesDir(), 'fund-requests', 'real-funds.csv'), 'utf8').split('\n');
    const fr = [real[0], real.find((l) => l.includes(',demo_test,'))!.replace(',demo_test,', ',acme_fund_admin,')].join('\n');
    await addSdmFile(ctx, { sdmUploadId: id, file: { fileName: 'fund_request.csv', bytes: Buffer.from(fr) } });
    await addSdmFile(ctx, { sdmUploadId: id, file: { fileName: 'holdings.csv', bytes: demo('inputs/demo_holdings.csv') } });
    const processed = await processSdmUpload(ctx, ctx.boot.admin, { id, forceRun: true });
    expect(processed.uploaded_files.map((f) => [f.file_name, f.status])).toEqual([
      ['fund_request.csv', 'Uploaded'],
      ['holdings.csv', 'Uploaded'],
    ]);
    const { db, tables: t } = storeOf(ctx);
    const imports = await db.select().from(t.importFiles).where(eq(t.importFiles.source, 'sdm-upload'));
    expect(imports.map((i) => i.fileName)).toEqual(['holdings.csv']);
    const jobs = await db.select().from(t.processes).where(eq(t.processes.stage, 'identification'));
    expect(jobs.map((j) => [j.status, j.payload])).toEqual([['pending', { importFileId: imports[0].id }]]);
  });
});
