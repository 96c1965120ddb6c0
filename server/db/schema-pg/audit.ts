/**
 * Generated from `server/db/schema/audit.ts` by `npm run db:generate` (server/db/pg-schema/generate.ts):
 * the same tables in drizzle's pg-core. Change the SQLite description (and
 * server/db/pg-schema/differences.ts), not this file.
 */
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import type * as s from '../schema/audit.js';
import { type Data } from './common.js';

export const auditLog = pgTable('audit_log', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  at: text('at').$type<Data<typeof s.auditLog.at>>().notNull(),
  actorId: integer('actor_id'),
  actorEmail: text('actor_email').$type<Data<typeof s.auditLog.actorEmail>>(),
  action: text('action').$type<Data<typeof s.auditLog.action>>().notNull(),
  subject: text('subject').$type<Data<typeof s.auditLog.subject>>(),
  details: text('details').$type<Data<typeof s.auditLog.details>>().notNull(),
  prevHash: text('prev_hash').$type<Data<typeof s.auditLog.prevHash>>().notNull(),
  hash: text('hash').$type<Data<typeof s.auditLog.hash>>().notNull().unique(),
});
