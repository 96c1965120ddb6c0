/**
 * Pipeline throughput on PostgreSQL, one node against two: `--deliveries` distinct deliveries of
 * the Goldman Sachs holdings `--scale` times over (168,500 rows each at 100), each for its own
 * fund (copies of the demo fund under other codes, so the nodes have work to share: a fund runs
 * one stage at a time), uploaded one after the other through `POST import/files` of a real
 * `fund-audit serve --database-url`, and processed through every stage to the work paper by
 *   - one node: that `serve` with `--workers` job threads;
 *   - two nodes: the same `serve` and a `fund-audit worker` with as many threads, one database,
 *     one blob directory;
 *   - one node with twice the job threads (what a second process adds beyond a second thread);
 * each on a fresh throwaway cluster (scripts/pg-test-cluster.mjs), in the same run. Reports the wall
 * time from the first upload to the last work paper, rows/s, and each node's share of the jobs
 * (from `processes.worker_id`). Prints markdown tables. Not part of the tests.
 *
 *   node build.mjs node && npx tsx bench/pipeline-nodes.bench.ts [--deliveries 4] [--scale 100] [--workers 1]
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { HOLDINGS_FUND_CODE, holdingsDelivery, holdingsRows } from './deliveries.js';
import { signIn, skipWithoutPg, startNode, startPgBench, type Node, type PgBench } from './pg-nodes.js';

const { values: args } = parseArgs({
  options: {
    deliveries: { type: 'string', default: '4' },
    scale: { type: 'string', default: '100' },
    workers: { type: 'string', default: '1' },
  },
});
skipWithoutPg('pipeline throughput on PostgreSQL');
const DELIVERIES = Number(args.deliveries);
const SCALE = Number(args.scale);
const WORKERS = Number(args.workers);
const TIMEOUT_MS = 11 * 60_000;

/** Fund codes of the copies: as long as the original, never a real one. */
const codeOf = (k: number) => `S${String(990_000_000 + k)}`;

/**
 * Copies the demo fund of the holdings file (same administrator and period end) once per delivery,
 * each with its own main code. @returns the ids of the copies
 */
async function copyFunds(db: pg.Client): Promise<number[]> {
  const cols = (
    await db.query<{ column_name: string }>(
      "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'fund_requests' AND column_name <> 'id' AND is_generated = 'NEVER'",
    )
  ).rows
    .map((r) => `"${r.column_name}"`)
    .join(', ');
  const source = await db.query<{ id: number }>(
    'SELECT f.id FROM fund_requests f JOIN fund_codes c ON c.fund_request_id = f.id WHERE c.code = $1 ORDER BY f.id LIMIT 1',
    [HOLDINGS_FUND_CODE],
  );
  if (!source.rows.length) throw new Error(`no fund with code ${HOLDINGS_FUND_CODE} in the demo data`);
  const ids: number[] = [];
  for (let k = 1; k <= DELIVERIES; k++) {
    const { rows } = await db.query<{ id: number }>(`INSERT INTO fund_requests (${cols}) SELECT ${cols} FROM fund_requests WHERE id = $1 RETURNING id`, [
      source.rows[0].id,
    ]);
    await db.query("UPDATE fund_requests SET name = name || ' (copy ' || $2 || ')' WHERE id = $1", [rows[0].id, k]);
    await db.query('INSERT INTO fund_codes (fund_request_id, code, main) VALUES ($1, $2, true)', [rows[0].id, codeOf(k)]);
    ids.push(rows[0].id);
  }
  return ids;
}

interface Result {
  label: string;
  wallMs: number;
  uploadMs: number;
  /** Jobs (and their busy seconds) per node and stage. */
  shares: Array<{ node: string; stage: string; jobs: number; seconds: number }>;
  errors: string[];
}

/**
 * One configuration on a fresh cluster: `serve` with `serveThreads` job threads (and a `worker` with
 * `WORKERS` when `twoNodes`), the deliveries, their work papers.
 */
async function run(label: string, twoNodes: boolean, serveThreads = WORKERS): Promise<Result & { version: string }> {
  const bench: PgBench = await startPgBench();
  const nodes: Node[] = [];
  const db = new pg.Client({ connectionString: bench.url });
  try {
    nodes.push(await startNode(bench, 'serve', 'serve', serveThreads));
    const token = await signIn(nodes[0]);
    await db.connect();
    const funds = await copyFunds(db);
    if (twoNodes) nodes.push(await startNode(bench, 'worker', 'worker', WORKERS));
    const names = new Map((await db.query<{ id: string; kind: string }>('SELECT id, kind FROM nodes')).rows.map((r) => [r.id, r.kind]));

    // the jobs of this run: every process after those of the first start (identification has no fund yet)
    const after = Number((await db.query<{ m: number }>('SELECT coalesce(max(id), 0) AS m FROM processes')).rows[0].m);
    const t0 = performance.now();
    for (let k = 1; k <= DELIVERIES; k++) {
      const { blob, name } = holdingsDelivery(SCALE, k, codeOf(k));
      const form = new FormData();
      form.append('administrator', 'meridian_fund_services');
      form.append('upload', blob, name);
      const res = await fetch(`${nodes[0].url}/api/v2.0/import/files`, { method: 'POST', headers: { 'x-access-token': token }, body: form });
      if (!res.ok) throw new Error(`upload ${name}: ${res.status} ${await res.text()}`);
    }
    const uploadMs = performance.now() - t0;
    // done: every fund has a finished work paper and no job of theirs is waiting or running
    let wallMs = 0;
    const errors: string[] = [];
    for (;;) {
      const { rows } = await db.query<{ papers: number; open: number; failed: number }>(
        `SELECT (SELECT count(DISTINCT fund_request_id)::int FROM fund_files WHERE fund_request_id = any($1) AND kind = 'work_paper' AND status = 'done') AS papers,
                (SELECT count(*)::int FROM processes WHERE id > $2 AND status IN ('pending', 'running')) AS open,
                (SELECT count(*)::int FROM processes WHERE id > $2 AND status = 'error') AS failed`,
        [funds, after],
      );
      const { papers, open, failed } = rows[0];
      if (papers === funds.length && open === 0) {
        wallMs = performance.now() - t0;
        break;
      }
      if (failed > 0 && open === 0) {
        errors.push(`${failed} job(s) ended in error, ${papers} of ${funds.length} work papers`);
        wallMs = performance.now() - t0;
        break;
      }
      if (performance.now() - t0 > TIMEOUT_MS) throw new Error(`not done after ${TIMEOUT_MS / 1000} s: ${papers} work papers, ${open} open jobs`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const shares = (
      await db.query<{ node: string; stage: string; jobs: number; seconds: number }>(
        `SELECT split_part(worker_id, '/', 1) AS node, stage, count(*)::int AS jobs,
                coalesce(sum(extract(epoch FROM finished_at::timestamptz - started_at::timestamptz)), 0)::float8 AS seconds
           FROM processes WHERE id > $1 AND worker_id IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2`,
        [after],
      )
    ).rows.map((r) => ({ ...r, node: names.get(r.node) ?? r.node }));
    return { label, wallMs, uploadMs, shares, errors, version: bench.version };
  } finally {
    await db.end().catch(() => {});
    for (const n of nodes.reverse()) await n.stop();
    await bench.stop();
  }
}

const rows = holdingsRows(SCALE) * DELIVERIES;
// one node with as many job threads as the two nodes have together: what a second process adds beyond a second thread
const loadBefore = loadavg();
const results = [
  await run(`one node: serve (${WORKERS} job thread)`, false),
  await run(`two nodes: serve + worker (${WORKERS} job thread each)`, true),
  await run(`one node: serve (${2 * WORKERS} job threads)`, false, 2 * WORKERS),
];
const lines = [
  `Pipeline throughput on PostgreSQL ${results[0].version}: ${DELIVERIES} deliveries of ${holdingsRows(SCALE).toLocaleString('en')} holdings rows (x${SCALE}), ` +
    `each for its own fund, ${rows.toLocaleString('en')} rows in all; Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB`,
  '',
  '| nodes | uploads s | upload to last work paper s | rows/s | jobs per node (busy s) |',
  '|---|---:|---:|---:|---|',
];
for (const r of results) {
  const perNode = new Map<string, { jobs: number; seconds: number }>();
  for (const s of r.shares) {
    const n = perNode.get(s.node) ?? { jobs: 0, seconds: 0 };
    perNode.set(s.node, { jobs: n.jobs + s.jobs, seconds: n.seconds + s.seconds });
  }
  const share = [...perNode].map(([node, n]) => `${node}: ${n.jobs} (${n.seconds.toFixed(1)} s)`).join(', ');
  lines.push(
    `| ${r.label} | ${(r.uploadMs / 1000).toFixed(1)} | ${(r.wallMs / 1000).toFixed(1)} | ${Math.round(rows / (r.wallMs / 1000)).toLocaleString('en')} | ${share}${r.errors.length ? `; ${r.errors.join('; ')}` : ''} |`,
  );
}
lines.push(
  '',
  `Wall time against one node with ${WORKERS} job thread: two nodes ${(results[1].wallMs / results[0].wallMs).toFixed(2)}x, one node with ${2 * WORKERS} ${(results[2].wallMs / results[0].wallMs).toFixed(2)}x`,
  '',
  'Jobs by stage:',
  '',
);
lines.push('| nodes | node | stage | jobs | busy s |', '|---|---|---|---:|---:|');
for (const r of results) for (const s of r.shares) lines.push(`| ${r.label} | ${s.node} | ${s.stage} | ${s.jobs} | ${s.seconds.toFixed(1)} |`);
const la = (l: number[]) => l.map((n) => n.toFixed(1)).join(' ');
lines.push('', `Load average (1, 5, 15 min): ${la(loadBefore)} before, ${la(loadavg())} after`);
process.stdout.write(`${lines.join('\n')}\n`);
