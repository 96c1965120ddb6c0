/**
 * The setup the per-dialect service tests of fund files, file issue lists, process actions,
 * logs and adjustments share: an empty database of either dialect with one Admin user acting,
 * the file events it publishes collected, and the trail entries those services write read back.
 * Funds, files and processes come from `fund-factory.ts`. Not used by the application.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { asc, eq } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { storeOf, type Dialect } from '../db/dialect.js';
import { openDialectDatabase, type DialectDatabase } from './dialects.js';
import type { Role } from '../db/schema/users.js';
import type { AppEvents } from '../events.js';
import type { User } from '../services/auth/tokens.js';

/** An open test database with the user acting in it and the file events published so far. */
export interface FundTestDatabase extends DialectDatabase {
  /** The Admin 'Ada Admin' (ada@example.com) the services act as. */
  admin: User;
  /** The `file` events the context published, oldest first. */
  events: AppEvents['file'][];
}

/**
 * Opens an empty, migrated database of `dialect` (no bootstrap) with one Admin user, collecting
 * the `file` events of its context. Dispose it after the test (`afterEach(() => t.dispose())`).
 */
export async function openFundTestDatabase(dialect: Dialect): Promise<FundTestDatabase> {
  const database = await openDialectDatabase(dialect);
  const admin = await insertUser(database.ctx, { email: 'ada@example.com', firstName: 'Ada', lastName: 'Admin' });
  const events: AppEvents['file'][] = [];
  database.ctx.events.on('file', (e) => events.push(e));
  return Object.assign(database, { admin, events });
}

/**
 * Inserts a user (role Admin unless given, its original role the same, username its e-mail).
 * @returns the user as the services take it
 */
export async function insertUser(ctx: AppContext, user: { email: string; firstName?: string; lastName?: string; role?: Role }): Promise<User> {
  const { db, tables: t } = storeOf(ctx);
  const role = user.role ?? 'Admin';
  const [row] = await db
    .insert(t.users)
    .values({ email: user.email, username: user.email, firstName: user.firstName ?? 'Test', lastName: user.lastName ?? 'User', role, originalRole: role })
    .returning();
  return row as unknown as User;
}

/** The trail entries of a fund request (of every fund request when omitted), oldest first. */
export async function trailOf(ctx: AppContext, fundRequestId?: number) {
  const { db, tables: t } = storeOf(ctx);
  const q = db.select().from(t.trail);
  return (fundRequestId === undefined ? q : q.where(eq(t.trail.fundRequestId, fundRequestId))).orderBy(asc(t.trail.id));
}
