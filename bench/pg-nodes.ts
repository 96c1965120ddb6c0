/**
 * What the PostgreSQL benchmarks share: a throwaway cluster with one database, and real
 * `fund-audit serve` / `worker` nodes of the built bundle on it (one blob directory, a data
 * directory each), signed in through the first node's sign-in link.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
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
  /** The cluster's data directory (its `postmaster.pid` names the server's process). */
  dataDir: string;
  /** Whether the cluster was kept from an earlier run (`startPgBench`'s `keep`): its database is set up and seeded already. */
  reused: boolean;
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

/**
 * Starts a throwaway cluster (scripts/pg-test-cluster.mjs, with `BENCH_PG_SETTINGS`) and creates
 * the `fund_audit` database in it; with `keep`, the cluster and the nodes' folders are kept in that
 * folder, and started again from it on the next run (`reused`: the database is there already).
 */
export async function startPgBench(keep?: string): Promise<PgBench> {
  const cluster = await startPgCluster({ settings: BENCH_PG_SETTINGS, keep });
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  let version = '';
  let reused = false;
  try {
    reused = (await admin.query(`SELECT 1 FROM pg_database WHERE datname = 'fund_audit'`)).rowCount === 1;
    if (!reused) await admin.query('CREATE DATABASE fund_audit');
    version = (await admin.query<{ server_version: string }>('SHOW server_version')).rows[0].server_version;
  } finally {
    await admin.end();
  }
  const url = new URL(cluster.url);
  url.pathname = '/fund_audit';
  const root = keep ? join(keep, 'nodes') : mkdtempSync(join(tmpdir(), 'fa-pg-bench-'));
  mkdirSync(join(root, 'blobs'), { recursive: true });
  return {
    url: url.toString(),
    root,
    version,
    log: join(cluster.dir, 'server.log'),
    dataDir: join(cluster.dir, 'data'),
    reused,
    stop: async () => {
      await cluster.stop();
      if (!keep) rmSync(root, { recursive: true, force: true });
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

/**
 * A new sign-in link of the install's first administrator, from the command line on the database
 * (`fund-audit users list`, `users link`): for a database whose first start (and its printed link)
 * was an earlier run's.
 */
export function signInLink(bench: PgBench): string {
  const cli = (...args: string[]) =>
    execFileSync(process.execPath, ['bin/fund-audit.mjs', '--database-url', bench.url, '--blob-dir', join(bench.root, 'blobs'), ...args], { encoding: 'utf8' });
  const users = JSON.parse(cli('users', 'list', '--json')) as Array<{ email: string; role: string }>;
  const admin = users.find((u) => u.role === 'Root' || u.role === 'Admin');
  if (!admin) throw new Error('the benchmark database has no administrator to sign in as');
  const link = /(http\S+\/redeemToken\/#\S+)/.exec(cli('users', 'link', admin.email))?.[1];
  if (!link) throw new Error('fund-audit users link printed no link');
  return link;
}

/** Redeems a serve node's sign-in link (`link`, else the one it printed). @returns the API token of the administrator */
export async function signIn(node: Node, link = node.link): Promise<string> {
  if (!node.url || !link) throw new Error(`${node.name} printed no sign-in link (only the first start of a database does)`);
  const res = await fetch(`${node.url}/api/sso/redeemToken`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: link.split('#')[1] }),
  });
  if (!res.ok) throw new Error(`sign-in on ${node.name}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { payload: { token: string } }).payload.token;
}
