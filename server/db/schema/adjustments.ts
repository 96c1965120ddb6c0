/**
 * Audit adjustments of a fund (docs/decisions/0012-audit-adjustments.md): one row per proposed
 * journal, its lines as JSON (`[{account, target, securityId, amount, description}]`, amounts in
 * fund currency), whether the TPA booked it, who made it and when. Every change is also written to
 * the fund's trail.
 */
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { AdjustmentLineInput, AdjustmentType } from '../../../rules/adjustments.js';
import { bool, createdAt, id, json, updatedAt } from './common.js';
import { fundRequests } from './funds.js';
import { users } from './users.js';

export const adjustments = sqliteTable(
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
