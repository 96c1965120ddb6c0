/**
 * Generated from `server/db/schema/adjustments.ts` by `npm run db:generate` (server/db/pg-schema/generate.ts):
 * the same tables in drizzle's pg-core. Change the SQLite description (and
 * server/db/pg-schema/differences.ts), not this file.
 */
import { boolean, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import type * as s from '../schema/adjustments.js';
import { type Data, isoNow } from './common.js';
import { fundRequests } from './funds.js';
import { users } from './users.js';

export const adjustments = pgTable(
  'adjustments',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    fundRequestId: integer('fund_request_id')
      .notNull()
      .references(() => fundRequests.id, { onDelete: 'cascade' }),
    type: text('type').$type<Data<typeof s.adjustments.type>>().notNull(),
    description: text('description').$type<Data<typeof s.adjustments.description>>().notNull(),
    bookedByTpa: boolean('booked_by_tpa').notNull().default(false),
    lines: jsonb('lines').$type<Data<typeof s.adjustments.lines>>().notNull(),
    authorId: integer('author_id').references(() => users.id),
    author: text('author').$type<Data<typeof s.adjustments.author>>().notNull(),
    createdAt: text('created_at').$type<Data<typeof s.adjustments.createdAt>>().notNull().default(isoNow),
    updatedAt: text('updated_at').$type<Data<typeof s.adjustments.updatedAt>>().notNull().default(isoNow),
  },
  (t) => [index('adjustments_fund_idx').on(t.fundRequestId)],
);
