/**
 * Opens a PostgreSQL database and brings its schema up to date: a node-postgres pool with drizzle
 * over the tables of `server/db/schema-pg`, and the migrations of `server/db/migrations-pg`
 * applied in one transaction under an advisory lock, so of several nodes starting at once one
 * applies them and the others wait and find nothing left to do.
 */
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import pg from 'pg';
import { appVersion, migrationsPgDir } from '../paths.js';
import { SchemaTooNewError } from './client.js';
import type { DataStore, NeutralDb, Tables } from './dialect.js';
import * as pgSchema from './schema-pg/index.js';

export type PgDb = NodePgDatabase<typeof pgSchema> & { $client: pg.Pool };

export interface OpenPgResult {
  db: PgDb;
  pool: pg.Pool;
  /** The database as dialect-neutral services use it. */
  store: DataStore;
  /** Number of migrations applied in the schema (the schema version). */
  schemaVersion: number;
  /** Migrations applied by this start. */
  applied: number;
}

/** The advisory lock key held while migrating (any node of any Fund Audit on the database). */
export const MIGRATION_LOCK_KEY = 4_674_616_917_233_001;

/** The URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(an invalid URL)';
  }
}

/**
 * Opens a pool on `url` and migrates the database.
 * @param opts.max most connections of the pool (default 10)
 * @throws SchemaTooNewError when the database was migrated by a newer Fund Audit; Error when it
 *   cannot be reached or a migration fails (nothing is changed then)
 */
export async function openPgDb(url: string, opts: { max?: number; migrationsFolder?: string } = {}): Promise<OpenPgResult> {
  const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 10 });
  // an idle client's error (the server restarted) must not end the process; the next query reconnects
  pool.on('error', () => {});
  try {
    const { schemaVersion, applied } = await migratePg(pool, url, opts.migrationsFolder);
    const db = drizzle(pool, { schema: pgSchema }) as PgDb;
    return { db, pool, store: pgStore(db), schemaVersion, applied };
  } catch (err) {
    await pool.end();
    throw err;
  }
}

/** The dialect-neutral store over a PostgreSQL database (`server/db/dialect.ts`). */
export function pgStore(db: PgDb): DataStore {
  return {
    dialect: 'postgres',
    db: db as unknown as NeutralDb,
    tables: pgSchema as unknown as Tables,
    transaction: (fn) => db.transaction((tx) => fn(tx as unknown as NeutralDb)),
  };
}

/**
 * Applies the migrations the database has not had, in one transaction, holding the migration
 * advisory lock meanwhile.
 * @returns the schema version and how many were applied now
 */
export async function migratePg(pool: pg.Pool, url: string, migrationsFolder = migrationsPgDir()): Promise<{ schemaVersion: number; applied: number }> {
  const migrations = readMigrationFiles({ migrationsFolder });
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await client.query('CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (id serial PRIMARY KEY, hash text NOT NULL, created_at bigint)');
      const { rows } = await client.query<{ n: string; last: string | null }>('SELECT count(*) AS n, max(created_at) AS last FROM "__drizzle_migrations"');
      const done = Number(rows[0]?.n ?? 0);
      const last = rows[0]?.last === null || rows[0]?.last === undefined ? null : Number(rows[0].last);
      const newest = migrations.at(-1)?.folderMillis ?? 0;
      if (done > migrations.length || (last !== null && last > newest)) {
        throw new SchemaTooNewError(
          `The database ${redactUrl(url)} has schema version ${done}, but Fund Audit ${appVersion()} knows schema versions up to ${migrations.length}: ` +
            'it was upgraded by a newer Fund Audit. Run that version (or a newer one), or restore a backup taken with this one.',
        );
      }
      const pending = migrations.filter((m) => last === null || last < m.folderMillis);
      if (pending.length) {
        await client.query('BEGIN');
        try {
          for (const m of pending) {
            for (const stmt of m.sql) if (stmt.trim()) await client.query(stmt);
            await client.query('INSERT INTO "__drizzle_migrations" (hash, created_at) VALUES ($1, $2)', [m.hash, m.folderMillis]);
          }
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK');
          throw err;
        }
      }
      return { schemaVersion: done + pending.length, applied: pending.length };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}
