/**
 * The immutable audit trail (DOMAIN.md section 5): every status change, edit and file action is
 * written as (user, date, action, before, after). Rows are only ever inserted.
 */
import type { AppContext } from '../../context.js';
import { trail } from '../../db/schema/index.js';

/** A database handle or transaction of one. */
export type Tx = Pick<AppContext['db'], 'insert' | 'select' | 'update' | 'delete'>;

export interface TrailEntry {
  fundRequestId: number | null;
  userId: number | null;
  /** e.g. 'create', 'update', 'approve', 'bulk-upload', 'file-review' */
  action: string;
  before?: unknown;
  after?: unknown;
}

/** Appends trail entries (inside the caller's transaction when one is given). */
export function writeTrail(tx: Tx, entries: TrailEntry | TrailEntry[]): void {
  const list = Array.isArray(entries) ? entries : [entries];
  if (!list.length) return;
  tx.insert(trail)
    .values(list.map((e) => ({ fundRequestId: e.fundRequestId, userId: e.userId, action: e.action, before: e.before ?? null, after: e.after ?? null })))
    .run();
}
