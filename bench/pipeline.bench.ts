/**
 * Benchmark: pipeline throughput and peak memory on the real Goldman Sachs holdings (1,685 rows)
 * and on a 100x copy, against a bare csv-parse + SQLite insert of the same rows in the same run.
 * Targets: pipeline at least 0.5x the bare baseline; memory flat as the input grows 100x.
 * The inputs are written to a temporary folder first; each measurement runs in its own process
 * (`pipeline-one.ts`), reading its input from disk, `--runs` times (default 3; the median run by
 * peak memory is shown, throughput is the best of the runs).
 * Run: `npx tsx bench/pipeline.bench.ts [--runs 3]`
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixturesDir } from '../server/paths.js';

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 3;
const NAME = 'MFS_HOLDINGS_S000013795_20230331.csv';
const lines = readFileSync(join(fixturesDir(), 'tpas/meridian_fund_services/inputs', NAME), 'utf8').split('\r\n');
const head = lines.slice(0, 4);
const body = lines.slice(4).filter(Boolean);
const dir = mkdtempSync(join(tmpdir(), 'fa-bench-'));

type Result = {
  mode: string;
  rows: number;
  rowsPerSecond: number;
  checksAndWorkPaperMs: number;
  startRssMb: number;
  ingestPeakRssMb: number;
  peakRssMb: number;
};
const measure = (file: string, mode: string): Result => {
  const runs = Array.from(
    { length: RUNS },
    () =>
      JSON.parse(
        execFileSync(process.execPath, ['--import', 'tsx', 'bench/pipeline-one.ts', file, mode], { encoding: 'utf8' }).trim().split('\n').pop()!,
      ) as Result,
  );
  const byPeak = [...runs].sort((a, b) => a.peakRssMb - b.peakRssMb);
  const median = byPeak[Math.floor(byPeak.length / 2)];
  return {
    ...median,
    rowsPerSecond: Math.max(...runs.map((r) => r.rowsPerSecond)),
    checksAndWorkPaperMs: Math.min(...runs.map((r) => r.checksAndWorkPaperMs)),
  };
};

try {
  console.log(
    '| input | rows | size MB | bare rows/s | pipeline ingestion rows/s | ratio | checks + work paper ms | bare peak MB | pipeline start MB | pipeline ingestion peak MB | pipeline peak MB |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const scale of [1, 100]) {
    const file = join(dir, scale === 1 ? NAME : NAME.replace('.csv', `_x${scale}.csv`));
    writeFileSync(file, [...head, ...Array.from({ length: scale }, () => body).flat(), ''].join('\r\n'));
    const size = (readFileSync(file).length / 1048576).toFixed(1);
    const bare = measure(file, 'bare');
    const pipe = measure(file, 'pipeline');
    console.log(
      `| GS holdings x${scale} | ${pipe.rows} | ${size} | ${bare.rowsPerSecond} | ${pipe.rowsPerSecond} | ${(pipe.rowsPerSecond / bare.rowsPerSecond).toFixed(2)} | ${pipe.checksAndWorkPaperMs} | ${bare.peakRssMb} | ${pipe.startRssMb} | ${pipe.ingestPeakRssMb} | ${pipe.peakRssMb} |`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
