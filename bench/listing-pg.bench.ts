/**
 * Fund listing on PostgreSQL: a throwaway cluster (scripts/pg-test-cluster.mjs), real `fund-audit
 * serve --database-url` nodes of the built bundle on it (no job threads), the demo data of their
 * first start plus 1,000,000 generated fund requests (the generator of the SQLite listing
 * benchmark, `listing-data.ts`), measured from this process over 127.0.0.1:
 *   - each query of the SQLite benchmark, one client, one request after another;
 *   - distinct queries: every request a new filter + sort + search text (`fund 1` ... `fund 500`:
 *     status Open, a data-due range, sorted by data due), 50 concurrent clients (target p95 <
 *     300 ms), beside its baseline in the same run: the same kind of request from one client.
 * Each load runs twice unmeasured first (other texts); the CPU a page of the node processes (every
 * thread) and of the cluster (every PostgreSQL process) is read from /proc around each measured
 * load. Prints markdown tables. Not part of the tests.
 *
 *   node build.mjs node && npx tsx bench/listing-pg.bench.ts [--funds 1000000] [--clients 50] [--per-client 10] [--nodes 1] [--runs 10]
 *     [--explain-ms N --log FILE] [--keep DIR] [--loads-only]
 *
 * `--keep DIR` keeps the cluster, seeded, in DIR, and a later run with the same DIR starts it again
 * instead of seeding (the funds of the first run's `--funds`); `--loads-only` runs the distinct-queries
 * loads alone.
 *
 * `--explain-ms N` logs the plan of every statement slower than N ms (auto_explain, with ANALYZE)
 * into the cluster's log, copied to `--log FILE` at the end.
 */
import { copyFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { fmt, loadRow, percentile, runHttpLoad, type LoadResult } from './http-load.js';
import { QUERIES, searchBodies } from './listing-data.js';
import { seedPg } from './listing-pg-seed.js';
import { signIn, signInLink, skipWithoutPg, startNode, startPgBench, type Node } from './pg-nodes.js';
import { postmasterPidOf, startCpuMeter } from './proc-cpu.js';

const { values: args } = parseArgs({
  options: {
    funds: { type: 'string', default: '1000000' },
    clients: { type: 'string', default: '50' },
    'per-client': { type: 'string', default: '10' },
    nodes: { type: 'string', default: '1' },
    runs: { type: 'string', default: '10' },
    'explain-ms': { type: 'string' },
    log: { type: 'string' },
    keep: { type: 'string' },
    'loads-only': { type: 'boolean', default: false },
  },
});
skipWithoutPg('listing on PostgreSQL');
const FUNDS = Number(args.funds);
const CLIENTS = Number(args.clients);
const PER_CLIENT = Number(args['per-client']);
const NODES = Number(args.nodes);
const RUNS = Number(args.runs);
const LISTING = '/api/v2.0/funds/listing';

const bench = await startPgBench(args.keep);
const nodes: Node[] = [];
try {
  nodes.push(await startNode(bench, 'serve', 'node-1', 0));
  const seeded = bench.reused
    ? { total: await fundCount(bench.url), seconds: 0 }
    : await seedPg(bench.url, FUNDS, (n) => process.stderr.write(`seeded ${n.toLocaleString('en')} funds\n`));
  if (args['explain-ms']) {
    const c = new pg.Client({ connectionString: bench.url });
    await c.connect();
    await c.query(
      `ALTER DATABASE fund_audit SET session_preload_libraries = 'auto_explain'; ALTER DATABASE fund_audit SET auto_explain.log_min_duration = ${Number(args['explain-ms'])}; ALTER DATABASE fund_audit SET auto_explain.log_analyze = on; ALTER DATABASE fund_audit SET auto_explain.log_buffers = on`,
    );
    await c.end();
  }
  // every node starts after the seed (and the settings above): their connections are new
  await nodes[0].stop();
  nodes.length = 0;
  for (let i = 1; i <= NODES; i++) nodes.push(await startNode(bench, 'serve', `node-${i}`, 0));
  const token = await signIn(nodes[0], signInLink(bench));
  const urls = nodes.map((n) => `${n.url}${LISTING}`);
  const postmaster = postmasterPidOf(bench.dataDir);
  const load = (bodies: string[], clients: number, perClient: number): Promise<LoadResult> => runHttpLoad({ urls, token, bodies, clients, perClient });

  const seedNote = bench.reused ? 'seeded by an earlier run, kept' : `${FUNDS.toLocaleString('en')} generated, seeded in ${seeded.seconds.toFixed(0)} s`;
  const lines = [
    `Fund listing on PostgreSQL ${bench.version}: ${seeded.total.toLocaleString('en')} fund requests (${seedNote}), ` +
      `${NODES} serve node(s), Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, load average ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')} (1, 5, 15 min) after the seed`,
    '',
    `Sequential, one client, ${RUNS} runs each after one unmeasured, each run another page size (100, 99, ...: no page from the listing cache):`,
    '',
    '| query | requests | failures | p50 ms | p95 ms | requests/s |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  // each request another page size (100, 99, ...): never a page of the listing cache (a count may come from it)
  const sized = (input: object, run: number) => JSON.stringify({ ...input, pagination: { limit: 100 - (run % 50) } });
  for (const q of args['loads-only'] ? [] : QUERIES) {
    await load([sized(q.input, RUNS)], 1, 1);
    lines.push(
      loadRow(
        q.name,
        await load(
          Array.from({ length: RUNS }, (_, i) => sized(q.input, i)),
          1,
          RUNS,
        ),
      ),
    );
  }

  const total = CLIENTS * PER_CLIENT;
  const baselineCount = Math.min(total, 100);
  const measured = searchBodies(Array.from({ length: total }, (_, i) => i + 1));
  // five-digit texts from 90,000: none is one of the measured texts
  const warmup = (round: number) => searchBodies(Array.from({ length: Math.min(total, 200) }, (_, i) => 90_000 + round * 5_000 + i));
  lines.push(
    '',
    `Distinct queries: every request a new filter + sort + search text (\`fund 1\` ... \`fund ${total}\`; the baseline \`Fund 1\` ... \`Fund ${baselineCount}\`), ${NODES} node(s), clients spread over them:`,
    '',
    '| load | clients | requests | failures | p50 ms | p95 ms | requests/s | node CPU ms a page | PostgreSQL CPU ms a page |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  // the baseline's texts are the first of the measured ones with a capital F: the same queries, none
  // of them in the listing cache when the loaded run asks for it
  for (const run of [
    {
      label: 'baseline: one client',
      bodies: searchBodies(
        Array.from({ length: baselineCount }, (_, i) => i + 1),
        'Fund',
      ),
      clients: 1,
      perClient: baselineCount,
    },
    { label: `**${CLIENTS} clients**`, bodies: measured, clients: CLIENTS, perClient: PER_CLIENT },
  ]) {
    for (let i = 0; i < 2; i++) await load(warmup(i), Math.min(CLIENTS, 10), Math.ceil(Math.min(total, 200) / Math.min(CLIENTS, 10)));
    const cpu = startCpuMeter(
      nodes.map((n) => n.child.pid!),
      postmaster,
    );
    const r = await load(run.bodies, run.clients, run.perClient);
    const { nodeMs, databaseMs } = cpu.stop();
    const perPage = (ms: number | null) => (ms === null ? 'n/a' : (ms / r.latencies.length).toFixed(2));
    lines.push(`${loadRow(run.label, r, [run.clients])} ${perPage(nodeMs)} | ${perPage(databaseMs)} |`);
    if (run.clients > 1) {
      const p95 = percentile(
        [...r.latencies].sort((a, b) => a - b),
        95,
      );
      lines.push('', `Target p95 < 300 ms with ${CLIENTS} clients: ${p95 < 300 ? 'met' : 'not met'} (${fmt(p95)} ms).`);
    }
  }
  lines.push(
    '',
    `Load average at the end: ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')} (1, 5, 15 min)`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  for (const n of nodes) await n.stop();
  if (args.log) copyFileSync(bench.log, args.log);
  await bench.stop();
}

/** How many fund requests the database at `url` holds. */
async function fundCount(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return Number((await c.query<{ n: string }>('SELECT count(*) AS n FROM fund_requests')).rows[0]!.n);
  } finally {
    await c.end();
  }
}
