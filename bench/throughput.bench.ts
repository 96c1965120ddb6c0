/**
 * Benchmark: the whole CLI path (import -> work paper) against comparators that do the same work
 * and against the machine's floor, all in one run.
 *
 * Inputs: the Goldman Sachs holdings delivered by Meridian (1,685 rows) as delivered (x1, which
 * shows the fixed cost: start-up and opening the database) and repeated 100 and 500 times
 * (168,500 and 842,500 rows). Commands, interleaved run by run:
 * - `fund-audit`: `node bin/fund-audit.mjs -d <dir> import --tpa meridian_fund_services FILE` on a
 *   data directory made just before by `fund-audit init` (untimed): import, identification,
 *   standardization, calculations, work paper (needs `node build.mjs node`, which `npm run bench`
 *   does);
 * - `--baseline DIR`: the CLI of another checkout (e.g. `git archive` of the previous commit with
 *   `node build.mjs node` run in it), to measure a change against its baseline in the same run;
 * - `pandas work paper` (the fair comparator, which the ratio uses): `bench/pandas/work-paper.py`,
 *   the product's whole job in pandas + xlsxwriter (constant_memory), the per-position Holdings
 *   sheet with the same 25 columns and number formats included;
 * - `pandas per security`: `bench/pandas/holdings.py`, the earlier comparator, which writes one
 *   row per security (openpyxl);
 * - the floor: `awk` (one pass over the delivery, splitting every field and summing the market
 *   values), `gzip -1` over the Holdings sheet's XML of the same size (the product's, taken from
 *   its work paper, untimed), and `bench/floor-ingest.mjs` (bare csv-parse + better-sqlite3
 *   insert of the rows); `floor` is the sum of the three.
 * The Python scripts run in their own virtual environment (`bench/results/pandas-venv`, made here
 * with `--system-site-packages`; Debian's python3-pandas, python3-openpyxl and python3-xlsxwriter
 * are installed with apt-get when missing, PyPI being out of reach).
 * Each command is timed by /usr/bin/time (installed with apt-get when missing): CPU seconds (user +
 * system, the figure the ratios use), wall seconds and peak RSS of the process. The median of
 * `--runs` runs (default 3) is shown; µs/row is the CPU above the x1 run divided by the extra rows.
 * Run: `npx tsx bench/throughput.bench.ts [--runs 3] [--scales 1,100,500] [--baseline DIR]`
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
const FAIR = 'pandas work paper';
const FLOOR = 'floor';

/** Installs Debian packages (apt-get update first only when the plain install fails). */
function aptInstall(packages: string[]): void {
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '-q', ...packages], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status === 0;
  if (install()) return;
  execFileSync('apt-get', ['update', '-q'], { stdio: 'inherit' });
  if (!install()) throw new Error(`apt-get install ${packages.join(' ')} failed`);
}

/** GNU time, Info-ZIP's unzip, and a virtual environment whose python sees Debian's pandas, openpyxl and xlsxwriter. */
function setUp(): void {
  if (!existsSync(TIME)) aptInstall(['time']);
  if (!existsSync('/usr/bin/unzip')) aptInstall(['unzip']);
  const hasPython = () => spawnSync('/usr/bin/python3', ['-c', 'import pandas, openpyxl, xlsxwriter, venv, ensurepip'], { stdio: 'ignore' }).status === 0;
  if (!hasPython()) aptInstall(['python3-pandas', 'python3-openpyxl', 'python3-xlsxwriter', 'python3-venv']);
  if (!existsSync(PYTHON)) execFileSync('/usr/bin/python3', ['-m', 'venv', '--system-site-packages', VENV], { stdio: 'inherit' });
}

interface Measure {
  cpu: number;
  wall: number;
  peakMb: number;
}

/** Runs a command under /usr/bin/time (its stdout to `stdout` when given); throws when it fails. */
function timed(cmd: string[], env: NodeJS.ProcessEnv = process.env, stdout?: string): Measure {
  const out = join(dir, 'time.txt');
  const fd = stdout ? openSync(stdout, 'w') : null;
  try {
    const r = spawnSync(TIME, ['-f', '%e %U %S %M', '-o', out, ...cmd], {
      env,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', fd ?? 'pipe', 'pipe'],
    });
    if (r.status !== 0) throw new Error(`${cmd.join(' ')} exited with ${r.status}: ${r.stderr || r.stdout}`);
  } finally {
    if (fd !== null) closeSync(fd);
  }
  const [wall, user, sys, kb] = readFileSync(out, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
  return { cpu: user + sys, wall, peakMb: kb / 1024 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const dir = mkdtempSync(join(tmpdir(), 'fa-throughput-'));
const sheetXml = (scale: number) => join(dir, `holdings-sheet-x${scale}.xml`);

/** The part a workbook's sheet named `name` is stored in (xl/workbook.xml, then its relationships). */
function sheetPart(xlsx: string, name: string): string {
  const unzip = (part: string) => execFileSync('unzip', ['-p', xlsx, part], { encoding: 'utf8' });
  const sheet = new RegExp(`<sheet [^>]*name="${name}"[^>]*r:id="([^"]+)"`).exec(unzip('xl/workbook.xml'));
  const target = sheet && new RegExp(`Id="${sheet[1]}"[^>]*Target="([^"]+)"`).exec(unzip('xl/_rels/workbook.xml.rels'));
  if (!target) throw new Error(`${xlsx} has no sheet ${name}`);
  return target[1].startsWith('/') ? target[1].slice(1) : `xl/${target[1]}`;
}

/** Keeps the Holdings sheet's XML of the work paper in a data directory (for the floor's gzip). */
function keepHoldingsXml(data: string, scale: number): void {
  const blobs = join(data, 'blobs');
  const files = readdirSync(blobs, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
  const xlsx = files.find((f) => spawnSync('unzip', ['-l', f, 'xl/workbook.xml'], { stdio: 'ignore' }).status === 0);
  if (!xlsx) throw new Error('no work paper was produced');
  const fd = openSync(sheetXml(scale), 'w');
  try {
    const r = spawnSync('unzip', ['-p', xlsx, sheetPart(xlsx, 'Holdings')], { stdio: ['ignore', fd, 'inherit'] });
    if (r.status !== 0) throw new Error(`unzip of the Holdings sheet failed (${r.status})`);
  } finally {
    closeSync(fd);
  }
}

/** The whole CLI path of a checkout on a fresh data directory. */
function cli(root: string, file: string, scale: number, n: number, keep: boolean): Measure {
  const data = join(dir, `data-${n}`);
  const env = { ...process.env, CI: '1', FUND_AUDIT_IDENTIFICATION_LIMIT_BYTES: String(2 ** 40), FUND_AUDIT_MAX_UPLOAD_BYTES: String(2 ** 40) };
  try {
    // the data directory is made first, untimed (`init`; a checkout without it makes one on first use)
    const bin = join(root, 'bin/fund-audit.mjs');
    if (spawnSync(process.execPath, [bin, '-d', data, 'init'], { env }).status !== 0) spawnSync(process.execPath, [bin, '-d', data, 'users', 'list'], { env });
    const m = timed([process.execPath, bin, '-d', data, '--json', 'import', '--tpa', 'meridian_fund_services', file], env);
    if (keep && !existsSync(sheetXml(scale))) keepHoldingsXml(data, scale);
    return m;
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
}

// one awk pass: every field split, the market values (decimal comma, thousands dot) summed
const AWK = 'NR > 4 { v = $12; gsub(/\\./, "", v); sub(/,/, ".", v); s += v; n++ } END { printf "%d %.2f\\n", n, s }';

type Run = (file: string, scale: number, n: number) => Measure;

try {
  setUp();
  const lines = readFileSync(join(fixturesDir(), 'tpas/meridian_fund_services/inputs', NAME), 'utf8').split('\r\n');
  const head = lines.slice(0, 4);
  const body = lines.slice(4).filter(Boolean);
  const floorParts: Array<[string, Run]> = [
    ['floor: awk', (file) => timed(['awk', '-F;', AWK, file])],
    ['floor: gzip -1', (_file, scale) => timed(['gzip', '-1', '-c', sheetXml(scale)], process.env, '/dev/null')],
    ['floor: csv-parse + SQLite', (file, _scale, n) => timed([process.execPath, 'bench/floor-ingest.mjs', file, join(dir, `floor-${n}.sqlite`)])],
  ];
  const commands: Array<[string, Run]> = [
    ['fund-audit', (file, scale, n) => cli(process.cwd(), file, scale, n, true)],
    ...(BASELINE ? [['fund-audit (baseline)', (file: string, scale: number, n: number) => cli(BASELINE, file, scale, n, false)] as [string, Run]] : []),
    [FAIR, (file) => timed([PYTHON, 'bench/pandas/work-paper.py', file, join(dir, 'work-paper.xlsx')])],
    ['pandas per security', (file) => timed([PYTHON, 'bench/pandas/holdings.py', file, join(dir, 'positions.xlsx')])],
    ...floorParts,
  ];
  const names = [...commands.map(([name]) => name), FLOOR];
  const results = new Map<string, Map<number, Measure>>(names.map((name) => [name, new Map()]));
  let n = 0;
  for (const scale of SCALES) {
    const file = join(dir, NAME.replace('.csv', `_x${scale}.csv`));
    writeFileSync(file, [...head, ...Array.from({ length: scale }, () => body).flat(), ''].join('\r\n'));
    const runs = new Map<string, Measure[]>(commands.map(([name]) => [name, []]));
    for (let r = 0; r < RUNS; r++) for (const [name, run] of commands) runs.get(name)!.push(run(file, scale, n++));
    for (const [name, ms] of runs) {
      results.get(name)!.set(scale, { cpu: median(ms.map((m) => m.cpu)), wall: median(ms.map((m) => m.wall)), peakMb: median(ms.map((m) => m.peakMb)) });
    }
    const parts = floorParts.map(([name]) => results.get(name)!.get(scale)!);
    results.get(FLOOR)!.set(scale, {
      cpu: parts.reduce((a, m) => a + m.cpu, 0),
      wall: parts.reduce((a, m) => a + m.wall, 0),
      peakMb: Math.max(...parts.map((m) => m.peakMb)),
    });
    const mb = (statSync(file).size / 1048576).toFixed(1);
    rmSync(file);
    rmSync(sheetXml(scale), { force: true });
    process.stderr.write(`x${scale} (${mb} MB) measured\n`);
  }
  console.log(
    `CPU = user + system seconds of the process (/usr/bin/time), median of ${RUNS} runs; ratios = CPU / the CPU of the ${FAIR} and of the ${FLOOR} (sum of its three parts) at the same size.`,
  );
  console.log(`| input | rows | command | CPU s | wall s | peak RSS MB | CPU µs/row above x1 | CPU / ${FAIR} | CPU / ${FLOOR} |`);
  console.log('|---|---:|---|---:|---:|---:|---:|---:|---:|');
  for (const scale of SCALES) {
    const rows = body.length * scale;
    for (const name of names) {
      const m = results.get(name)!.get(scale)!;
      const base = results.get(name)!.get(1);
      const perRow = base && scale > 1 ? (((m.cpu - base.cpu) / (rows - body.length)) * 1e6).toFixed(1) : '-';
      const ratio = (to: string) => (m.cpu / results.get(to)!.get(scale)!.cpu).toFixed(2);
      console.log(
        `| GS holdings x${scale} | ${rows.toLocaleString('en-US')} | ${name} | ${m.cpu.toFixed(2)} | ${m.wall.toFixed(2)} | ${Math.round(m.peakMb)} | ${perRow} | ${ratio(FAIR)} | ${ratio(FLOOR)} |`,
      );
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
