/**
 * Test support: a context on a fresh temporary data directory (real SQLite, silent logs) and an
 * in-process API client that sends real Requests through the h3 app.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootstrap, type BootstrapResult } from './bootstrap.js';
import { configSchema, type AppConfig } from './config.js';
import { createContext, type AppContext } from './context.js';
import { createApp } from './http/app.js';
import { issueToken } from './services/auth/tokens.js';
import type { Envelope } from './http/envelope.js';
import type { AppError } from './errors.js';

export interface TestContext extends AppContext {
  dir: string;
  boot: BootstrapResult;
  /** Removes the data directory. */
  dispose(): void;
}

/** A context on a new temporary data directory, bootstrapped (admin, reference data, demo TPAs). */
export async function createTestContext(overrides: Partial<AppConfig> = {}): Promise<TestContext> {
  const dir = mkdtempSync(join(tmpdir(), 'fund-audit-test-'));
  const config = { ...configSchema.parse({ logLevel: 'silent' }), dataDir: dir, ...overrides } as AppConfig;
  const ctx = await createContext({ config, terminalLog: false });
  const boot = bootstrap(ctx);
  return Object.assign(ctx, {
    dir,
    boot,
    dispose: () => {
      ctx.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });
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
export function sessionToken(ctx: AppContext, userId: number): string {
  return issueToken(ctx, userId, 'session', 3_600_000).token;
}

/**
 * The error a call throws, for assertions on its type, message and fields.
 * @throws Error 'expected an error' when the call returns normally
 */
export function errorOf<E extends Error = AppError>(fn: () => unknown): E {
  try {
    fn();
  } catch (err) {
    return err as E;
  }
  throw new Error('expected an error');
}
