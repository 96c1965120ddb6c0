/**
 * Benchmark: uploads of many short lines. A 2 MB file of a million short lines is sent, as a
 * request, to each endpoint that reads a whole text file (PowerBI inputs, bulk upload, auditor bulk
 * upload, mapping uploads, the self-onboarding mapping check and save, a self-onboarding
 * fund_request.csv). For each: the answer's status and size, the time the serving thread was busy
 * (event-loop utilization: every millisecond it could not answer another request; target < 2 s),
 * its longest stall, and the peak resident memory of the process (target < 1.5 GB).
 * Run: `npx tsx bench/hostile-uploads.bench.ts`.
 */
// first: under tsx (native ESM) the import cycle services/test-runner <-> jobs/stages/index only
// resolves when the stage index is loaded first (vitest and the bundles are not affected)
import '../server/jobs/stages/index.js';
import { performance } from 'node:perf_hooks';
import { BULK_UPLOAD_COLUMNS } from '../server/services/bulk-upload/columns.js';
import { apiClient, createTestContext, sessionToken } from '../server/testing/context.js';
import { runTask } from '../server/threads/pools.js';

const LINES = 1_000_000;
const manyLines = (header: string, line: string) => Buffer.from(`${header}\n${`${line}\n`.repeat(LINES)}`);

function form(fields: Record<string, string>, field: string, name: string, bytes: Buffer): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  f.append(field, new Blob([new Uint8Array(bytes)]), name);
  return f;
}

/** Runs `fn`, answering its time, the serving thread's busy time, its longest stall and the peak RSS meanwhile. */
async function measured<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; busyMs: number; stallMs: number; peakRssMb: number }> {
  let last = performance.now();
  let stallMs = 0;
  let peak = process.memoryUsage.rss();
  const tick = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  await new Promise((r) => setTimeout(r, 20));
  const elu = performance.eventLoopUtilization();
  const t0 = performance.now();
  const value = await fn();
  const ms = performance.now() - t0;
  const busyMs = performance.eventLoopUtilization(elu).active;
  await new Promise((r) => setTimeout(r, 20));
  clearInterval(tick);
  return { value, ms, busyMs, stallMs, peakRssMb: peak / 2 ** 20 };
}

const ctx = await createTestContext({ pbiInputs: true });
try {
  const api = apiClient(ctx);
  const token = await sessionToken(ctx, ctx.boot.admin.id);
  // the parse pool's first thread is started before timing, as on a running server
  await runTask(ctx, 'parse', 'threads.thread-id', []);
  const send = (path: string, body: FormData) => api.call('POST', path, { token, body });
  const created = await send(
    'sdm-upload/create',
    form({ code: 'demo_test' }, 'mappings', 'instrument_mapping.csv', Buffer.from('source_code,target_code\nMUNI,DEBT\n')),
  );
  const bulkLine = `a${','.repeat(BULK_UPLOAD_COLUMNS.length - 1)}`;
  // each body is built before it is measured: only the server's work counts
  const calls: Array<[string, () => FormData]> = [
    ['pbi-inputs/save', () => form({ pbiInputsTypes: 'fund_mapping' }, 'upload', 'f.csv', manyLines('fund_code,administrator,engagement_code', 'a,b,c'))],
    ['funds/upload', () => form({}, 'upload', 'f.csv', manyLines(BULK_UPLOAD_COLUMNS.join(','), bulkLine))],
    ['fund-request/bulk', () => form({}, 'upload', 'f.csv', manyLines('tpa', 'a'))],
    [
      'mappings/create',
      () =>
        form(
          { mappingMode: 'master', administrator: 'demo_test', mappingType: 'instrument_mapping' },
          'upload',
          'instrument_mapping.csv',
          manyLines('source_code,target_code', 'a'),
        ),
    ],
    ['sdm-upload/validate-mappings', () => form({}, 'mappings', 'instrument_mapping.csv', manyLines('source_code,target_code', 'a,b'))],
    ['sdm-upload/create', () => form({ code: 'demo_test' }, 'mappings', 'instrument_mapping.csv', manyLines('source_code,target_code', 'a,b'))],
    ['sdm-upload/add-file', () => form({ sdmUploadId: String(created.body.payload.id) }, 'upload', 'fund_request.csv', manyLines('tpa', 'a'))],
  ];
  for (const [endpoint, body] of calls) {
    const f = body();
    const m = await measured(() => send(endpoint, f));
    console.log(
      JSON.stringify({
        endpoint,
        lines: LINES,
        status: m.value.status,
        answerBytes: JSON.stringify(m.value.body).length,
        ms: Math.round(m.ms),
        servingThreadBusyMs: Math.round(m.busyMs),
        longestStallMs: Math.round(m.stallMs),
        peakRssMb: Math.round(m.peakRssMb),
        ok: m.busyMs < 2000 && m.peakRssMb < 1536,
      }),
    );
  }
} finally {
  await ctx.dispose();
}
