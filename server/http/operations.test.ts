/**
 * What an operator sees of a running server: a request id on every answer and log line, the client
 * address (X-Forwarded-For believed only from trusted proxies), Prometheus metrics behind a key or
 * on their own port, and health that tells liveness from readiness, also for HEAD.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixturesDir } from '../paths.js';
import { effectiveConfig } from '../services/dev-tools/config-info.js';
import { importFile } from '../services/imports/imports.js';
import { setWorkerProbe } from '../services/health/health.js';
import { pgUnavailable } from '../testing/dialects.js';
import { storeOf } from '../db/dialect.js';
import pg from 'pg';
import { createTestContext, type TestContext } from '../testing/context.js';
import { onFreePort } from '../testing/idp.js';
import { startServer, type RunningServer } from './server.js';

let ctx: TestContext | undefined;
let server: RunningServer | undefined;

afterEach(async () => {
  await server?.close();
  await ctx?.dispose();
  server = undefined;
  ctx = undefined;
});

async function serve(overrides: Parameters<typeof createTestContext>[0] = {}): Promise<{ ctx: TestContext; server: RunningServer }> {
  ctx = await createTestContext({ logLevel: 'info', workers: 0, ...overrides });
  server = await startServer(ctx, { host: '127.0.0.1', port: 0 });
  return { ctx, server };
}

/** The request lines of the log file. */
function requestLines(c: TestContext): Array<Record<string, unknown>> {
  return readFileSync(join(c.dir, 'logs', 'fund-audit.log'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((l) => l.msg === 'request');
}

/**
 * Takes the database away from under a running context: the SQLite connection closed, or the
 * PostgreSQL database dropped (its connections ended), as a lost database server would.
 */
async function loseDatabase(c: TestContext): Promise<void> {
  const { dialect } = storeOf(c);
  if (dialect === 'sqlite') {
    c.sqlite.close();
    return;
  }
  const name = new URL(c.config.databaseUrl ?? '').pathname.slice(1);
  const admin = new pg.Client({ connectionString: process.env.FUND_AUDIT_TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

describe('request log', () => {
  it('answers a request id and logs it with the client address, user, route, status and duration', async () => {
    const { ctx, server } = await serve();
    const res = await fetch(`${server.url}/api/v2.0/nrd`, { headers: { 'x-forwarded-for': '203.0.113.9', 'x-request-id': 'chosen-by-client' } });
    expect(res.status).toBe(401);
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/); // a client that is not a trusted proxy does not choose the id
    const line = requestLines(ctx).find((l) => l.reqId === id);
    expect(line).toMatchObject({ ip: '127.0.0.1', method: 'GET', route: '/api/v2.0/nrd', url: '/api/v2.0/nrd', status: 401 });
    expect(typeof line?.ms).toBe('number');
  });

  it('takes the client address and request id from a trusted proxy', async () => {
    const { ctx, server } = await serve({ trustedProxies: '127.0.0.0/8, ::1' });
    const res = await fetch(`${server.url}/api/health`, { headers: { 'x-forwarded-for': '198.51.100.7, 203.0.113.9', 'x-request-id': 'proxy-id-1' } });
    expect(res.headers.get('x-request-id')).toBe('proxy-id-1');
    expect(requestLines(ctx).find((l) => l.reqId === 'proxy-id-1')).toMatchObject({ ip: '203.0.113.9', route: '/api/health', status: 200 });
  });
});

describe('metrics', () => {
  it('are off until a metrics key or port is set', async () => {
    const { server } = await serve();
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(404);
    expect(await res.text()).toMatch(/set metricsKey .* or metricsPort/);
  });

  it('need the metrics key, then report requests, jobs, sign-in failures, sizes and the event loop', async () => {
    const key = 'k'.repeat(24);
    const { ctx, server } = await serve({ metricsKey: key });
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer wrong-key-wrong-key' } })).status).toBe(401);
    await fetch(`${server.url}/api/health`);
    const refused = await fetch(`${server.url}/api/sso/redeemToken`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"token":"nope"}',
    });
    expect(refused.status).toBe(401);
    const file = join(fixturesDir(), 'tpas/meridian_fund_services/inputs/MFS_HOLDINGS_S000013795_20230331.csv');
    await importFile(ctx, { administratorCode: 'meridian_fund_services', fileName: 'holdings.csv', userId: null, source: 'upload', path: file });
    const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0.0.4/);
    const text = await res.text();
    expect(text).toMatch(/fund_audit_http_request_duration_seconds_count\{method="GET",route="\/api\/health",status="200"\} 1/);
    expect(text).toMatch(/fund_audit_signin_failures_total\{route="\/api\/sso\/redeemToken"\} 1/);
    expect(text).toMatch(/fund_audit_jobs\{stage="identification",status="pending"\} 1/);
    expect(text).toMatch(/fund_audit_jobs_queue_depth 1/);
    expect(text).toMatch(/# TYPE fund_audit_job_duration_seconds histogram/);
    expect(Number(/fund_audit_database_bytes (\d+)/.exec(text)?.[1])).toBeGreaterThan(100_000);
    expect(Number(/fund_audit_blob_store_bytes (\d+)/.exec(text)?.[1])).toBeGreaterThanOrEqual(readFileSync(file).length);
    expect(text).toMatch(/nodejs_eventloop_lag_seconds \d/);
    // the key is a secret: the developer tools' configuration view does not show it
    expect(effectiveConfig(ctx).find((c) => c.key === 'metricsKey')?.value).toBe('(set)');
  });

  it.skipIf(pgUnavailable())('report the jobs and their durations from a PostgreSQL database too', async () => {
    const key = 'k'.repeat(24);
    const { ctx, server } = await serve({ metricsKey: key, dialect: 'postgres' });
    const { db, tables: t } = storeOf(ctx);
    await db.insert(t.processes).values([
      { stage: 'identification', status: 'pending', fundRequestId: null, payload: {} },
      {
        stage: 'calculations',
        status: 'done',
        fundRequestId: null,
        payload: {},
        startedAt: '2026-01-01T10:00:00.000Z',
        finishedAt: '2026-01-01T10:00:03.500Z',
      },
    ]);
    const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/fund_audit_jobs\{stage="identification",status="pending"\} 1/);
    expect(text).toMatch(/fund_audit_jobs_queue_depth 1/);
    expect(text).toMatch(/fund_audit_job_duration_seconds_bucket\{stage="calculations",le="1"\} 0/);
    expect(text).toMatch(/fund_audit_job_duration_seconds_bucket\{stage="calculations",le="5"\} 1/);
    expect(text).toMatch(/fund_audit_job_duration_seconds_sum\{stage="calculations"\} 3.5/);
  });

  it('can be served on a separate address instead of the main port', async () => {
    const port = await onFreePort(async (p) => {
      try {
        await serve({ metricsPort: p, metricsHost: '127.0.0.1' });
        return p;
      } catch (err) {
        await ctx?.dispose();
        throw err;
      }
    });
    const main = await fetch(`${server!.url}/metrics`);
    expect(main.status).toBe(404);
    expect(await main.text()).toContain(`served on 127.0.0.1:${port}`);
    const separate = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(separate.status).toBe(200);
    expect(await separate.text()).toContain('fund_audit_jobs_queue_depth');
  });
});

describe('health', () => {
  it('tells liveness from readiness, for GET and HEAD', async () => {
    const { ctx, server } = await serve();
    for (const path of ['/api/health', '/api/health/live']) {
      const head = await fetch(`${server.url}${path}`, { method: 'HEAD' });
      expect(head.status, path).toBe(200);
      expect(await head.text()).toBe('');
    }
    // no job workers in this process and no other process with any: alive, not ready
    const notReady = await fetch(`${server.url}/api/health/ready`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toMatchObject({ success: false, errors: ['workers not ready'], payload: { checks: { migrations: { ok: true } } } });
    expect((await fetch(`${server.url}/api/health/ready`, { method: 'HEAD' })).status).toBe(503);
    const health = await (await fetch(`${server.url}/api/health`)).json();
    expect(health.payload).toMatchObject({ status: 'ok', live: true, ready: false, version: expect.any(String) });

    setWorkerProbe(ctx, { expected: 2, running: () => 2 });
    expect((await fetch(`${server.url}/api/health/ready`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/health/ready`, { method: 'HEAD' })).status).toBe(200);
    setWorkerProbe(ctx, { expected: 2, running: () => 1 });
    expect((await fetch(`${server.url}/api/health/ready`)).status).toBe(503);

    // the database gone (a restart, a lost connection): still alive, not ready, saying why
    setWorkerProbe(ctx, { expected: 2, running: () => 2 });
    await loseDatabase(ctx);
    const noDatabase = await fetch(`${server.url}/api/health/ready`);
    expect(noDatabase.status).toBe(503);
    expect(await noDatabase.json()).toMatchObject({
      errors: ['database not ready'],
      payload: { checks: { database: { ok: false, error: expect.any(String) } } },
    });
    expect((await fetch(`${server.url}/api/health/live`)).status).toBe(200);
  });
});
