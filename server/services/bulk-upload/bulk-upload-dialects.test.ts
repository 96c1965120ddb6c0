import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { seedDemoAdministrators } from '../setup/prepare.js';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { describeEachDialect, openDialectDatabase, type DialectDatabase } from '../../testing/dialects.js';
import { fixturesDir } from '../../paths.js';
import type { User } from '../auth/tokens.js';
import { seedReferenceData } from '../reference-data/reference-data.js';
import { ensureAdmin } from '../users/users.js';
import { AUDITOR_UPLOAD, commitBulkSave, prepareBulkUpload, saveBulkFunds, uploadAndSaveBulk, validateBulkUpload } from './bulk-upload.js';

const realFunds = () => readFileSync(join(fixturesDir(), 'fund-requests/real-funds.csv'));

/** The real funds repeated `rows` times under new codes (`B000000001` ...) and names. */
function manyFunds(rows: number): Buffer {
  const lines = realFunds().toString('utf8').split(/\r?\n/).filter(Boolean);
  const body = Array.from({ length: rows }, (_, i) =>
    lines[1 + (i % (lines.length - 1))].replace(/^([^,]*),/, `$1 ${i},`).replace(/,S0000\d+,/, `,B${String(i).padStart(9, '0')},`),
  );
  return Buffer.from([lines[0], ...body, ''].join('\n'));
}

describeEachDialect('bulk upload of fund requests', (dialect) => {
  let database: DialectDatabase;
  let ctx: AppContext;
  let admin: User;
  beforeEach(async () => {
    database = await openDialectDatabase(dialect, { seedDemoData: false });
    ctx = database.ctx;
    await seedReferenceData(ctx);
    await seedDemoAdministrators(ctx);
    admin = (await ensureAdmin(ctx, 'admin@example.com')).user;
  });
  afterEach(() => database.dispose());

  it('saves the real funds with their codes and a trail entry each, and overwrites only rows accepted as editable', async () => {
    const { db, tables: t } = storeOf(ctx);
    const result = await validateBulkUpload(ctx, 'real-funds.csv', realFunds());
    expect(result.declined.map((r) => r.errors.faults)).toEqual([]);
    const saved = await saveBulkFunds(ctx, admin, { requestDate: '2023-04-03', funds: result.accepted });
    expect(saved.failed).toEqual([]);
    expect(saved.saved.map((s) => s.fundName)).toEqual(result.accepted.map((r) => r.fundName));
    const [gs] = await db.select().from(t.fundRequests).where(eq(t.fundRequests.id, saved.saved[0].id));
    expect(gs).toMatchObject({
      name: 'Goldman Sachs Bond Fund',
      periodEnd: '2023-03-31',
      currency: 'USD',
      pm: 1,
      te: 0.75,
      requestDate: '2023-04-03',
      createdById: admin.id,
    });
    const codes = await db.select().from(t.fundCodes).where(eq(t.fundCodes.fundRequestId, gs.id)).orderBy(asc(t.fundCodes.id));
    expect(codes.map((c) => [c.code, c.main])).toEqual([
      ['S000013795', true],
      ['K5ZYN8ZUQE8S5OUPBU26', false],
    ]);
    expect(await db.select().from(t.trail).where(eq(t.trail.action, 'bulk-upload'))).toHaveLength(saved.saved.length);

    const again = await validateBulkUpload(ctx, 'real-funds.csv', realFunds());
    expect(again.accepted).toEqual([]);
    const [overwrite, keep] = again.editable;
    const res = await saveBulkFunds(ctx, admin, { funds: [{ ...overwrite, isEditable: true, notes: 'updated' }, keep] });
    expect(res.saved).toEqual([expect.objectContaining({ id: gs.id, overwritten: true, fundShortCode: 'S000013795' })]);
    expect(res.failed[0].errors.faults[0].message).toMatch(/not accepted for overwrite/);
    const [after] = await db.select().from(t.fundRequests).where(eq(t.fundRequests.id, gs.id));
    expect(after.notes).toBe('updated');
    expect(await db.select().from(t.fundRequests)).toHaveLength(saved.saved.length);
    expect(await db.select().from(t.trail).where(eq(t.trail.action, 'bulk-overwrite'))).toHaveLength(1);
  });

  it("queues identification again for unmatched files of the saved funds' administrators", async () => {
    const { db, tables: t } = storeOf(ctx);
    const admins = await db.select({ id: t.administrators.id }).from(t.administrators).orderBy(asc(t.administrators.id));
    const imports = await db
      .insert(t.importFiles)
      .values(admins.map((a) => ({ administratorId: a.id, fileName: `early-${a.id}.csv`, sha256: `sha-${a.id}`, size: 1, status: 'Finished' as const })))
      .returning({ id: t.importFiles.id, administratorId: t.importFiles.administratorId });
    await db
      .insert(t.unmatchedFiles)
      .values(imports.map((i) => ({ importFileId: i.id, fileName: 'early.csv', fileType: 'TB', administratorId: i.administratorId })));
    const result = await validateBulkUpload(ctx, 'real-funds.csv', realFunds());
    const saved = await saveBulkFunds(ctx, admin, { requestDate: '2023-04-03', funds: result.accepted });
    expect(saved.saved.length).toBeGreaterThan(0);
    const funds = await db.select({ administratorId: t.fundRequests.administratorId }).from(t.fundRequests);
    const fundAdmins = new Set(funds.map((f) => f.administratorId));
    const expected = imports.filter((i) => fundAdmins.has(i.administratorId)).map((i) => i.id);
    expect(expected.length).toBeGreaterThan(0);
    const jobs = await db.select().from(t.processes).orderBy(asc(t.processes.id));
    expect(jobs.map((j) => [j.stage, j.forceRun])).toEqual(expected.map(() => ['identification', true]));
    expect(jobs.map((j) => j.payload?.importFileId).sort()).toEqual([...expected].sort());
    const left = await db.select({ importFileId: t.unmatchedFiles.importFileId }).from(t.unmatchedFiles);
    expect(left.map((r) => r.importFileId).sort()).toEqual(
      imports
        .filter((i) => !fundAdmins.has(i.administratorId))
        .map((i) => i.id)
        .sort(),
    );
  });

  it('writes hundreds of rows in batches, each with its own codes, and reports rows saved by others since validation', async () => {
    const { db, tables: t } = storeOf(ctx);
    const { input, prepared } = await prepareBulkUpload(ctx, 'many.csv', manyFunds(450));
    // a request for the first row is saved elsewhere after validation
    const first = await prepareBulkUpload(ctx, 'first.csv', manyFunds(1));
    await commitBulkSave(ctx, admin, first.input, first.prepared, AUDITOR_UPLOAD);
    const res = await commitBulkSave(ctx, admin, input, prepared, AUDITOR_UPLOAD);
    expect(res.saved).toHaveLength(449);
    expect(res.failed.map((f) => [f.fund.columnName, f.errors.faults[0].message])).toEqual([
      [2, expect.stringMatching(/another request exists with same unique identifier/)],
    ]);
    const rows = await db
      .select({ id: t.fundRequests.id, name: t.fundRequests.name, code: t.fundCodes.code })
      .from(t.fundRequests)
      .innerJoin(t.fundCodes, eq(t.fundCodes.fundRequestId, t.fundRequests.id))
      .where(eq(t.fundCodes.main, true));
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const s of res.saved) expect(byId.get(s.id)).toMatchObject({ name: s.fundName, code: s.fundShortCode });
    expect(new Set(res.saved.map((s) => s.id)).size).toBe(449);
  });

  it('uploads and saves in one call, refusing rows that repeat an earlier row of the file', async () => {
    const csv = Buffer.concat([realFunds(), Buffer.from(realFunds().toString('utf8').split(/\r?\n/)[1] + '\n')]);
    const res = await uploadAndSaveBulk(ctx, admin, 'twice.csv', csv);
    expect(res.totalRows).toBe(res.saved.length + 1);
    expect(res.failed.map((f) => f.errors.faults.map((x) => x.message).join('; '))).toEqual([
      expect.stringMatching(/repeats the TPA, fund code and period end of row 2/),
    ]);
  });
});
