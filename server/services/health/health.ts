/**
 * Liveness and readiness of a running install. Live: the process answers. Ready: the database
 * schema is the one this program ships (migrations done) and job workers are up, in this process
 * (as many threads as configured) or, with `workers` 0 here, in another live process on the same
 * data directory (or database).
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { hostname } from 'node:os';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { AppContext } from '../../context.js';
import { type DataStore, type Dialect, runPrepared, storeOf } from '../../db/dialect.js';
import { HEARTBEAT_MS } from '../../queue/nodes.js';
import { appVersion, migrationsDir, migrationsPgDir } from '../../paths.js';

/** The job threads a process runs: how many are wanted and how many are up. */
export interface WorkerProbe {
  expected: number;
  running(): number;
}

const probes = new WeakMap<AppContext, WorkerProbe>();

/** Records how to count this process's job threads (called once the runtime starts). */
export function setWorkerProbe(ctx: AppContext, probe: WorkerProbe): void {
  probes.set(ctx, probe);
}

const shippedSchema = new Map<Dialect, number>();

/** Number of migrations this program ships for a database (its schema version; default SQLite). */
export function shippedSchemaVersion(dialect: Dialect = 'sqlite'): number {
  let n = shippedSchema.get(dialect);
  if (n === undefined) {
    n = readMigrationFiles({ migrationsFolder: dialect === 'postgres' ? migrationsPgDir() : migrationsDir() }).length;
    shippedSchema.set(dialect, n);
  }
  return n;
}

export interface Readiness {
  ready: boolean;
  checks: {
    migrations: { ok: boolean; schemaVersion: number; expected: number };
    workers: { ok: boolean; expected: number; running: number; otherProcesses: number };
    /** The database answers (a load balancer takes a node whose database is down out of rotation). */
    database: { ok: boolean; error?: string };
  };
}

/** The job nodes' threads, heartbeats and hosts (the `nodes` table). */
const nodesQuery = (store: DataStore) => {
  const { nodes } = store.tables;
  return store.db.select({ workers: nodes.workers, heartbeatAt: nodes.heartbeatAt, pid: nodes.pid, host: nodes.hostname }).from(nodes);
};

/**
 * Whether the install is ready to do its work.
 * @returns `ready` and each check: migrations (database schema = shipped schema), workers
 *   (threads of this process up, or another live process with job threads when this one runs none)
 *   and database (it answers; the error when it does not)
 */
export async function readiness(ctx: AppContext): Promise<Readiness> {
  const { dialect } = storeOf(ctx);
  const expected = shippedSchemaVersion(dialect);
  const migrations = { ok: ctx.schemaVersion === expected, schemaVersion: ctx.schemaVersion, expected };
  const probe = probes.get(ctx);
  const running = probe?.running() ?? 0;
  const wanted = probe?.expected ?? 0;
  const fresh = Date.now() - 3 * HEARTBEAT_MS;
  let database: Readiness['checks']['database'] = { ok: true };
  let otherProcesses = 0;
  try {
    // prepared once: load balancers and monitors call health every few seconds, and building and
    // compiling the query each time cost more than the rest of the answer
    otherProcesses = (await runPrepared(ctx, 'fund_audit_health_nodes', nodesQuery, {})).filter(
      (n) => n.workers > 0 && n.heartbeatAt >= fresh && !(n.pid === process.pid && n.host === hostname()),
    ).length;
  } catch (err) {
    database = { ok: false, error: (err as Error).message };
  }
  const workersOk = wanted > 0 ? running >= wanted : otherProcesses > 0;
  const workers = { ok: workersOk, expected: wanted, running, otherProcesses };
  return { ready: migrations.ok && workers.ok && database.ok, checks: { migrations, workers, database } };
}

/** The health payload: liveness (always true when it answers), readiness, versions. */
export async function health(ctx: AppContext): Promise<{ status: 'ok'; live: true; version: string; schemaVersion: number } & Readiness> {
  return { status: 'ok', live: true, version: appVersion(), schemaVersion: ctx.schemaVersion, ...(await readiness(ctx)) };
}
