/**
 * Fund listing benchmark: 100,000 fund requests in a temporary data directory, then
 * `listFunds` timed sequentially (p50/p95 per query; the first run of each fills the listing cache,
 * so the sequential numbers are the query itself: the cache is cleared before every run) and through
 * the real HTTP server on 127.0.0.1 with 50 concurrent clients, once over a team's mix of views
 * (served from the cache after the first request of each), the same while a fund changes every
 * 100 ms (every write makes the cached pages stale), and once with every request distinct (never
 * cached); each load runs twice unmeasured first, to warm the JIT as on a running server. Last,
 * distinct queries (each request a new filter + sort + search) with the read pool and with the
 * request thread alone (the pool's threads set to 0: how the server answered before the pool),
 * each beside its idle baseline (one client) in the same run; every such run starts with fresh
 * pools and an empty cache. Prints markdown tables. Not part of the test suite.
 *
 *   npx tsx bench/listing.bench.ts [--funds 100000] [--runs 40] [--clients 50] [--per-client 10] [--read-threads N] [--keep]
 *
 * `--keep` leaves the data directory in place (its path is printed) for investigating query plans.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
// first: under tsx (native ESM) the import cycle services/test-runner <-> jobs/stages/index only
// resolves when the stage index is loaded before the routes (vitest and the bundles are not affected)
import '../server/jobs/stages/index.js';
import { bootstrap } from '../server/bootstrap.js';
import { createContext, type AppContext } from '../server/context.js';
import { startServer } from '../server/http/server.js';
import { issueToken } from '../server/services/auth/tokens.js';
import { listFunds, type ListingInput } from '../server/services/funds/listing.js';
import { clearListingCache } from '../server/services/cache/listing-cache.js';
import { defaultPoolOptions, requestPoolOptions, setRequestPoolOptions, warmReadPool } from '../server/threads/pools.js';
import { fmt, percentile, runHttpLoad } from './http-load.js';
import { ADMINISTRATORS, FILTER_SORT_SEARCH, FUND_COLUMNS, fundValues, generateFunds, QUERIES, searchBodies } from './listing-data.js';

const { values: args } = parseArgs({
  options: {
    funds: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '40' },
    clients: { type: 'string', default: '50' },
    'per-client': { type: 'string', default: '10' },
    keep: { type: 'boolean', default: false },
    // the read pool's size for the whole run (0: every query on the request thread, as before the pool)
    'read-threads': { type: 'string' },
  },
});
const FUNDS = Number(args.funds);
const RUNS = Number(args.runs);
const CLIENTS = Number(args.clients);
const PER_CLIENT = Number(args['per-client']);

/** Inserts the generated funds with codes, input files, work papers and processes in one transaction. */
function seed(ctx: AppContext): void {
  const admins: number[] = [];
  const insAdmin = ctx.sqlite.prepare('INSERT INTO administrators (code, name) VALUES (?, ?)');
  for (let i = 0; i < ADMINISTRATORS; i++) admins.push(Number(insAdmin.run(`tpa_${i}`, `Administrator ${i}`).lastInsertRowid));
  const insFund = ctx.sqlite.prepare(
    `INSERT INTO fund_requests (${FUND_COLUMNS}) VALUES (${FUND_COLUMNS.split(',')
      .map(() => '?')
      .join(', ')})`,
  );
  const insCode = ctx.sqlite.prepare('INSERT INTO fund_codes (fund_request_id, code, main) VALUES (?, ?, ?)');
  const insFile = ctx.sqlite.prepare(
    'INSERT INTO fund_files (fund_request_id, kind, file_type, file_name, status, reviewed, disabled) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const insProc = ctx.sqlite.prepare('INSERT INTO processes (fund_request_id, stage, status) VALUES (?, ?, ?)');
  // fund n gets id n (an empty table): a parent's number is its id
  ctx.sqlite.transaction(() => {
    for (const f of generateFunds(FUNDS)) {
      const id = Number(insFund.run(...fundValues(f, admins[f.administrator], f.parent)).lastInsertRowid);
      for (const [code, main] of f.codes) insCode.run(id, code, main ? 1 : 0);
      for (const file of f.files) insFile.run(id, file.kind, file.fileType, file.fileName, file.status, file.reviewed ? 1 : 0, file.disabled ? 1 : 0);
      for (const p of f.processes) insProc.run(id, p.stage, p.status);
    }
  })();
  ctx.sqlite.exec('ANALYZE');
}

/** One filter + sort + search body per request, each with its own search text. */
const distinctSearches = (prefix: string) =>
  Array.from({ length: CLIENTS * PER_CLIENT }, (_, i) => JSON.stringify({ ...FILTER_SORT_SEARCH, search: `${prefix}${i + 1} ` }));

/** Every request another page (offsets 60 apart) of the Open funds sorted by client (`order` asc or desc): none cached. */
const distinctPages = (order: 'asc' | 'desc') =>
  Array.from({ length: CLIENTS * PER_CLIENT }, (_, i) =>
    JSON.stringify({
      filters: [{ field: 'status', type: 'enum', value: ['Approved'] }],
      sorting: [{ field: 'client', order }],
      offset: i * 60,
    }),
  );

/** The views a delivery team works in at once: the listing's default page, the Open filter and its next page, a search, a filtered sorted search. */
const TEAM_VIEWS: ListingInput[] = [
  {},
  { filters: [{ field: 'status', type: 'enum', value: ['Approved'] }] },
  { filters: [{ field: 'status', type: 'enum', value: ['Approved'] }], offset: 100 },
  { search: 'orion' },
  FILTER_SORT_SEARCH,
];

type RunLoad = (
  bodies: string[],
  path?: string,
  method?: string,
  clients?: number,
  perClient?: number,
) => Promise<{ latencies: number[]; failures: number; wall: number }>;

/**
 * Distinct queries with the read pool and with the request thread alone, each beside its idle
 * baseline: one client sending the same kind of request one after the other. Each measured run
 * starts with fresh pools and an empty listing cache, after two unmeasured loads of other texts.
 */
async function distinctQueries(ctx: AppContext, runLoad: RunLoad): Promise<string[]> {
  const readers = defaultPoolOptions().readThreads;
  const loaded = searchBodies(Array.from({ length: CLIENTS * PER_CLIENT }, (_, i) => i + 1));
  const idle = loaded.slice(0, 100);
  // five-digit texts from 90,000: none is one of the measured texts
  const warmup = (round: number) => searchBodies(Array.from({ length: CLIENTS * PER_CLIENT }, (_, i) => 90_000 + round * 5_000 + i));
  const lines = ['', `Distinct queries: every request a new filter + sort + search text (\`fund 1\` ... \`fund ${loaded.length}\`), never cached:`, ''];
  lines.push('| answered by | clients | requests | failures | p50 ms | p95 ms | requests/s |', '|---|---:|---:|---:|---:|---:|---:|');
  for (const mode of [
    { name: 'the request thread alone (pool threads 0: as before)', readThreads: 0 },
    { name: `the read pool (${readers} threads)`, readThreads: readers },
  ]) {
    for (const run of [
      { label: 'idle baseline', bodies: idle, clients: 1, perClient: idle.length },
      { label: 'loaded', bodies: loaded, clients: CLIENTS, perClient: PER_CLIENT },
    ]) {
      await setRequestPoolOptions(ctx, { readThreads: mode.readThreads });
      await warmReadPool(ctx);
      clearListingCache(ctx);
      for (let i = 0; i < 2; i++) await runLoad(warmup(i));
      const { latencies, failures, wall } = await runLoad(run.bodies, undefined, undefined, run.clients, run.perClient);
      latencies.sort((a, b) => a - b);
      lines.push(
        `| ${mode.name}, ${run.label} | ${run.clients} | ${latencies.length} | ${failures} | ${fmt(percentile(latencies, 50))} | ${fmt(percentile(latencies, 95))} | ${fmt(latencies.length / (wall / 1000))} |`,
      );
    }
  }
  return lines;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'fa-bench-'));
  const ctx = await createContext({ dataDir: dir, flags: { seedDemoData: false, logLevel: 'silent' }, terminalLog: false });
  const admin = (await bootstrap(ctx)).admin;
  if (args['read-threads'] !== undefined) await setRequestPoolOptions(ctx, { readThreads: Number(args['read-threads']) });
  const poolOptions = requestPoolOptions(ctx);
  try {
    let t = performance.now();
    seed(ctx);
    const seedMs = performance.now() - t;
    const lines = [
      `Fund listing benchmark: ${FUNDS.toLocaleString('en')} fund requests (seeded in ${(seedMs / 1000).toFixed(1)} s), Node ${process.version}, ${RUNS} runs per query`,
      '',
    ];
    lines.push('Sequential, the query itself (cache cleared before each run):', '', '| query | rows | count | p50 ms | p95 ms |', '|---|---:|---:|---:|---:|');
    for (const q of QUERIES) {
      const times: number[] = [];
      let last = await listFunds(ctx, admin, q.input);
      for (let i = 0; i < RUNS; i++) {
        clearListingCache(ctx);
        t = performance.now();
        last = await listFunds(ctx, admin, q.input);
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      lines.push(`| ${q.name} | ${last.rows.length} | ${last.pagination.count} | ${fmt(percentile(times, 50))} | ${fmt(percentile(times, 95))} |`);
    }

    const server = await startServer(ctx, { host: '127.0.0.1', port: 0 });
    // as `fund-audit serve` does: the readers are up before the first request
    await warmReadPool(ctx);
    // a browser user's session, as the team's clients have: API keys are rate limited per key
    // (`rateLimitApiKeyPerMinute`), which 50 clients sharing one key would reach in seconds
    const token = (await issueToken(ctx, admin.id, 'session', 3_600_000)).token;
    /** Runs the HTTP load in a worker thread, so the clients do not share the server's event loop. */
    const runLoad = (bodies: Array<string | undefined>, path = '/api/v2.0/funds/listing', method = 'POST', clients = CLIENTS, perClient = PER_CLIENT) =>
      runHttpLoad({ urls: [`${server.url}${path}`], method, token, bodies, clients, perClient });
    lines.push('', `HTTP (POST /api/v2.0/funds/listing, ${CLIENTS} concurrent clients x ${PER_CLIENT} requests, loopback):`, '');
    lines.push('| load | requests | failures | p50 ms | p95 ms | requests/s |', '|---|---:|---:|---:|---:|---:|');
    // the machine's floor: the same load on the smallest call (no database, no body)
    // every load runs twice unmeasured first: that warms the JIT (and, for the team views, the
    // cache), as on a server that has been up for a while
    for (let i = 0; i < 2; i++) await runLoad([undefined], '/api/health', 'GET');
    const floor = await runLoad([undefined], '/api/health', 'GET');
    floor.latencies.sort((a, b) => a - b);
    lines.push(
      `| GET /api/health (the HTTP floor of this machine) | ${floor.latencies.length} | ${floor.failures} | ${fmt(percentile(floor.latencies, 50))} | ${fmt(percentile(floor.latencies, 95))} | ${fmt(floor.latencies.length / (floor.wall / 1000))} |`,
    );
    // the first user to open each view computes it (each ~10-50 ms, as above); the load then runs warm
    for (const v of TEAM_VIEWS) await listFunds(ctx, admin, v);
    const teamBodies = TEAM_VIEWS.map((v) => JSON.stringify(v));
    const scenarios: Array<{ name: string; bodies: string[]; warmup: string[]; writeEveryMs?: number }> = [
      { name: `team views: the ${TEAM_VIEWS.length} views below, clients spread over them (warm)`, bodies: teamBodies, warmup: teamBodies },
      // the pipeline or a colleague changes a fund every 100 ms: each write makes every cached page stale
      { name: 'team views while a fund changes every 100 ms (pages recomputed after each write)', bodies: teamBodies, warmup: teamBodies, writeEveryMs: 100 },
      // a fresh search text per request: nothing can come from the cache
      // the warm-up uses other search texts, so the measured requests are all new
      { name: 'every request a new filter + sort + search text (uncached)', bodies: distinctSearches('fund '), warmup: distinctSearches('fund 9') },
      { name: 'every request a new page of Open funds sorted by client (uncached)', bodies: distinctPages('asc'), warmup: distinctPages('desc') },
    ];
    for (const sc of scenarios) {
      for (let i = 0; i < 2; i++) await runLoad(sc.warmup.map((b) => b.replace(/"search":"fund 9/, `"search":"fund 9${i}`)));
      // a process of a listed fund flips between running and done: the listing's process status changes
      const flip = ctx.sqlite.prepare(
        "UPDATE processes SET status = CASE status WHEN 'running' THEN 'done' ELSE 'running' END WHERE id = (SELECT min(id) FROM processes)",
      );
      const writes = sc.writeEveryMs ? setInterval(() => flip.run(), sc.writeEveryMs) : undefined;
      const { latencies, failures, wall } = await runLoad(sc.bodies).finally(() => clearInterval(writes));
      latencies.sort((a, b) => a - b);
      lines.push(
        `| ${sc.name} | ${latencies.length} | ${failures} | ${fmt(percentile(latencies, 50))} | ${fmt(percentile(latencies, 95))} | ${fmt(latencies.length / (wall / 1000))} |`,
      );
    }
    lines.push(...(await distinctQueries(ctx, runLoad)));
    await setRequestPoolOptions(ctx, poolOptions);
    await server.close();
    lines.push('', 'Team views:', '', ...TEAM_VIEWS.map((v) => `- \`${JSON.stringify(v)}\``));
    process.stdout.write(lines.join('\n') + '\n');
  } finally {
    ctx.close();
    if (args.keep) process.stdout.write(`\nData directory kept: ${dir}\n`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

await main();
