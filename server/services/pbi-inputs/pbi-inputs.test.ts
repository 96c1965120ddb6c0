import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tokens } from '../../db/schema/index.js';
import { ConflictError, NotFoundError, UnauthorizedError, ValidationError } from '../../errors.js';
import { createTestContext, type TestContext, errorOf } from '../../testing.js';
import { hashToken } from '../auth/tokens.js';
import { listPbiInputs, listPbiInputTypes, openPbiInput, savePbiInput } from './pbi-inputs.js';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestContext({ seedDemoData: false, pbiInputs: true });
});
afterEach(() => ctx.dispose());

const csv = (text: string) => new TextEncoder().encode(text);
const ENGAGEMENTS =
  'Engagement Code,Client,Fiscal Year End,Engagement Partner,Engagement Manager,Notes\nE-100,Dupree Mutual Funds,2023-06-30,A. Partner,B. Manager,\nE-200,Goldman Sachs,2023-03-31,C. Partner,D. Manager,x\n';
const save = (fileName: string, text: string, type: string | null = 'engagement_list') =>
  savePbiInput(ctx, ctx.boot.admin, { pbiInputsTypes: type, fileName, bytes: csv(text) }, 'http://fa.example');

describe('PowerBI inputs', () => {
  it('lists the input types with the columns each needs', () => {
    const types = listPbiInputTypes(ctx);
    expect(types.map((t) => t.code)).toEqual(['engagement_list', 'fund_mapping', 'audit_team', 'budget_hours']);
    expect(types.find((t) => t.code === 'fund_mapping')!.columns).toEqual(['fund_code', 'administrator', 'engagement_code']);
  });

  it('stores a csv with a masked file token that downloads that file until it expires', () => {
    const saved = save('engagements.csv', ENGAGEMENTS);
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
    const file = openPbiInput(ctx, saved.id, saved.token);
    expect(file.fileName).toBe('engagements.csv');
    expect(file.bytes.toString('utf8')).toBe(ENGAGEMENTS);
    // the row keeps no raw token
    expect(JSON.stringify(listPbiInputs(ctx))).not.toContain(saved.token);
  });

  it('refuses a token of another file, an expired token and no token', () => {
    const a = save('a.csv', ENGAGEMENTS);
    const b = save('b.csv', 'fund_code;administrator;engagement_code\nS000012000;keystone_admin;E-100\n', 'fund_mapping');
    expect(b.row_count).toBe(1);
    expect(errorOf<ValidationError>(() => openPbiInput(ctx, a.id, b.token))).toBeInstanceOf(NotFoundError);
    expect(errorOf<ValidationError>(() => openPbiInput(ctx, a.id, null))).toBeInstanceOf(UnauthorizedError);
    ctx.db
      .update(tokens)
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(tokens.tokenHash, hashToken(a.token)))
      .run();
    expect(errorOf<ValidationError>(() => openPbiInput(ctx, a.id, a.token)).message).toBe('The token has expired');
  });

  it('needs an input type, a .csv file and the columns of its type', () => {
    expect(errorOf<ValidationError>(() => save('e.csv', ENGAGEMENTS, null)).message).toBe('Choose an input type before uploading a file');
    expect(errorOf<ValidationError>(() => save('e.csv', ENGAGEMENTS, 'weather')).message).toBe("Unknown input type 'weather'");
    expect(errorOf<ValidationError>(() => save('e.xlsx', ENGAGEMENTS)).message).toBe('e.xlsx is not a .csv file');
    const wrong = errorOf<ValidationError>(() => save('team.csv', 'engagement_code,email\nE-100,a@example.com\n', 'audit_team'));
    expect(wrong.message).toBe('team.csv does not fit the input type Audit team');
    expect(wrong.errors).toEqual(['Column role is missing']);
    expect(errorOf<ValidationError>(() => save('head.csv', 'engagement_code,email,role\n', 'audit_team')).message).toBe('head.csv has no rows');
    expect(listPbiInputs(ctx).pagination.count).toBe(0);
  });

  it('pages 10 at a time, newest first, and sorts by a column when asked', () => {
    for (let i = 1; i <= 12; i++) save(`file-${String(i).padStart(2, '0')}.csv`, ENGAGEMENTS);
    const first = listPbiInputs(ctx);
    expect(first.pagination).toEqual({ offset: 0, limit: 10, count: 12 });
    expect(first.rows[0].file_name).toBe('file-12.csv');
    expect(listPbiInputs(ctx, { offset: 10 }).rows.map((r) => r.file_name)).toEqual(['file-02.csv', 'file-01.csv']);
    expect(listPbiInputs(ctx, { sorting: [{ field: 'file_name', order: 'asc' }], limit: 2 }).rows.map((r) => r.file_name)).toEqual([
      'file-01.csv',
      'file-02.csv',
    ]);
  });

  it('is refused while pbiInputs is off', async () => {
    const off = await createTestContext({ seedDemoData: false });
    try {
      expect(errorOf<ValidationError>(() => listPbiInputs(off))).toBeInstanceOf(ConflictError);
    } finally {
      off.dispose();
    }
  });
});
