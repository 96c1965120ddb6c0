import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { seedDemoAdministrators } from '../setup/prepare.js';
import { fundRequests } from '../../db/schema/index.js';
import { fixturesDir } from '../../paths.js';
import { createTestContext, type TestContext } from '../../testing/context.js';
import { AUDITOR_UPLOAD, commitBulkSave, commitBulkSaveInTurns, prepareBulkUpload } from './bulk-upload.js';

/**
 * The real funds of real-funds.csv, each repeated under new codes (`B000000001` ...) and names, plus
 * one row repeating an earlier row's code and period (an in-file duplicate) and one row of the
 * original Goldman Sachs fund, which the test saves beforehand (a duplicate of a stored request).
 */
function bulkCsv(rows: number): Buffer {
  const lines = readFileSync(join(fixturesDir(), 'fund-requests/real-funds.csv'), 'utf8').split(/\r?\n/).filter(Boolean);
  const body = Array.from({ length: rows }, (_, i) =>
    lines[1 + (i % (lines.length - 1))].replace(/^([^,]*),/, `$1 ${i},`).replace(/,S0000\d+,/, `,B${String(i).padStart(9, '0')},`),
  );
  return Buffer.from([lines[0], ...body, body[3], lines[1], ''].join('\n'));
}

const contexts: TestContext[] = [];
afterEach(async () => {
  for (const c of contexts.splice(0)) await c.dispose();
});
async function freshContext(): Promise<TestContext> {
  const ctx = await createTestContext({ seedDemoData: false });
  await seedDemoAdministrators(ctx);
  contexts.push(ctx);
  // the Goldman Sachs fund is already requested
  const first = await prepareBulkUpload(ctx, 'first.csv', readFileSync(join(fixturesDir(), 'fund-requests/real-funds.csv')));
  await commitBulkSave(
    ctx,
    ctx.boot.admin,
    { funds: first.input.funds.slice(0, 1) },
    { ...first.prepared, validated: first.prepared.validated.slice(0, 1) },
    AUDITOR_UPLOAD,
  );
  return ctx;
}

describe('an auditor bulk upload saved a few hundred rows at a time', () => {
  it('saves and refuses exactly the rows one transaction does, letting other work run between transactions', async () => {
    const csv = bulkCsv(60);
    const whole = await freshContext();
    const w = await prepareBulkUpload(whole, 'bulk.csv', csv);
    const once = await commitBulkSave(whole, whole.boot.admin, w.input, w.prepared, AUDITOR_UPLOAD);

    const turns = await freshContext();
    const t = await prepareBulkUpload(turns, 'bulk.csv', csv);
    let ranBetween = 0;
    const tick = async () => {
      ranBetween++;
      if (ranBetween < 1000) setImmediate(tick);
    };
    setImmediate(tick);
    const inTurns = await commitBulkSaveInTurns(turns, turns.boot.admin, t.input, t.prepared, AUDITOR_UPLOAD, 7);
    const ticksWhileSaving = ranBetween;

    const outcome = (r: typeof once) => ({
      saved: r.saved.map((s) => [s.columnName, s.fundName, s.fundShortCode]),
      failed: r.failed.map((f) => [f.fund.columnName, f.errors.faults.map((x) => x.message)]),
    });
    expect(outcome(inTurns)).toEqual(outcome(once));
    expect(once.saved).toHaveLength(60);
    expect(once.failed.map((f) => f.fund.columnName)).toEqual([62, 63]);
    const stored = (c: TestContext) =>
      c.db
        .select({ name: fundRequests.name, periodEnd: fundRequests.periodEnd })
        .from(fundRequests)
        .all()
        .sort((a, b) => a.name.localeCompare(b.name));
    expect(stored(turns)).toEqual(stored(whole));
    // 60 rows 7 at a time: 9 transactions, with other callbacks run between them
    expect(ticksWhileSaving).toBeGreaterThanOrEqual(8);
  });
});
