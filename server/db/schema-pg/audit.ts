/** The security audit log (PostgreSQL); see `server/db/schema/audit.ts`. Append-only triggers are in a custom migration. */
import { integer, pgTable, text } from 'drizzle-orm/pg-core';

export const auditLog = pgTable('audit_log', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  at: text('at').notNull(),
  actorId: integer('actor_id'),
  actorEmail: text('actor_email'),
  action: text('action').notNull(),
  subject: text('subject'),
  /** JSON object with the entry's details (text, so its hash is over the exact bytes written). */
  details: text('details').notNull(),
  prevHash: text('prev_hash').notNull(),
  hash: text('hash').notNull().unique(),
});
