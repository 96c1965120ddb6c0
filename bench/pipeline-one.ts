/**
 * One pipeline benchmark measurement, run in its own process so its peak memory is its own:
 *   npx tsx bench/pipeline-one.ts <scale> <pipeline|bare>
 * pipeline: import the Goldman Sachs holdings (repeated <scale> times); ingestion (identification +
 * standardization into SQLite) is timed against the baseline, then calculations and the work paper.
 * bare: csv-parse the same file and insert each row into SQLite as JSON in one transaction.
 * Prints one JSON line: rows, ms, rowsPerSecond, checksAndWorkPaperMs, peakRssMb.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse';
import { Engine } from '../pipeline/engine.js';
import { fixturesDir } from '../server/paths.js';
import { allJobs } from '../server/runtime.js';
import { importFile } from '../server/services/imports/imports.js';
import { createTestContext } from '../server/testing.js';

const scale = Number(process.argv[2] ?? 1);
const mode = process.argv[3] ?? 'pipeline';
const lines = readFileSync(join(fixturesDir(), 'tpas/meridian_fund_services/inputs/MFS_HOLDINGS_S000013795_20230331.csv'), 'utf8').split('\r\n');
const head = lines.slice(0, 4);
const body = lines.slice(4).filter(Boolean);
const text = [...head, ...Array.from({ length: scale }, () => body).flat(), ''].join('\r\n');
const rows = body.length * scale;
let peak = 0;
const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);

let t0 = performance.now();
let restMs = 0;
let ingestMs = 0;
if (mode === 'bare') {
  const dir = mkdtempSync(join(tmpdir(), 'fa-bare-'));
  const db = new Database(join(dir, 'bare.sqlite'));
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE rows (id INTEGER PRIMARY KEY, line INTEGER, data TEXT)');
  const insert = db.prepare('INSERT INTO rows (line, data) VALUES (?, ?)');
  const parser = parse({ delimiter: ';', from_line: 4, columns: true, info: true });
  db.exec('BEGIN');
  parser.on('readable', () => {
    let r;
    while ((r = parser.read()) !== null) insert.run(r.info.lines, JSON.stringify(r.record));
  });
  await new Promise<void>((resolve, reject) => {
    parser.on('end', resolve);
    parser.on('error', reject);
    parser.end(text);
  });
  db.exec('COMMIT');
  db.close();
  rmSync(dir, { recursive: true, force: true });
} else {
  const ctx = await createTestContext({ identificationLimitBytes: 1_000_000_000, maxUploadBytes: 1_000_000_000 });
  t0 = performance.now();
  importFile(ctx, { administratorCode: 'meridian_fund_services', fileName: 'MFS_HOLDINGS_S000013795_20230331.csv', bytes: Buffer.from(text), userId: null, source: 'cli' });
  // ingestion (what the bare baseline does): identification and standardization into SQLite
  await new Engine(ctx, { identification: allJobs.identification, standardization: allJobs.standardization }).drain();
  ingestMs = performance.now() - t0;
  const t1 = performance.now();
  await new Engine(ctx, allJobs).drain();
  restMs = performance.now() - t1;
  const n = (ctx.sqlite.prepare("select count(*) n from sdm_rows where sdm_type = 'holdings'").get() as { n: number }).n;
  if (n !== rows) throw new Error(`expected ${rows} standardized rows, got ${n}`);
  ctx.dispose();
}
const ms = mode === 'bare' ? performance.now() - t0 : ingestMs;
clearInterval(sample);
peak = Math.max(peak, process.memoryUsage().rss);
console.log(JSON.stringify({ mode, scale, rows, ms: Math.round(ms), rowsPerSecond: Math.round(rows / (ms / 1000)), checksAndWorkPaperMs: Math.round(restMs), peakRssMb: Math.round(peak / 1048576) }));
