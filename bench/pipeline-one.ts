/**
 * One pipeline benchmark measurement, run in its own process so its peak memory is its own:
 *   npx tsx bench/pipeline-one.ts <input.csv> <pipeline|bare>
 * The input is a Meridian holdings file on disk (see pipeline.bench.ts); neither mode holds it in
 * memory.
 * pipeline: import the file (copied into the blob store in chunks); ingestion (identification +
 * standardization into SQLite) is timed against the baseline, then calculations and the work paper.
 * bare: csv-parse streaming from the file, one SQLite insert per row (JSON) in one transaction.
 * Prints one JSON line: rows, ms, rowsPerSecond, checksAndWorkPaperMs, peak RSS (MB) of the whole
 * run and of ingestion, and the RSS after start-up (before any work).
 */
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse';
import { Engine } from '../server/jobs/engine.js';
import { allJobs } from '../server/jobs/stages/index.js';
import { importFile } from '../server/services/imports/imports.js';
import { createTestContext } from '../server/testing/context.js';

const input = process.argv[2];
const mode = process.argv[3] ?? 'pipeline';
const mb = (n: number) => Math.round(n / 1048576);
let peak = 0;
const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);

let t0 = performance.now();
let restMs = 0;
let ingestMs = 0;
let ingestPeak = 0;
let rows = 0;
let startRss = 0;
if (mode === 'bare') {
  const dir = mkdtempSync(join(tmpdir(), 'fa-bare-'));
  const db = new Database(join(dir, 'bare.sqlite'));
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE rows (id INTEGER PRIMARY KEY, line INTEGER, data TEXT)');
  const insert = db.prepare('INSERT INTO rows (line, data) VALUES (?, ?)');
  startRss = process.memoryUsage().rss;
  t0 = performance.now();
  db.exec('BEGIN');
  // records are taken as soon as the parser has them ('readable' + read(), the fastest way to consume it)
  const parser = createReadStream(input).pipe(parse({ delimiter: ';', from_line: 4, columns: true, info: true }));
  parser.on('readable', () => {
    let r;
    while ((r = parser.read()) !== null) {
      insert.run(r.info.lines, JSON.stringify(r.record));
      rows++;
    }
  });
  await new Promise<void>((resolve, reject) => {
    parser.on('end', resolve);
    parser.on('error', reject);
  });
  db.exec('COMMIT');
  db.close();
  rmSync(dir, { recursive: true, force: true });
  ingestPeak = peak;
} else {
  const ctx = await createTestContext({ identificationLimitBytes: 1_000_000_000, maxUploadBytes: 1_000_000_000 });
  startRss = process.memoryUsage().rss;
  t0 = performance.now();
  await importFile(ctx, { administratorCode: 'meridian_fund_services', fileName: basename(input), path: input, userId: null, source: 'cli' });
  // ingestion (what the bare baseline does): identification and standardization into SQLite
  await new Engine(ctx, { identification: allJobs.identification, standardization: allJobs.standardization }).drain();
  ingestMs = performance.now() - t0;
  ingestPeak = peak = Math.max(peak, process.memoryUsage().rss);
  const t1 = performance.now();
  await new Engine(ctx, allJobs).drain();
  restMs = performance.now() - t1;
  rows = (ctx.sqlite.prepare("select sum(row_count) n from sdm_chunks where sdm_type = 'holdings'").get() as { n: number }).n;
  const wp = ctx.sqlite.prepare("select count(*) n from fund_files where kind = 'work_paper'").get() as { n: number };
  if (!wp.n) throw new Error('no work paper was produced');
  await ctx.dispose();
}
const ms = mode === 'bare' ? performance.now() - t0 : ingestMs;
clearInterval(sample);
peak = Math.max(peak, process.memoryUsage().rss);
console.log(
  JSON.stringify({
    mode,
    rows,
    ms: Math.round(ms),
    rowsPerSecond: Math.round(rows / (ms / 1000)),
    checksAndWorkPaperMs: Math.round(restMs),
    startRssMb: mb(startRss),
    ingestPeakRssMb: mb(ingestPeak),
    peakRssMb: mb(peak),
  }),
);
