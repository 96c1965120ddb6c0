/**
 * The security audit log: who signed in (or failed to), switched view, generated a key,
 * impersonated someone, changed a user or a role, deleted a mapping or funds. Entries are only
 * appended (the table refuses updates and deletes) and each carries the sha256 of the previous
 * entry's hash and its own content, so `verifyAuditLog` finds an entry that was edited or removed
 * (`fund-audit audit verify`). Read in the developer tools (`GET /dev-tools/audit-log`) and exported
 * as JSON lines (`fund-audit audit export`, `GET /dev-tools/audit-log/export`).
 *
 * The highest id ever given (to find a removed newest entry) is SQLite's `sqlite_sequence` row of
 * the table, and on PostgreSQL a settings row written with each entry (`highestIdGiven`,
 * `noteIdGiven`). Two entries appended at once (two nodes) take turns on that row's lock on
 * PostgreSQL, on the write lock on SQLite.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { createHash } from 'node:crypto';
import { asc, desc, eq, gt, lt, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf, type DataStore } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';

/** What the log records. */
export type AuditAction =
  | 'sign-in'
  | 'sign-in-failed'
  | 'sign-in-no-role'
  | 'view-switch'
  | 'key-generated'
  | 'impersonation'
  | 'user-created'
  | 'user-changed'
  | 'user-linked'
  | 'mapping-deleted'
  | 'fund-deleted'
  | 'contact-changed'
  | 'chase-schedule-changed'
  | 'chase-changed'
  | 'chase-run';

/** Who did it: a user, or nobody known (a failed sign-in). */
export interface AuditActor {
  id: number;
  email: string;
}

/** One entry as read back. */
export interface AuditEntry {
  id: number;
  at: string;
  actorId: number | null;
  actorEmail: string | null;
  action: string;
  subject: string | null;
  details: Record<string, unknown>;
  prevHash: string;
  hash: string;
}

/** The hash before the first entry. */
export const GENESIS = '0'.repeat(64);

/** The hash of an entry: sha256 over the previous hash and the entry's fields, in a fixed order. */
export function entryHash(e: Omit<AuditEntry, 'hash' | 'details'> & { details: string }): string {
  const content = JSON.stringify([e.id, e.at, e.actorId, e.actorEmail, e.action, e.subject, e.details]);
  return createHash('sha256').update(`${e.prevHash}\n${content}`).digest('hex');
}

/** A raw statement's rows on either database (node-postgres answers `{rows}`, better-sqlite3 an array). */
async function rawRows<T>(store: DataStore, query: ReturnType<typeof sql>): Promise<T[]> {
  if (store.dialect === 'postgres') {
    const result = (await (store.db as unknown as { execute(q: unknown): Promise<{ rows: T[] }> }).execute(query)) as { rows: T[] };
    return result.rows;
  }
  return (await store.db.all(query)) as T[];
}

/** The settings row keeping the log's highest id given on PostgreSQL. */
const HIGH_WATER = 'audit-log-high-water';

/**
 * The highest id the log ever gave (0 when none): SQLite's `sqlite_sequence`; on PostgreSQL a
 * settings row written in the append's transaction (the identity sequence would not do: `setval`
 * is not rolled back, so an append rolled back with its caller's transaction would leave a gap
 * that verification reports as a removed entry).
 */
async function highestIdGiven(store: DataStore): Promise<number> {
  if (store.dialect === 'postgres') {
    const { db, tables: t } = store;
    const [row] = await db.select({ value: t.settings.value }).from(t.settings).where(eq(t.settings.key, HIGH_WATER));
    return Number(row?.value ?? 0);
  }
  const [seq] = await rawRows<{ seq: number }>(store, sql`select seq from sqlite_sequence where name = 'audit_log'`);
  return Number(seq?.seq ?? 0);
}

/**
 * Makes the next append wait until this one commits: on PostgreSQL by writing the high-water row
 * (its row lock is held to the commit); SQLite's write transaction already holds the database's
 * write lock.
 */
async function lockLog(store: DataStore): Promise<void> {
  if (store.dialect !== 'postgres') return;
  const { db, tables: t } = store;
  await db.insert(t.settings).values({ key: HIGH_WATER, value: 0 }).onConflictDoNothing({ target: t.settings.key });
  await db.update(t.settings).set({ updatedAt: new Date().toISOString() }).where(eq(t.settings.key, HIGH_WATER));
}

/** Records `id`, just written, as the highest id given (SQLite's AUTOINCREMENT does it by itself). */
async function noteIdGiven(store: DataStore, id: number): Promise<void> {
  if (store.dialect !== 'postgres') return;
  const { db, tables: t } = store;
  await db.update(t.settings).set({ value: id }).where(eq(t.settings.key, HIGH_WATER));
}

/**
 * Appends an entry (in its own transaction, so the chain has no gaps; call it after the change it
 * records was written).
 * @param subject what it was done to, e.g. `user:12`, `funds:3,4`, `mapping:7`
 * @returns the entry
 */
export async function recordAudit(
  ctx: AppContext,
  actor: AuditActor | null,
  action: AuditAction,
  subject: string | null,
  details: Record<string, unknown> = {},
): Promise<AuditEntry> {
  return transaction(ctx, async () => {
    const store = storeOf(ctx);
    const { db, tables: t } = store;
    await lockLog(store);
    const [last] = await db.select({ id: t.auditLog.id, hash: t.auditLog.hash }).from(t.auditLog).orderBy(desc(t.auditLog.id)).limit(1);
    const id = Math.max(last?.id ?? 0, await highestIdGiven(store)) + 1;
    const row = {
      id,
      at: new Date().toISOString(),
      actorId: actor?.id ?? null,
      actorEmail: actor?.email ?? null,
      action,
      subject,
      details: JSON.stringify(details),
      prevHash: last?.hash ?? GENESIS,
    };
    const hash = entryHash(row);
    await db.insert(t.auditLog).values({ ...row, hash });
    await noteIdGiven(store, id);
    return { ...row, details, hash };
  });
}

/**
 * A page of entries, newest first.
 * @param opts.before only entries with a smaller id (the next page); `limit` 1-1000, default 100
 */
export async function listAuditLog(ctx: AppContext, opts: { before?: number; limit?: number } = {}): Promise<AuditEntry[]> {
  const { db, tables: t } = storeOf(ctx);
  const limit = Math.min(1000, Math.max(1, opts.limit ?? 100));
  const rows = await db
    .select()
    .from(t.auditLog)
    .where(opts.before ? lt(t.auditLog.id, opts.before) : undefined)
    .orderBy(desc(t.auditLog.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, details: JSON.parse(r.details) as Record<string, unknown> }));
}

/** Every stored entry, oldest first, read 1,000 at a time (`details` as stored text). */
async function* storedEntries(ctx: AppContext): AsyncGenerator<Omit<AuditEntry, 'details'> & { details: string }> {
  const { db, tables: t } = storeOf(ctx);
  let after = 0;
  for (;;) {
    const rows = await db.select().from(t.auditLog).where(gt(t.auditLog.id, after)).orderBy(asc(t.auditLog.id)).limit(1000);
    yield* rows;
    if (rows.length < 1000) return;
    after = rows[rows.length - 1]!.id;
  }
}

/** Every entry, oldest first, as JSON lines (the export). */
export async function* exportAuditLog(ctx: AppContext): AsyncGenerator<string> {
  for await (const r of storedEntries(ctx)) yield `${JSON.stringify({ ...r, details: JSON.parse(r.details) })}\n`;
}

/** The outcome of a verification. */
export interface AuditVerification {
  ok: boolean;
  entries: number;
  /** The problems found, each naming the entry. */
  problems: string[];
}

/**
 * Checks the chain: each entry's hash over its content and the previous entry's hash, ids without
 * gaps, and the last id against the highest id ever given (a removed newest entry).
 */
export async function verifyAuditLog(ctx: AppContext): Promise<AuditVerification> {
  const problems: string[] = [];
  let prev = GENESIS;
  let expectedId = 1;
  let entries = 0;
  for await (const r of storedEntries(ctx)) {
    entries++;
    const id = r.id;
    if (id !== expectedId) problems.push(`entries ${expectedId}${id - 1 > expectedId ? `-${id - 1}` : ''} are missing (removed)`);
    if (r.prevHash !== prev) problems.push(`entry ${id} does not follow the entry before it (an entry before it was changed or removed)`);
    if (entryHash(r) !== r.hash) problems.push(`entry ${id} was changed (its content does not match its hash)`);
    prev = r.hash;
    expectedId = id + 1;
  }
  const seq = await highestIdGiven(storeOf(ctx));
  if (seq >= expectedId) problems.push(`entries ${expectedId}${seq > expectedId ? `-${seq}` : ''} are missing (removed)`);
  return { ok: problems.length === 0, entries, problems };
}
