/**
 * What the PostgreSQL benchmarks share: a throwaway cluster with one database, and real
 * `fund-audit serve` / `worker` nodes of the built bundle on it (one blob directory, a data
 * directory each), signed in through the first node's sign-in link.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { findPgBin, startPgCluster } from '../scripts/pg-test-cluster.mjs';

/** A cluster with the benchmark's database, a root folder for the nodes, and how to remove both. */
export interface PgBench {
  /** The benchmark database's URL. */
  url: string;
  /** The folder holding the shared blob directory and each node's data directory. */
  root: string;
  /** PostgreSQL's version (`server_version`). */
  version: string;
  /** The cluster's server log (statements over `log_min_duration_statement` when set). */
  log: string;
  /** Stops the cluster and removes it and the nodes' folders. */
  stop(): Promise<void>;
}

/** Ends the process (successfully) with a note when PostgreSQL is not installed: `npm run bench` goes on with the other benchmarks. */
export function skipWithoutPg(name: string): void {
  if (findPgBin()) return;
  process.stdout.write(`${name}: skipped, PostgreSQL is not installed (no initdb and pg_ctl; apt-get install -y postgresql)\n`);
  process.exit(0);
}

/**
 * The memory a benchmark's PostgreSQL gets, as docs/deployment.md advises for a database server:
 * shared buffers a quarter of the machine's memory (at most 4 GB). The tests' clusters keep
 * 32 MB; with it a 1,000,000-fund database (1.4 GB) is read from the operating system's cache on
 * every query, which costs the database CPU a deployment does not spend.
 */
export const BENCH_PG_SETTINGS = { shared_buffers: `${Math.min(4096, Math.floor(totalmem() / 4 / 2 ** 20))}MB` };

/** Starts a throwaway cluster (scripts/pg-test-cluster.mjs, with `BENCH_PG_SETTINGS`) and creates the `fund_audit` database in it. */
export async function startPgBench(): Promise<PgBench> {
  const cluster = await startPgCluster({ settings: BENCH_PG_SETTINGS });
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  let version = '';
  try {
    await admin.query('CREATE DATABASE fund_audit');
    version = (await admin.query<{ server_version: string }>('SHOW server_version')).rows[0].server_version;
  } finally {
    await admin.end();
  }
  const url = new URL(cluster.url);
  url.pathname = '/fund_audit';
  const root = mkdtempSync(join(tmpdir(), 'fa-pg-bench-'));
  mkdirSync(join(root, 'blobs'));
  return {
    url: url.toString(),
    root,
    version,
    log: join(cluster.dir, 'server.log'),
    stop: async () => {
      await cluster.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A running node: its process, its URL (serve only), its sign-in link (the first serve only). */
export interface Node {
  name: string;
  child: ChildProcess;
  url: string | null;
  link: string | null;
  stop(): Promise<void>;
}

/**
 * Starts `fund-audit serve` (port 0, 127.0.0.1) or `fund-audit worker` on the benchmark's database
 * with data directory `<root>/<name>`, and waits until it listens (serve) or its job threads run (worker).
 * @param workers job threads of the node (0: none)
 * @param nodeArgs options of node itself (e.g. `--cpu-prof`)
 * @throws Error with the node's output when it exits or is not up within 120 s
 */
export function startNode(
  bench: PgBench,
  kind: 'serve' | 'worker',
  name: string,
  workers: number,
  env: NodeJS.ProcessEnv = {},
  nodeArgs: string[] = [],
): Promise<Node> {
  const dir = join(bench.root, name);
  mkdirSync(dir, { recursive: true });
  const args = [
    ...nodeArgs,
    'bin/fund-audit.mjs',
    '-d',
    dir,
    kind,
    '--database-url',
    bench.url,
    '--blob-dir',
    join(bench.root, 'blobs'),
    '--workers',
    String(workers),
  ];
  if (kind === 'serve') args.push('--port', '0', '--host', '127.0.0.1');
  args.push('--log-level', 'warn');
  const child = spawn(process.execPath, args, {
    env: { ...process.env, FUND_AUDIT_DEMO_DELIVERIES: 'false', FUND_AUDIT_IDENTIFICATION_LIMIT_BYTES: '200000000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${kind} ${name} did not start within 120 s: ${out}`)), 120_000);
    child.on('exit', (code) => reject(new Error(`${kind} ${name} exited ${code}: ${out}`)));
    child.stderr!.on('data', (d) => {
      out += d;
      // the nodes' warnings go on to the bench's output
      process.stderr.write(d);
    });
    child.stdout!.on('data', (d) => {
      out += d;
      const url = /listening on (http:\/\/[\d.:]+)/.exec(out)?.[1] ?? null;
      const link = /(http:\/\/\S+\/redeemToken\/#\S+)/.exec(out)?.[1] ?? null;
      if ((kind === 'serve' && url) || (kind === 'worker' && /Fund Audit worker: \d+ job thread/.test(out))) {
        clearTimeout(timer);
        // give the first serve's sign-in link a moment: it is printed after the address
        setTimeout(() => {
          const later = /(http:\/\/\S+\/redeemToken\/#\S+)/.exec(out)?.[1] ?? link;
          resolve({ name, child, url, link: later, stop });
        }, 200);
      }
    });
  });
}

/** Redeems a serve node's sign-in link. @returns the API token of the administrator */
export async function signIn(node: Node): Promise<string> {
  if (!node.url || !node.link) throw new Error(`${node.name} printed no sign-in link (only the first start of a database does)`);
  const res = await fetch(`${node.url}/api/sso/redeemToken`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: node.link.split('#')[1] }),
  });
  if (!res.ok) throw new Error(`sign-in on ${node.name}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { payload: { token: string } }).payload.token;
}
