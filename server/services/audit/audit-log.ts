/**
 * The security audit log: who signed in (or failed to), switched view, generated a key,
 * impersonated someone, changed a user or a role, deleted a mapping or funds. Entries are only
 * appended (the table refuses updates and deletes) and each carries a keyed hash (HMAC-SHA256,
 * `hmac-sha256:<hex>`) of the previous entry's hash and its own content, with a key kept outside
 * the database (audit-key.ts), so `verifyAuditLog` finds an entry that was edited, inserted or
 * removed even by someone who can write to the database (`fund-audit audit verify`).
 *
 * Entries written before the log was keyed carry a plain sha256 (64 hex digits) and still verify
 * as such; the first start with a key appends an `audit-log-keyed` entry whose keyed hash covers
 * the last of them, so the unkeyed beginning cannot be rewritten either. After a keyed entry every
 * entry must be keyed. A log cut short is found by the highest id ever given and, should that
 * have been reset too, by the head this node last wrote outside the database (audit-key.ts). Read in the developer tools (`GET /dev-tools/audit-log`) and exported
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
import { afterCommit, transaction } from '../../db/tx.js';
import { auditKey, KEY_FILE, keyedDigest, keyFingerprint, readHead, writeHead } from './audit-key.js';

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
  | 'chase-run'
  | 'audit-log-keyed';

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

/** How a keyed hash starts. */
export const KEYED = 'hmac-sha256:';

type StoredEntry = Omit<AuditEntry, 'hash' | 'details'> & { details: string };

const hashedText = (e: StoredEntry) => `${e.prevHash}\n${JSON.stringify([e.id, e.at, e.actorId, e.actorEmail, e.action, e.subject, e.details])}`;

/**
 * The hash of an entry over the previous hash and the entry's fields, in a fixed order: with a key
 * `hmac-sha256:<HMAC-SHA256 hex>` (every entry written now), without one the plain sha256 hex of
 * entries written before the log was keyed.
 */
export function entryHash(e: StoredEntry, key?: Buffer): string {
  return key ? `${KEYED}${keyedDigest(key, hashedText(e))}` : createHash('sha256').update(hashedText(e)).digest('hex');
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
    const hash = entryHash(row, auditKey(ctx.config));
    await db.insert(t.auditLog).values({ ...row, hash });
    await noteIdGiven(store, id);
    afterCommit(ctx, () => {
      try {
        writeHead(ctx.config.dataDir, { id, hash });
      } catch (err) {
        ctx.log.warn({ err }, 'the audit log head could not be written to the data directory');
      }
    });
    return { ...row, details, hash };
  });
}

/**
 * At start: when the newest entry is not keyed (written before the log was keyed), appends an
 * `audit-log-keyed` entry whose keyed hash covers it, noting how many unkeyed entries there are
 * and whether their chain was intact then.
 * @returns the entry appended, or null when there was nothing to seal
 */
export async function sealUnkeyedAuditLog(ctx: AppContext): Promise<AuditEntry | null> {
  const { db, tables: t } = storeOf(ctx);
  const [last] = await db.select({ id: t.auditLog.id, hash: t.auditLog.hash }).from(t.auditLog).orderBy(desc(t.auditLog.id)).limit(1);
  if (!last || last.hash.startsWith(KEYED)) return null;
  const before = await verifyAuditLog(ctx, { unkeyedOnly: true });
  return recordAudit(ctx, null, 'audit-log-keyed', 'audit-log', { unkeyedEntries: before.entries, unkeyedIntact: before.ok, problems: before.problems });
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

/** Most problems a verification lists; the count of the others ends the list. */
const MAX_PROBLEMS = 200;

/**
 * Checks the chain: each entry's hash over its content and the previous entry's hash (keyed with
 * this node's key; plain sha256 for the unkeyed entries at the beginning), no unkeyed entry after
 * a keyed one, a keyed newest entry, ids without gaps, the last id against the highest id ever
 * given, and the head this node last wrote (a log cut short).
 * @param opts.unkeyedOnly check only the unkeyed entries at the beginning (the seal at start)
 */
export async function verifyAuditLog(ctx: AppContext, opts: { unkeyedOnly?: boolean } = {}): Promise<AuditVerification> {
  const problems: string[] = [];
  const key = auditKey(ctx.config);
  const head = opts.unkeyedOnly ? null : readHead(ctx.config.dataDir);
  let prev = GENESIS;
  let expectedId = 1;
  let entries = 0;
  let keyed = 0;
  let keyedMatching = 0;
  let lastKeyed = false;
  let headSeen = false;
  for await (const r of storedEntries(ctx)) {
    const id = r.id;
    lastKeyed = r.hash.startsWith(KEYED);
    if (opts.unkeyedOnly && lastKeyed) break;
    entries++;
    if (id !== expectedId) problems.push(`entries ${expectedId}${id - 1 > expectedId ? `-${id - 1}` : ''} are missing (removed)`);
    if (r.prevHash !== prev) problems.push(`entry ${id} does not follow the entry before it (an entry before it was changed or removed)`);
    if (lastKeyed) {
      keyed++;
      if (entryHash(r, key) === r.hash) keyedMatching++;
      else problems.push(`entry ${id} was changed (its content does not match its hash)`);
    } else if (keyed) problems.push(`entry ${id} is not keyed although entries before it are (it was written or rewritten without the key)`);
    else if (entryHash(r) !== r.hash) problems.push(`entry ${id} was changed (its content does not match its hash)`);
    if (head && id === head.id) {
      headSeen = true;
      if (r.hash !== head.hash) problems.push(`entry ${id} is not the entry this node wrote with that id (it was replaced)`);
    }
    prev = r.hash;
    expectedId = id + 1;
  }
  if (!opts.unkeyedOnly) {
    if (entries && !lastKeyed)
      problems.push(
        `the newest entry (${expectedId - 1}) is not keyed: the log was rewritten without the key, or the server has not started since the log became keyed`,
      );
    if (keyed && !keyedMatching)
      problems.push(
        `no keyed entry matches this node's audit-log key (fingerprint ${keyFingerprint(key)}): if the log is intact, this is not the key it was written with (auditLogKey or ${KEY_FILE})`,
      );
    const seq = await highestIdGiven(storeOf(ctx));
    if (seq >= expectedId) problems.push(`entries ${expectedId}${seq > expectedId ? `-${seq}` : ''} are missing (removed)`);
    else if (head && !headSeen && head.id >= expectedId)
      problems.push(`entries ${expectedId}${head.id > expectedId ? `-${head.id}` : ''} are missing (removed: this node wrote entry ${head.id})`);
  }
  const shown =
    problems.length > MAX_PROBLEMS ? [...problems.slice(0, MAX_PROBLEMS - 1), `... and ${problems.length - MAX_PROBLEMS + 1} more problems`] : problems;
  return { ok: problems.length === 0, entries, problems: shown };
}
