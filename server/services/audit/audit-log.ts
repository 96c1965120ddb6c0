/**
 * The security audit log: who signed in (or failed to), switched view, generated a key,
 * impersonated someone, changed a user or a role, deleted a mapping or funds. Entries are only
 * appended (the table refuses updates and deletes) and each carries the sha256 of the previous
 * entry's hash and its own content, so `verifyAuditLog` finds an entry that was edited or removed
 * (`fund-audit audit verify`). Read in the developer tools (`GET /dev-tools/audit-log`) and exported
 * as JSON lines (`fund-audit audit export`, `GET /dev-tools/audit-log/export`).
 */
import { createHash } from 'node:crypto';
import { desc, lt } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { auditLog } from '../../db/schema/index.js';

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
  | 'mapping-deleted'
  | 'fund-deleted';

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

/**
 * Appends an entry (in its own transaction, so the chain has no gaps; call it after the change it
 * records was written).
 * @param subject what it was done to, e.g. `user:12`, `funds:3,4`, `mapping:7`
 * @returns the entry
 */
export function recordAudit(
  ctx: AppContext,
  actor: AuditActor | null,
  action: AuditAction,
  subject: string | null,
  details: Record<string, unknown> = {},
): AuditEntry {
  const insert = ctx.sqlite.transaction(() => {
    const last = ctx.sqlite.prepare('select id, hash from audit_log order by id desc limit 1').get() as { id: number; hash: string } | undefined;
    const seq = ctx.sqlite.prepare("select seq from sqlite_sequence where name = 'audit_log'").get() as { seq: number } | undefined;
    const id = Math.max(last?.id ?? 0, seq?.seq ?? 0) + 1;
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
    ctx.db
      .insert(auditLog)
      .values({ ...row, hash })
      .run();
    return { ...row, details, hash };
  });
  return insert.immediate();
}

/**
 * A page of entries, newest first.
 * @param opts.before only entries with a smaller id (the next page); `limit` 1-1000, default 100
 */
export function listAuditLog(ctx: AppContext, opts: { before?: number; limit?: number } = {}): AuditEntry[] {
  const limit = Math.min(1000, Math.max(1, opts.limit ?? 100));
  const q = ctx.db.select().from(auditLog);
  const rows = (opts.before ? q.where(lt(auditLog.id, opts.before)) : q).orderBy(desc(auditLog.id)).limit(limit).all();
  return rows.map((r) => ({ ...r, details: JSON.parse(r.details) as Record<string, unknown> }));
}

/** Every entry, oldest first, as JSON lines (the export). */
export function* exportAuditLog(ctx: AppContext): Generator<string> {
  for (const r of ctx.sqlite.prepare('select * from audit_log order by id').iterate() as Iterable<Record<string, unknown>>) {
    yield `${JSON.stringify({
      id: r.id,
      at: r.at,
      actorId: r.actor_id,
      actorEmail: r.actor_email,
      action: r.action,
      subject: r.subject,
      details: JSON.parse(String(r.details)),
      prevHash: r.prev_hash,
      hash: r.hash,
    })}\n`;
  }
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
export function verifyAuditLog(ctx: AppContext): AuditVerification {
  const problems: string[] = [];
  let prev = GENESIS;
  let expectedId = 1;
  let entries = 0;
  for (const r of ctx.sqlite.prepare('select * from audit_log order by id').iterate() as Iterable<Record<string, unknown>>) {
    entries++;
    const id = Number(r.id);
    if (id !== expectedId) problems.push(`entries ${expectedId}${id - 1 > expectedId ? `-${id - 1}` : ''} are missing (removed)`);
    if (r.prev_hash !== prev) problems.push(`entry ${id} does not follow the entry before it (an entry before it was changed or removed)`);
    const hash = entryHash({
      id,
      at: String(r.at),
      actorId: (r.actor_id as number | null) ?? null,
      actorEmail: (r.actor_email as string | null) ?? null,
      action: String(r.action),
      subject: (r.subject as string | null) ?? null,
      details: String(r.details),
      prevHash: String(r.prev_hash),
    });
    if (hash !== r.hash) problems.push(`entry ${id} was changed (its content does not match its hash)`);
    prev = String(r.hash);
    expectedId = id + 1;
  }
  const seq = ctx.sqlite.prepare("select seq from sqlite_sequence where name = 'audit_log'").get() as { seq: number } | undefined;
  if (seq && seq.seq >= expectedId) problems.push(`entries ${expectedId}${seq.seq > expectedId ? `-${seq.seq}` : ''} are missing (removed)`);
  return { ok: problems.length === 0, entries, problems };
}
