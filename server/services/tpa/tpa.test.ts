import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { MESSAGES } from '../../../rules/messages.js';
import { storeOf } from '../../db/dialect.js';
import { describeEachDialect } from '../../testing/dialects.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { fixturesDir } from '../../paths.js';
import { createTestContext, errorOf, type TestContext } from '../../testing/context.js';
import { createTpa, uploadMasterMappings } from './tpa.js';

const mappingFile = (type: string) => ({ fileName: `${type}.csv`, bytes: readFileSync(join(fixturesDir(), 'tpas', 'demo_test', 'mappings', `${type}.csv`)) });

describeEachDialect('onboarding a TPA', (dialect) => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext({ dialect, seedDemoData: false });
  });
  afterEach(() => ctx.dispose());

  it('creates a TPA once, under the name rule', async () => {
    expect(await createTpa(ctx, { code: 'northwind_admin', name: ' Northwind Administration ', region: 'EMEA' })).toMatchObject({
      code: 'northwind_admin',
      name: 'Northwind Administration',
      region: 'EMEA',
      selfOnboarded: false,
    });
    expect((await errorOf<ValidationError>(() => createTpa(ctx, { code: 'northwind_admin', name: 'Again' }))).message).toBe('Administrator already exist');
    expect((await errorOf<ValidationError>(() => createTpa(ctx, { code: 'North-Wind', name: 'x' }))).message).toBe(MESSAGES.invalidName);
    expect((await errorOf<ValidationError>(() => createTpa(ctx, { code: 'southwind', name: ' ' }))).message).toBe('The TPA name is required');
  });

  it('saves a folder of master mappings as versions, checking every file before saving any', async () => {
    await createTpa(ctx, { code: 'northwind_admin', name: 'Northwind Administration' });
    const files = [mappingFile('file_layout'), mappingFile('instrument_mapping')];
    const saved = await uploadMasterMappings(ctx, ctx.boot.admin, 'northwind_admin', files, 'first delivery');
    expect(saved.map((s) => [s.type, s.fileName, s.version])).toEqual([
      ['file_layout', 'file_layout.csv', 1],
      ['instrument_mapping', 'instrument_mapping.csv', 1],
    ]);
    const broken = { fileName: 'account_mapping.csv', bytes: Buffer.from('source_code,target_code,description\nCASH,NOT_A_TARGET,x\n') };
    const refused = await errorOf<ValidationError>(() =>
      uploadMasterMappings(ctx, ctx.boot.admin, 'northwind_admin', [mappingFile('share_capital_mapping'), broken]),
    );
    expect(refused.message).toBe('1 mapping file(s) in error; nothing was saved');
    expect(refused.errors[0]).toMatch(/^account_mapping\.csv: Line 2: target_code 'NOT_A_TARGET' is not a valid account_mapping target/);
    const { db, tables: t } = storeOf(ctx);
    const kept = await db.select({ type: t.mappings.type, version: t.mappings.version }).from(t.mappings).orderBy(t.mappings.type);
    expect(kept).toEqual([
      { type: 'file_layout', version: 1 },
      { type: 'instrument_mapping', version: 1 },
    ]);
    const [version] = await db.select().from(t.mappingVersions).where(eq(t.mappingVersions.reason, 'first delivery')).limit(1);
    expect(version).toMatchObject({ version: 1, userId: ctx.boot.admin.id });
    expect(await errorOf(() => uploadMasterMappings(ctx, ctx.boot.admin, 'nobody_admin', files))).toBeInstanceOf(NotFoundError);
  });
});
