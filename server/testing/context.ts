/**
 * Test support: a bootstrapped context on a fresh temporary data directory (real SQLite, silent
 * logs) or on a fresh database of the test run's PostgreSQL cluster, and an in-process API client
 * that sends real Requests through the h3 app.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootstrap, type BootstrapResult } from '../bootstrap.js';
import { configSchema, type AppConfig } from '../config.js';
import { createContext, type AppContext } from '../context.js';
import { createPgContext } from '../context-pg.js';
import type { Dialect } from '../db/dialect.js';
import { createApp } from '../http/app.js';
import { issueToken } from '../services/auth/tokens.js';
import type { Envelope } from '../http/envelope.js';
import type { AppError } from '../errors.js';

export interface TestContext extends AppContext {
  dir: string;
  boot: BootstrapResult;
  /**
   * Closes the context and removes the data directory (and, on PostgreSQL, the database: return
   * or await what it gives, e.g. `afterEach(() => ctx.dispose())`).
   */
  dispose(): Promise<void>;
}

/**
 * The database test contexts open when the test names none: `FUND_AUDIT_TEST_DIALECT`
 * (`postgres` in the vitest project that runs the HTTP suites on PostgreSQL), else SQLite.
 */
export function defaultTestDialect(): Dialect {
  return process.env.FUND_AUDIT_TEST_DIALECT === 'postgres' ? 'postgres' : 'sqlite';
}

/**
 * A context on a new temporary data directory, bootstrapped (admin, reference data, demo TPAs).
 * @param overrides configuration values; `dialect: 'postgres'` puts the context on a new database
 *   of the test run's PostgreSQL cluster (use inside `describeEachDialect`/`describePg`, which skip
 *   when there is none), blobs and logs staying in the temporary directory
 */
export async function createTestContext(overrides: Partial<AppConfig> & { dialect?: Dialect } = {}): Promise<TestContext> {
  const { dialect = defaultTestDialect(), ...values } = overrides;
  const dir = mkdtempSync(join(tmpdir(), 'fund-audit-test-'));
  // FUND_AUDIT_TEST_LOG=error (or another level) shows the contexts' logs on the terminal
  const config = { ...configSchema.parse({ logLevel: process.env.FUND_AUDIT_TEST_LOG ?? 'silent' }), dataDir: dir, ...values } as AppConfig;
  let drop = async () => {};
  let ctx: AppContext;
  if (dialect === 'postgres') {
    // loaded here only: it imports vitest, and benchmarks use this module outside a test run
    const { createPgTestDatabase } = await import('./dialects.js');
    const database = await createPgTestDatabase();
    drop = database.drop;
    // in the configuration too: the request pools' threads open their own connections from it
    config.databaseUrl = database.url;
    ctx = await createPgContext({ config, url: database.url, terminalLog: !!process.env.FUND_AUDIT_TEST_LOG });
  } else {
    ctx = await createContext({ config, terminalLog: !!process.env.FUND_AUDIT_TEST_LOG });
  }
  const dispose = async () => {
    ctx.close();
    rmSync(dir, { recursive: true, force: true });
    await drop();
  };
  try {
    const boot = await bootstrap(ctx);
    return Object.assign(ctx, { dir, boot, dispose });
  } catch (err) {
    await dispose();
    throw err;
  }
}

export interface ApiResult<T = any> {
  status: number;
  body: Envelope<T>;
  headers: Headers;
}

/** In-process API client for a context. */
export function apiClient(ctx: AppContext) {
  const app = createApp(ctx);
  const call = async <T = any>(
    method: string,
    path: string,
    opts: { token?: string | null; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<ApiResult<T>> => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers['x-access-token'] = opts.token;
    let body: BodyInit | undefined;
    if (opts.body instanceof FormData) body = opts.body;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    const url = path.startsWith('/') ? path : `/api/v2.0/${path}`;
    const res = await app.fetch(new Request(`http://test.local${url}`, { method, headers, body }));
    const text = await res.text();
    let parsed: any;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = { raw: text };
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
  return {
    app,
    call,
    get: <T = any>(path: string, token?: string | null) => call<T>('GET', path, { token }),
    post: <T = any>(path: string, body?: unknown, token?: string | null) => call<T>('POST', path, { token, body }),
  };
}

/** A session token for a user id (skips the sign-in link). */
export async function sessionToken(ctx: AppContext, userId: number): Promise<string> {
  return (await issueToken(ctx, userId, 'session', 3_600_000)).token;
}

/**
 * The error a call throws (or, for an async call, rejects with), for assertions on its type,
 * message and fields: `errorOf(() => f())`, `await errorOf(() => asyncF())`.
 * @throws Error 'expected an error' when the call returns (or resolves) normally
 */
export function errorOf<E extends Error = AppError>(fn: () => Promise<unknown>): Promise<E>;
export function errorOf<E extends Error = AppError>(fn: () => unknown): E;
export function errorOf<E extends Error = AppError>(fn: () => unknown): E | Promise<E> {
  let result: unknown;
  try {
    result = fn();
  } catch (err) {
    return err as E;
  }
  if (result instanceof Promise)
    return result.then(
      () => {
        throw new Error('expected an error');
      },
      (err: unknown) => err as E,
    );
  throw new Error('expected an error');
}
