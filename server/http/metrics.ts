/**
 * `GET /metrics` in the Prometheus text format (prom-client): HTTP request durations by route and
 * status, jobs by stage and status, job durations by stage and the queue depth (read from the
 * `processes` table when scraped, so jobs of every process on the data directory or database count), sign-in
 * failures, database size (SQLite file or PostgreSQL database) and blob-store size, and Node's own
 * metrics (event-loop lag, memory, CPU).
 * Off unless guarded: `metricsKey` (the scraper sends `Authorization: Bearer <key>`) or
 * `metricsPort` (a separate listener, e.g. on 127.0.0.1, serving only `/metrics`).
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { count, eq } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { PgDb } from '../db/client-pg.js';
import { baseStoreOf } from '../db/dialect.js';
import type { RequestInfo } from './request-log.js';

/** Upper bounds (seconds) of the job duration buckets. */
const JOB_BUCKETS = [1, 5, 15, 60, 300, 900, 3600];
/** Blob-store size is recomputed at most this often (it walks the folder), in ms. */
const BLOB_SIZE_TTL_MS = 60_000;

export interface Metrics {
  registry: Registry;
  /** Records an answered request (the request log's observer). */
  observe(info: RequestInfo): void;
}

const byContext = new WeakMap<AppContext, Metrics>();

/** Sum of the sizes of the files below a folder, in bytes. */
function folderBytes(dir: string): number {
  if (!existsSync(dir)) return 0;
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) {
      try {
        total += statSync(join(entry.parentPath, entry.name)).size;
      } catch {
        // removed while walking
      }
    }
  }
  return total;
}

type DurationRow = Record<string, number> & { stage: string };

/**
 * The finished jobs' duration buckets by stage, computed by the database: `julianday` on SQLite,
 * the difference of the ISO timestamps as `timestamptz` on PostgreSQL (counts and sums come back
 * as text there).
 */
function jobDurationRows(ctx: AppContext): () => Promise<DurationRow[]> {
  const store = baseStoreOf(ctx);
  const finished = "started_at IS NOT NULL AND finished_at IS NOT NULL AND status IN ('done', 'success', 'error')";
  if (store.dialect === 'postgres') {
    const pool = (store.db as unknown as PgDb).$client;
    const counts = JOB_BUCKETS.map((le, i) => `COUNT(*) FILTER (WHERE d <= ${le}) AS b${i}`).join(', ');
    const text = `SELECT stage, ${counts}, SUM(d) AS total, COUNT(*) AS n FROM (
       SELECT stage, EXTRACT(EPOCH FROM (finished_at::timestamptz - started_at::timestamptz)) AS d FROM processes WHERE ${finished}
     ) x GROUP BY stage`;
    return async () =>
      (await pool.query<Record<string, string>>(text)).rows.map(
        (r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === 'stage' ? v : Number(v ?? 0)])) as DurationRow,
      );
  }
  const sums = JOB_BUCKETS.map((le, i) => `SUM(d <= ${le}) AS b${i}`).join(', ');
  const query = ctx.sqlite.prepare(
    `SELECT stage, ${sums}, SUM(d) AS total, COUNT(*) AS n FROM (
       SELECT stage, (julianday(finished_at) - julianday(started_at)) * 86400 AS d FROM processes WHERE ${finished}
     ) GROUP BY stage`,
  );
  return async () => query.all() as DurationRow[];
}

/**
 * How to read the size of the context's database, in bytes: on SQLite the database file and its
 * write-ahead log in the data directory, on PostgreSQL `pg_database_size` of the connected database.
 */
function databaseSize(ctx: AppContext): () => Promise<number> {
  const store = baseStoreOf(ctx);
  if (store.dialect === 'postgres') {
    const pool = (store.db as unknown as PgDb).$client;
    return async () => Number((await pool.query<{ n: string }>('SELECT pg_database_size(current_database()) AS n')).rows[0]?.n ?? 0);
  }
  const dbFile = join(ctx.config.dataDir, ctx.config.dbName);
  return async () => [dbFile, `${dbFile}-wal`].reduce((n, f) => n + (existsSync(f) ? statSync(f).size : 0), 0);
}

/** A histogram of job durations by stage, computed by the database from the finished jobs when scraped. */
function jobDurations(ctx: AppContext) {
  const name = 'fund_audit_job_duration_seconds';
  const query = jobDurationRows(ctx);
  return {
    name,
    help: 'Durations of finished jobs by stage (start to finish), in seconds',
    type: 'histogram',
    aggregator: 'sum',
    async get() {
      const rows = await query();
      const values = rows.flatMap((r) => [
        ...JOB_BUCKETS.map((le, i) => ({ metricName: `${name}_bucket`, labels: { stage: r.stage, le }, value: r[`b${i}`] ?? 0 })),
        { metricName: `${name}_bucket`, labels: { stage: r.stage, le: '+Inf' }, value: r.n },
        { metricName: `${name}_sum`, labels: { stage: r.stage }, value: r.total ?? 0 },
        { metricName: `${name}_count`, labels: { stage: r.stage }, value: r.n },
      ]);
      return { name, help: this.help, type: 'histogram', values, aggregator: 'sum' };
    },
    reset() {},
  };
}

/**
 * The metrics of a context (one registry per context, shared by its app and metrics listener).
 */
export function metricsOf(ctx: AppContext): Metrics {
  const known = byContext.get(ctx);
  if (known) return known;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Histogram({
    name: 'fund_audit_http_request_duration_seconds',
    help: 'HTTP requests by method, route and status, in seconds',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const signinFailures = new Counter({
    name: 'fund_audit_signin_failures_total',
    help: 'Refused sign-ins (sign-in links, sessions) by route',
    labelNames: ['route'],
    registers: [registry],
  });
  const { db, tables: t } = baseStoreOf(ctx);
  new Gauge({
    name: 'fund_audit_jobs',
    help: 'Jobs by stage and status',
    labelNames: ['stage', 'status'],
    registers: [registry],
    async collect() {
      const rows = await db
        .select({ stage: t.processes.stage, status: t.processes.status, n: count() })
        .from(t.processes)
        .groupBy(t.processes.stage, t.processes.status);
      this.reset();
      for (const r of rows) this.set({ stage: r.stage, status: r.status }, r.n);
    },
  });
  new Gauge({
    name: 'fund_audit_jobs_queue_depth',
    help: 'Jobs waiting for a worker',
    registers: [registry],
    async collect() {
      const [row] = await db.select({ n: count() }).from(t.processes).where(eq(t.processes.status, 'pending'));
      this.set(row?.n ?? 0);
    },
  });
  registry.registerMetric(jobDurations(ctx) as never);
  const databaseBytes = databaseSize(ctx);
  new Gauge({
    name: 'fund_audit_database_bytes',
    help: 'Size of the database, in bytes: the SQLite file with its write-ahead log, or the PostgreSQL database (pg_database_size)',
    registers: [registry],
    async collect() {
      this.set(await databaseBytes());
    },
  });
  let blobs = { at: 0, bytes: 0 };
  new Gauge({
    name: 'fund_audit_blob_store_bytes',
    help: 'Size of the blob store (imported files, outputs, exports), in bytes; refreshed at most once a minute',
    registers: [registry],
    collect() {
      if (Date.now() - blobs.at > BLOB_SIZE_TTL_MS) blobs = { at: Date.now(), bytes: folderBytes(ctx.blobs.root) };
      this.set(blobs.bytes);
    },
  });
  const metrics: Metrics = {
    registry,
    observe(info) {
      requests.observe({ method: info.method, route: info.route, status: String(info.status) }, info.seconds);
      if ((info.status === 401 || info.status === 403) && /\/(sso|auth|oidc)\//.test(info.route)) signinFailures.inc({ route: info.route });
    },
  };
  byContext.set(ctx, metrics);
  return metrics;
}

/** Whether an `Authorization` header carries the metrics key (compared in constant time). */
export function hasMetricsKey(ctx: AppContext, authorization: string | null): boolean {
  const key = ctx.config.metricsKey;
  if (!key) return true;
  const given = /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1] ?? '';
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(key));
}

/**
 * The answer to `GET /metrics` on a listener: 404 when metrics are off there, 401 without the key.
 * @param separate true on the `metricsPort` listener
 */
export async function metricsResponse(ctx: AppContext, authorization: string | null, separate: boolean): Promise<Response> {
  const { metricsKey, metricsPort } = ctx.config;
  const text = (status: number, body: string) => new Response(body + '\n', { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  if (!separate && metricsPort) return text(404, `Metrics are served on ${ctx.config.metricsHost}:${metricsPort}`);
  if (!separate && !metricsKey) return text(404, 'Metrics are off: set metricsKey (FUND_AUDIT_METRICS_KEY) or metricsPort (FUND_AUDIT_METRICS_PORT)');
  if (!hasMetricsKey(ctx, authorization)) return text(401, 'The metrics key is missing or wrong: send Authorization: Bearer <metricsKey>');
  const { registry } = metricsOf(ctx);
  return new Response(await registry.metrics(), { status: 200, headers: { 'content-type': registry.contentType } });
}

/**
 * Starts the separate metrics listener when `metricsPort` is set.
 * @returns the listener (close it on shutdown), or null when not configured
 */
export async function startMetricsServer(ctx: AppContext): Promise<Server | null> {
  const { metricsPort, metricsHost } = ctx.config;
  if (!metricsPort) return null;
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://metrics').pathname;
    const answer =
      path === '/metrics' && req.method === 'GET'
        ? metricsResponse(ctx, req.headers.authorization ?? null, true)
        : Promise.resolve(new Response('Not found\n', { status: 404 }));
    void answer.then(async (r) => {
      res.writeHead(r.status, Object.fromEntries(r.headers));
      res.end(Buffer.from(await r.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(metricsPort, metricsHost, () => resolve());
  });
  return server;
}
