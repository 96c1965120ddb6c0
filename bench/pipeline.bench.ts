/**
 * Benchmark: pipeline throughput and peak memory on the real Goldman Sachs holdings (1,685 rows)
 * and on a 100x copy, against a bare csv-parse + SQLite insert of the same rows in the same run.
 * Targets: pipeline at least 0.5x the bare baseline; memory flat as the input grows 100x.
 * Run: `npx tsx bench/pipeline.bench.ts` (each measurement in its own process).
 */
import { execFileSync } from 'node:child_process';

const run = (scale: number, mode: string) =>
  JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', 'bench/pipeline-one.ts', String(scale), mode], { encoding: 'utf8' }).trim().split('\n').pop()!);

const results = [1, 100].flatMap((scale) => [run(scale, 'bare'), run(scale, 'pipeline')]);
console.log('| input | rows | bare rows/s | pipeline ingestion rows/s | ratio | checks + work paper ms | bare peak MB | pipeline peak MB |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const scale of [1, 100]) {
  const bare = results.find((r) => r.scale === scale && r.mode === 'bare');
  const pipe = results.find((r) => r.scale === scale && r.mode === 'pipeline');
  console.log(`| GS holdings x${scale} | ${pipe.rows} | ${bare.rowsPerSecond} | ${pipe.rowsPerSecond} | ${(pipe.rowsPerSecond / bare.rowsPerSecond).toFixed(2)} | ${pipe.checksAndWorkPaperMs} | ${bare.peakRssMb} | ${pipe.peakRssMb} |`);
}
