/**
 * Benchmark: the whole CLI path against an idiomatic pandas script doing the same job, in one run.
 *
 * Inputs: the Goldman Sachs holdings delivered by Meridian (1,685 rows) repeated 100 and 500 times
 * (168,500 and 842,500 rows, as `pipeline.bench.ts` builds them), plus the file itself (x1, which
 * shows the fixed cost: start-up and opening the database). Commands, interleaved run by run:
 * - `fund-audit`: `node bin/fund-audit.mjs -d <dir> import --tpa meridian_fund_services FILE` on a
 *   data directory made just before by `fund-audit init` (untimed)
 *   (import + identification + standardization + calculations + work paper; needs
 *   `node build.mjs node`, which `npm run bench` does);
 * - `pandas`: `bench/pandas/holdings.py` on the same file in its own virtual environment
 *   (`bench/results/pandas-venv`, made here; Debian's python3-pandas and python3-openpyxl are
 *   installed with apt-get when missing, PyPI being out of reach);
 * - `--baseline DIR`: the CLI of another checkout (e.g. `git archive` of the previous commit with
 *   `node build.mjs node` run in it), to measure a change against its baseline in the same run.
 * Each command is timed by /usr/bin/time (installed with apt-get when missing): CPU seconds (user +
 * system, the figure the ratio uses), wall seconds and peak RSS of the process. The median of
 * `--runs` runs (default 3) is shown; µs/row is the CPU above the x1 run divided by the extra rows.
 * Run: `npx tsx bench/throughput.bench.ts [--runs 3] [--scales 1,100,500] [--baseline DIR]`
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fixturesDir } from '../server/paths.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const RUNS = Number(arg('--runs', '3'));
const SCALES = arg('--scales', '1,100,500').split(',').map(Number);
const BASELINE = process.argv.includes('--baseline') ? resolve(arg('--baseline', '')) : null;
const NAME = 'MFS_HOLDINGS_S000013795_20230331.csv';
const VENV = resolve('bench/results/pandas-venv');
const PYTHON = join(VENV, 'bin', 'python');
const TIME = '/usr/bin/time';

/** Installs Debian packages (apt-get update first only when the plain install fails). */
function aptInstall(packages: string[]): void {
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '-q', ...packages], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status === 0;
  if (install()) return;
  execFileSync('apt-get', ['update', '-q'], { stdio: 'inherit' });
  if (!install()) throw new Error(`apt-get install ${packages.join(' ')} failed`);
}

/** GNU time, and a virtual environment whose python sees Debian's pandas and openpyxl. */
function setUp(): void {
  if (!existsSync(TIME)) aptInstall(['time']);
  const hasPandas = () => spawnSync('/usr/bin/python3', ['-c', 'import pandas, openpyxl, venv, ensurepip'], { stdio: 'ignore' }).status === 0;
  if (!hasPandas()) aptInstall(['python3-pandas', 'python3-openpyxl', 'python3-venv']);
  if (!existsSync(PYTHON)) execFileSync('/usr/bin/python3', ['-m', 'venv', '--system-site-packages', VENV], { stdio: 'inherit' });
}

interface Measure {
  cpu: number;
  wall: number;
  peakMb: number;
}

/** Runs a command under /usr/bin/time; throws when it fails. */
function timed(cmd: string[], env: NodeJS.ProcessEnv = process.env): Measure {
  const out = join(dir, 'time.txt');
  const r = spawnSync(TIME, ['-f', '%e %U %S %M', '-o', out, ...cmd], { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${cmd.join(' ')} exited with ${r.status}: ${r.stderr || r.stdout}`);
  const [wall, user, sys, kb] = readFileSync(out, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
  return { cpu: user + sys, wall, peakMb: kb / 1024 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const dir = mkdtempSync(join(tmpdir(), 'fa-throughput-'));

/** The whole CLI path of a checkout on a fresh data directory. */
function cli(root: string, file: string, n: number): Measure {
  const data = join(dir, `data-${n}`);
  const env = { ...process.env, CI: '1', FUND_AUDIT_IDENTIFICATION_LIMIT_BYTES: String(2 ** 40), FUND_AUDIT_MAX_UPLOAD_BYTES: String(2 ** 40) };
  try {
    // the data directory is made first, untimed (`init`; a checkout without it makes one on first use)
    const bin = join(root, 'bin/fund-audit.mjs');
    if (spawnSync(process.execPath, [bin, '-d', data, 'init'], { env }).status !== 0) spawnSync(process.execPath, [bin, '-d', data, 'users', 'list'], { env });
    return timed([process.execPath, bin, '-d', data, '--json', 'import', '--tpa', 'meridian_fund_services', file], env);
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
}

try {
  setUp();
  const lines = readFileSync(join(fixturesDir(), 'tpas/meridian_fund_services/inputs', NAME), 'utf8').split('\r\n');
  const head = lines.slice(0, 4);
  const body = lines.slice(4).filter(Boolean);
  const commands: Array<[string, (file: string, n: number) => Measure]> = [
    ['fund-audit', (file, n) => cli(process.cwd(), file, n)],
    ...(BASELINE ? [['fund-audit (baseline)', (file: string, n: number) => cli(BASELINE, file, n)] as [string, (file: string, n: number) => Measure]] : []),
    ['pandas', (file) => timed([PYTHON, 'bench/pandas/holdings.py', file, join(dir, 'positions.xlsx')])],
  ];
  const results = new Map<string, Map<number, Measure>>(commands.map(([name]) => [name, new Map()]));
  let n = 0;
  for (const scale of SCALES) {
    const file = join(dir, NAME.replace('.csv', `_x${scale}.csv`));
    writeFileSync(file, [...head, ...Array.from({ length: scale }, () => body).flat(), ''].join('\r\n'));
    const runs = new Map<string, Measure[]>(commands.map(([name]) => [name, []]));
    for (let r = 0; r < RUNS; r++) for (const [name, run] of commands) runs.get(name)!.push(run(file, n++));
    for (const [name, ms] of runs) {
      results.get(name)!.set(scale, { cpu: median(ms.map((m) => m.cpu)), wall: median(ms.map((m) => m.wall)), peakMb: median(ms.map((m) => m.peakMb)) });
    }
    const mb = (statSync(file).size / 1048576).toFixed(1);
    rmSync(file);
    process.stderr.write(`x${scale} (${mb} MB) measured\n`);
  }
  console.log(`CPU = user + system seconds of the process (/usr/bin/time), median of ${RUNS} runs; ratio = CPU / pandas CPU at the same size.`);
  console.log('| input | rows | command | CPU s | wall s | peak RSS MB | CPU µs/row above x1 | ratio to pandas (CPU) |');
  console.log('|---|---:|---|---:|---:|---:|---:|---:|');
  for (const scale of SCALES) {
    const rows = body.length * scale;
    for (const [name] of commands) {
      const m = results.get(name)!.get(scale)!;
      const base = results.get(name)!.get(1);
      const perRow = base && scale > 1 ? (((m.cpu - base.cpu) / (rows - body.length)) * 1e6).toFixed(1) : '-';
      const ratio = (m.cpu / results.get('pandas')!.get(scale)!.cpu).toFixed(2);
      console.log(
        `| GS holdings x${scale} | ${rows.toLocaleString('en-US')} | ${name} | ${m.cpu.toFixed(2)} | ${m.wall.toFixed(2)} | ${Math.round(m.peakMb)} | ${perRow} | ${ratio} |`,
      );
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
