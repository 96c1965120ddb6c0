/**
 * The security audit log: append-only entries (sign-ins and failures, view switches, key
 * generation, impersonation, user and role changes, mapping and fund deletions), each carrying the
 * hash of the previous one, so an edited or deleted entry breaks the chain
 * (`server/services/audit/audit-log.ts`).
 */
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const auditLog = sqliteTable('audit_log', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  at: text('at').notNull(),
  actorId: integer('actor_id'),
  actorEmail: text('actor_email'),
  action: text('action').notNull(),
  subject: text('subject'),
  /** JSON object with the entry's details (text in both databases, so its hash is over the exact bytes written). */
  details: text('details').notNull(),
  prevHash: text('prev_hash').notNull(),
  hash: text('hash').notNull().unique(),
});
