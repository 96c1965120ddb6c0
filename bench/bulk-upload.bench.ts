/**
 * Benchmark: validate and save 10,000 bulk-upload rows (target: under 2 s), in-thread (the
 * services as the CLI calls them) and as a request does (validation in the parse pool, the save's
 * transaction on the calling thread), with the longest stall of the calling thread's event loop
 * during each step: what every other request waits at most while an upload is handled.
 * Input: the real funds of fixtures/fund-requests/real-funds.csv repeated with a numbered suffix on
 * the fund code so every row is a distinct request. Run: `npx tsx bench/bulk-upload.bench.ts`.
 */
// first: under tsx (native ESM) the import cycle services/test-runner <-> jobs/stages/index only
// resolves when the stage index is loaded first (vitest and the bundles are not affected)
import '../server/jobs/stages/index.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { fixturesDir } from '../server/paths.js';
import { saveBulkFunds, validateBulkUpload, type BulkSaveInput } from '../server/services/bulk-upload/bulk-upload.js';
import { saveBulkFundsOffThread, validateBulkUploadEncoded } from '../server/threads/bulk-upload/off-thread.js';
import { createTestContext } from '../server/testing/context.js';
import { runTask } from '../server/threads/pools.js';

const ROWS = 10_000;
const [header, ...real] = parse(readFileSync(join(fixturesDir(), 'fund-requests', 'real-funds.csv'), 'utf8')) as string[][];
const codeCol = header.indexOf('fundShortCode');
const altCol = header.indexOf('alternateCodes');
/** The CSV of ROWS distinct requests; `prefix` keeps the codes of two runs apart. */
function csvOf(prefix: string): Buffer {
  const rows = Array.from({ length: ROWS }, (_, i) => {
    const r = [...real[i % real.length]];
    r[codeCol] = `${r[codeCol]}-${prefix}${String(i).padStart(5, '0')}`;
    r[altCol] = `${r[altCol]}-${prefix}${String(i).padStart(5, '0')}`;
    return r;
  });
  return Buffer.from(stringify([header, ...rows]));
}

/** Runs `fn`, answering its time and the longest stall of this thread's event loop meanwhile (ms). */
async function timed<T>(fn: () => T | Promise<T>): Promise<{ value: T; ms: number; stallMs: number }> {
  // a 5 ms timer: the longest gap between two of its turns is the longest stall
  let last = performance.now();
  let stallMs = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 5);
  await new Promise((r) => setTimeout(r, 20));
  const t0 = performance.now();
  const value = await fn();
  const ms = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 20));
  clearInterval(tick);
  return { value, ms, stallMs };
}

const ctx = await createTestContext({ seedDemoData: true });
try {
  const user = ctx.boot.admin;
  const out: Array<Record<string, unknown>> = [];
  {
    const validate = await timed(() => validateBulkUpload(ctx, 'bench.csv', csvOf('a')));
    const save = await timed(() => saveBulkFunds(ctx, user, { funds: validate.value.accepted }, { overwrite: false }));
    out.push({
      mode: 'in-thread (CLI)',
      accepted: validate.value.accepted.length,
      saved: save.value.saved.length,
      validateMs: validate.ms,
      validateStallMs: validate.stallMs,
      saveMs: save.ms,
      saveStallMs: save.stallMs,
    });
  }
  {
    // the parse pool's first thread is started before timing, as on a running server
    await runTask(ctx, 'parse', 'threads.thread-id', []);
    // the route's answer: the rows validated and encoded (JSON, gzip) in the pool; the browser sends the accepted ones back
    const validate = await timed(() => validateBulkUploadEncoded(ctx, 'bench.csv', csvOf('b')));
    const accepted = (JSON.parse(new TextDecoder().decode(validate.value.body)) as { payload: { accepted: BulkSaveInput['funds'] } }).payload.accepted;
    const save = await timed(() => saveBulkFundsOffThread(ctx, user, { funds: accepted }, { overwrite: false }));
    out.push({
      mode: 'request (parse pool)',
      accepted: accepted.length,
      saved: save.value.saved.length,
      validateMs: validate.ms,
      validateStallMs: validate.stallMs,
      saveMs: save.ms,
      saveStallMs: save.stallMs,
    });
  }
  const round = (r: Record<string, unknown>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'number' ? Math.round(v) : v]));
  for (const r of out) {
    const total = Number(r.validateMs) + Number(r.saveMs);
    console.log(JSON.stringify({ rows: ROWS, ...round(r), totalMs: Math.round(total), target: '< 2000 ms', ok: total < 2000 }));
  }
} finally {
  await ctx.dispose();
}
