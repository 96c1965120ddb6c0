/**
 * Benchmark: validate and save 10,000 bulk-upload rows (target: under 2 s).
 * Input: the real funds of fixtures/fund-requests/real-funds.csv repeated with a numbered suffix on
 * the fund code so every row is a distinct request. Run: `npx tsx bench/bulk-upload.bench.ts`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { fixturesDir } from '../server/paths.js';
import { saveBulkFunds, validateBulkUpload } from '../server/services/bulk-upload/bulk-upload.js';
import { createTestContext } from '../server/testing.js';

const ROWS = 10_000;
const [header, ...real] = parse(readFileSync(join(fixturesDir(), 'fund-requests', 'real-funds.csv'), 'utf8')) as string[][];
const codeCol = header.indexOf('fundShortCode');
const altCol = header.indexOf('alternateCodes');
const rows = Array.from({ length: ROWS }, (_, i) => {
  const r = [...real[i % real.length]];
  r[codeCol] = `${r[codeCol]}-${String(i).padStart(5, '0')}`;
  r[altCol] = `${r[altCol]}-${String(i).padStart(5, '0')}`;
  return r;
});
const csv = Buffer.from(stringify([header, ...rows]));

const ctx = await createTestContext({ seedDemoData: true });
try {
  const t0 = performance.now();
  const validated = validateBulkUpload(ctx, 'bench.csv', csv);
  const t1 = performance.now();
  const { saved, failed } = saveBulkFunds(ctx, ctx.boot.admin, { funds: validated.accepted }, { overwrite: false });
  const t2 = performance.now();
  const total = t2 - t0;
  console.log(JSON.stringify({
    rows: ROWS, accepted: validated.accepted.length, saved: saved.length, failed: failed.length,
    validateMs: Math.round(t1 - t0), saveMs: Math.round(t2 - t1), totalMs: Math.round(total), target: '< 2000 ms', ok: total < 2000,
  }));
} finally {
  ctx.dispose();
}
