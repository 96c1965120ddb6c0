import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { storeOf } from '../../db/dialect.js';
import { describeEachDialect } from '../../testing/dialects.js';
import { ConflictError, NotFoundError, UnauthorizedError, ValidationError } from '../../errors.js';
import { createTestContext, type TestContext, errorOf } from '../../testing/context.js';
import { hashToken } from '../auth/tokens.js';
import { listPbiInputs, listPbiInputTypes, openPbiInput, savePbiInput } from './pbi-inputs.js';

const csv = (text: string) => new TextEncoder().encode(text);
const ENGAGEMENTS =
  'Engagement Code,Client,Fiscal Year End,Engagement Partner,Engagement Manager,Notes\nE-100,Dupree Mutual Funds,2023-06-30,A. Partner,B. Manager,\nE-200,Goldman Sachs,2023-03-31,C. Partner,D. Manager,x\n';

describeEachDialect('PowerBI inputs', (dialect) => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext({ dialect, seedDemoData: false, pbiInputs: true });
  });
  afterEach(() => ctx.dispose());

  const save = (fileName: string, text: string, type: string | null = 'engagement_list') =>
    savePbiInput(ctx, ctx.boot.admin, { pbiInputsTypes: type, fileName, bytes: csv(text) }, 'http://fa.example');

  it('lists the input types with the columns each needs', () => {
    const types = listPbiInputTypes(ctx);
    expect(types.map((t) => t.code)).toEqual(['engagement_list', 'fund_mapping', 'audit_team', 'budget_hours']);
    expect(types.find((t) => t.code === 'fund_mapping')!.columns).toEqual(['fund_code', 'administrator', 'engagement_code']);
  });

  it('stores a csv with a masked file token that downloads that file until it expires', async () => {
    const saved = await save('engagements.csv', ENGAGEMENTS);
    expect(saved).toMatchObject({
      pbi_input_type: 'engagement_list',
      pbi_input_type_name: 'Engagement list',
      file_name: 'engagements.csv',
      uploaded_by: 'Fund Audit Administrator',
      row_count: 2,
      token_expired: false,
    });
    expect(saved.sas_token).toBe(`••••••••${saved.token.slice(-4)}`);
    expect(saved.url).toBe(`http://fa.example/api/v2.0/pbi-inputs/file/${saved.id}?token=${saved.token}`);
    const days = (Date.parse(saved.token_expiry_date!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    const file = await openPbiInput(ctx, saved.id, saved.token);
    expect(file.fileName).toBe('engagements.csv');
    expect(file.bytes.toString('utf8')).toBe(ENGAGEMENTS);
    // the row keeps no raw token
    expect(JSON.stringify(await listPbiInputs(ctx))).not.toContain(saved.token);
  });

  it('refuses a token of another file, an expired token and no token', async () => {
    const a = await save('a.csv', ENGAGEMENTS);
    const b = await save('b.csv', 'fund_code;administrator;engagement_code\nS000012000;keystone_admin;E-100\n', 'fund_mapping');
    expect(b.row_count).toBe(1);
    expect(await errorOf<ValidationError>(() => openPbiInput(ctx, a.id, b.token))).toBeInstanceOf(NotFoundError);
    expect(await errorOf<ValidationError>(() => openPbiInput(ctx, a.id, null))).toBeInstanceOf(UnauthorizedError);
    const { db, tables: t } = storeOf(ctx);
    await db
      .update(t.tokens)
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(t.tokens.tokenHash, hashToken(a.token)));
    expect((await errorOf<ValidationError>(() => openPbiInput(ctx, a.id, a.token))).message).toBe('The token has expired');
  });

  it('needs an input type, a .csv file and the columns of its type', async () => {
    expect((await errorOf<ValidationError>(() => save('e.csv', ENGAGEMENTS, null))).message).toBe('Choose an input type before uploading a file');
    expect((await errorOf<ValidationError>(() => save('e.csv', ENGAGEMENTS, 'weather'))).message).toBe("Unknown input type 'weather'");
    expect((await errorOf<ValidationError>(() => save('e.xlsx', ENGAGEMENTS))).message).toBe('e.xlsx is not a .csv file');
    const wrong = await errorOf<ValidationError>(() => save('team.csv', 'engagement_code,email\nE-100,a@example.com\n', 'audit_team'));
    expect(wrong.message).toBe('team.csv does not fit the input type Audit team');
    expect(wrong.errors).toEqual(['Column role is missing']);
    expect((await errorOf<ValidationError>(() => save('head.csv', 'engagement_code,email,role\n', 'audit_team'))).message).toBe('head.csv has no rows');
    expect((await listPbiInputs(ctx)).pagination.count).toBe(0);
  });

  it('counts the rows of a csv whose lines end in both CRLF and LF, as delivered', async () => {
    // rows exported on Windows, then more typed on another machine: each line keeps its own ending
    const lines = ENGAGEMENTS.trimEnd().split('\n');
    const mixed = `${lines[0]}\r\n${lines[1]}\n${lines[2]}\r\nE-300,Keystone Trust,2023-12-31,E. Partner,F. Manager,\n`;
    const saved = await save('mixed.csv', mixed);
    expect(saved.row_count).toBe(3);
    expect((await openPbiInput(ctx, saved.id, saved.token)).bytes.toString('utf8')).toBe(mixed);
  });

  it('pages 10 at a time, newest first, and sorts by a column when asked', async () => {
    for (let i = 1; i <= 12; i++) await save(`file-${String(i).padStart(2, '0')}.csv`, ENGAGEMENTS);
    const first = await listPbiInputs(ctx);
    expect(first.pagination).toEqual({ offset: 0, limit: 10, count: 12 });
    expect(first.rows[0].file_name).toBe('file-12.csv');
    expect((await listPbiInputs(ctx, { offset: 10 })).rows.map((r) => r.file_name)).toEqual(['file-02.csv', 'file-01.csv']);
    expect((await listPbiInputs(ctx, { sorting: [{ field: 'file_name', order: 'asc' }], limit: 2 })).rows.map((r) => r.file_name)).toEqual([
      'file-01.csv',
      'file-02.csv',
    ]);
  });

  it('filters by file name and uploader in any case, and by type', async () => {
    await save('Engagements-Q1.csv', ENGAGEMENTS);
    await save('mapping.csv', 'fund_code,administrator,engagement_code\nS000012000,keystone_admin,E-100\n', 'fund_mapping');
    const names = async (filters: unknown) => (await listPbiInputs(ctx, { filters })).rows.map((r) => r.file_name);
    expect(await names([{ field: 'file_name', type: 'text', value: 'engagements-q' }])).toEqual(['Engagements-Q1.csv']);
    expect(await names([{ field: 'uploaded_by', type: 'text', value: 'audit ADMIN' }])).toEqual(['mapping.csv', 'Engagements-Q1.csv']);
    expect(await names([{ field: 'uploaded_by', type: 'text', value: 'nobody' }])).toEqual([]);
    expect(await names([{ field: 'pbi_input_type', type: 'enum', value: ['fund_mapping'] }])).toEqual(['mapping.csv']);
  });

  it('is refused while pbiInputs is off', async () => {
    const off = await createTestContext({ dialect, seedDemoData: false });
    try {
      expect(await errorOf<ValidationError>(() => listPbiInputs(off))).toBeInstanceOf(ConflictError);
    } finally {
      await off.dispose();
    }
  });
});
