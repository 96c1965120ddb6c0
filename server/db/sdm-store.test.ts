import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundFiles } from './schema/index.js';
import { countSdmRows, readSdmRows, sdmRowWriter } from './sdm-store.js';
import { insertFund } from '../services/funds/test-factory.js';
import { createTestContext, type TestContext } from '../testing.js';

let ctx: TestContext;
let fileId: number;
const ROWS = 2_500;

beforeAll(async () => {
  ctx = await createTestContext();
  const fund = await insertFund(ctx);
  fileId = ctx.db
    .insert(fundFiles)
    .values({ fundRequestId: fund.id, kind: 'standardization', fileType: 'holdings', fileName: 'holdings.csv', status: 'done' })
    .returning()
    .get().id;
  const w = sdmRowWriter(ctx.sqlite, fileId, 'holdings');
  ctx.sqlite.transaction(() => {
    for (let i = 0; i < ROWS; i++) w.add({ file: 'MFS_HOLDINGS.csv', line: i + 5, security_id: `US${i}`, market_value_base: i * 1.25 });
    w.flush();
  })();
});
afterAll(() => ctx.dispose());

describe('standardized rows in the database', () => {
  it('reads every row back in line order and counts them without reading them', () => {
    const rows = [...readSdmRows<{ line: number; market_value_base: number }>(ctx.sqlite, [fileId], 'holdings')];
    expect(rows).toHaveLength(ROWS);
    expect(rows.map((r) => r.line)).toEqual(Array.from({ length: ROWS }, (_, i) => i + 5));
    expect(rows[1234].market_value_base).toBe(1234 * 1.25);
    expect(countSdmRows(ctx.sqlite, [fileId])).toBe(ROWS);
  });

  it('lets the same connection write while a reader waits between rows (a lease renewal during a long sheet)', () => {
    let n = 0;
    for (const _ of readSdmRows(ctx.sqlite, [fileId])) {
      if (++n % 700 === 0) ctx.sqlite.prepare('UPDATE fund_files SET updated_at = ? WHERE id = ?').run(new Date().toISOString(), fileId);
    }
    expect(n).toBe(ROWS);
  });

  it('says so when the rows are replaced while they are read', () => {
    const rows = readSdmRows(ctx.sqlite, [fileId]);
    rows.next();
    ctx.sqlite.prepare('DELETE FROM sdm_chunks WHERE fund_file_id = ?').run(fileId);
    expect(() => [...rows]).toThrow(/were replaced while they were read/);
  });
});
