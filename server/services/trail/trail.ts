/**
 * The immutable audit trail (DOMAIN.md section 5): every status change, edit and file action is
 * written as (user, date, action, before, after). Rows are only ever inserted.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';

export interface TrailEntry {
  fundRequestId: number | null;
  userId: number | null;
  /** e.g. 'create', 'update', 'approve', 'bulk-upload', 'file-review' */
  action: string;
  before?: unknown;
  after?: unknown;
}

/** The row of a trail entry. */
const trailRow = (e: TrailEntry) => ({
  fundRequestId: e.fundRequestId,
  userId: e.userId,
  action: e.action,
  before: e.before ?? null,
  after: e.after ?? null,
});

/**
 * Appends trail entries in one statement; inside a `transaction` of the context, in that
 * transaction (so they are rolled back with the change they record).
 */
export async function writeTrail(ctx: AppContext, entries: TrailEntry | TrailEntry[]): Promise<void> {
  const list = Array.isArray(entries) ? entries : [entries];
  if (!list.length) return;
  const { db, tables: t } = storeOf(ctx);
  await db.insert(t.trail).values(list.map(trailRow));
}
