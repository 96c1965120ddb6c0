/**
 * Test support for both databases: a fresh PostgreSQL database per test file in the cluster the
 * test run started (`FUND_AUDIT_TEST_DATABASE_URL`, scripts/pg-global-setup.mjs), and
 * `describeEachDialect`, which runs a describe block once on SQLite and once on PostgreSQL over
 * empty, migrated databases.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, vi } from 'vitest';
import { configSchema, type AppConfig } from '../config.js';
import { createContext, type AppContext } from '../context.js';
import { createPgContext } from '../context-pg.js';
import type { Dialect } from '../db/dialect.js';

/** Why PostgreSQL tests cannot run here, or null when they can. */
export function pgUnavailable(): string | null {
  if (process.env.FUND_AUDIT_TEST_DATABASE_URL) return null;
  return process.env.FUND_AUDIT_TEST_PG_MISSING ?? 'FUND_AUDIT_TEST_DATABASE_URL is not set (the vitest global setup starts a cluster)';
}

/** A describe block on PostgreSQL; skipped, with the reason in its name, when PostgreSQL is not there. */
export function describePg(name: string, fn: () => void): void {
  const reason = pgUnavailable();
  if (reason) describe.skip(`${name} (skipped: ${reason})`, fn);
  else describe(name, fn);
}

/**
 * A new empty database in the test cluster.
 * @returns its URL and `drop()`, which removes it (ending its connections)
 */
export async function createPgTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env.FUND_AUDIT_TEST_DATABASE_URL;
  if (!admin) throw new Error(pgUnavailable() ?? 'no PostgreSQL');
  const name = `fund_audit_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** An empty, migrated database of one dialect with contexts on it. */
export interface DialectDatabase {
  dialect: Dialect;
  /** A context on the database (the first one is opened by `openDialectDatabase`). */
  ctx: AppContext;
  /** Another context on the same database, as a restarted or second node would open. */
  open(): Promise<AppContext>;
  /** Closes every context and removes the database. */
  dispose(): Promise<void>;
}

/**
 * Opens an empty, migrated database of `dialect` (no bootstrap: no users, TPAs or reference data).
 * @param overrides configuration values (logs are silent)
 */
export async function openDialectDatabase(dialect: Dialect, overrides: Partial<AppConfig> = {}): Promise<DialectDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'fund-audit-test-'));
  const config = { ...configSchema.parse({ logLevel: 'silent' }), dataDir: dir, ...overrides } as AppConfig;
  const contexts: AppContext[] = [];
  let drop = async () => {};
  let open: () => Promise<AppContext>;
  if (dialect === 'sqlite') {
    open = () => createContext({ config, terminalLog: false });
  } else {
    const database = await createPgTestDatabase();
    drop = database.drop;
    open = () => createPgContext({ config, url: database.url, terminalLog: false });
  }
  const track = async () => {
    const ctx = await open();
    contexts.push(ctx);
    return ctx;
  };
  return {
    dialect,
    ctx: await track(),
    open: track,
    dispose: async () => {
      for (const ctx of contexts.splice(0)) ctx.close();
      await drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs `fn` as a describe block once per database: `fn('sqlite')` and `fn('postgres')` (skipped,
 * with the reason in its name, when PostgreSQL is not there). Open the database in `beforeEach`
 * or `beforeAll` with `openDialectDatabase(dialect)`.
 */
export function describeEachDialect(name: string, fn: (dialect: Dialect) => void): void {
  describe(`${name} (SQLite)`, () => fn('sqlite'));
  describePg(`${name} (PostgreSQL)`, () => fn('postgres'));
}

/**
 * Calls `read` twice in a row until both calls answer the very same object (a cache answering at
 * one data version), tried again for up to 20 s: on PostgreSQL the data version is the cluster's
 * snapshot, whose transaction ids test files writing to other databases of the same cluster move
 * too. A cache that never answers twice fails the test.
 * @returns the object both calls answered
 */
export async function answeredTwiceFromCache<T>(read: () => Promise<T>): Promise<T> {
  let first: T | undefined;
  await vi.waitFor(
    async () => {
      first = await read();
      expect(await read()).toBe(first);
    },
    { timeout: 20_000, interval: 10 },
  );
  return first as T;
}
