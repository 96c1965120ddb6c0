/** Audit adjustments of a fund (PostgreSQL); see `server/db/schema/adjustments.ts`. */
import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import type { AdjustmentLineInput, AdjustmentType } from '../../../rules/adjustments.js';
import { bool, createdAt, id, json, updatedAt } from './common.js';
import { fundRequests } from './funds.js';
import { users } from './users.js';

export const adjustments = pgTable(
  'adjustments',
  {
    id: id(),
    fundRequestId: integer('fund_request_id')
      .notNull()
      .references(() => fundRequests.id, { onDelete: 'cascade' }),
    type: text('type').$type<AdjustmentType>().notNull(),
    description: text('description').notNull(),
    bookedByTpa: bool('booked_by_tpa').notNull().default(false),
    lines: json<AdjustmentLineInput[]>('lines').notNull(),
    authorId: integer('author_id').references(() => users.id),
    /** The author's name when the adjustment was made. */
    author: text('author').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('adjustments_fund_idx').on(t.fundRequestId)],
);
