/**
 * Generated from `server/db/schema/deliveries.ts` by `npm run db:generate` (server/db/pg-schema/generate.ts):
 * the same tables in drizzle's pg-core. Change the SQLite description (and
 * server/db/pg-schema/differences.ts), not this file.
 */
import { boolean, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import type * as s from '../schema/deliveries.js';
import { type Data, isoNow } from './common.js';
import { fundRequests } from './funds.js';

export const deliveryEvents = pgTable(
  'delivery_events',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    fundRequestId: integer('fund_request_id')
      .notNull()
      .references(() => fundRequests.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<Data<typeof s.deliveryEvents.kind>>().notNull(),
    at: text('at').$type<Data<typeof s.deliveryEvents.at>>().notNull(),
    fileType: text('file_type').$type<Data<typeof s.deliveryEvents.fileType>>(),
    fileName: text('file_name').$type<Data<typeof s.deliveryEvents.fileName>>(),
    fundFileId: integer('fund_file_id'),
    importFileId: integer('import_file_id'),
    outcome: text('outcome').$type<Data<typeof s.deliveryEvents.outcome>>(),
    failedChecks: jsonb('failed_checks').$type<Data<typeof s.deliveryEvents.failedChecks>>(),
    inputs: jsonb('inputs').$type<Data<typeof s.deliveryEvents.inputs>>(),
    complete: boolean('complete'),
    firstDelivery: boolean('first_delivery'),
    source: text('source').$type<Data<typeof s.deliveryEvents.source>>().notNull().default('pipeline'),
    createdAt: text('created_at').$type<Data<typeof s.deliveryEvents.createdAt>>().notNull().default(isoNow),
  },
  (t) => [index('delivery_events_fund_idx').on(t.fundRequestId, t.kind, t.fileType, t.at, t.fundFileId), index('delivery_events_at_idx').on(t.at)],
);

export const scorecardFacts = pgTable(
  'scorecard_facts',
  {
    fundRequestId: integer('fund_request_id')
      .notNull()
      .references(() => fundRequests.id, { onDelete: 'cascade' }),
    stale: boolean('stale').notNull().default(true),
    mark: integer('mark').notNull().default(0),
    completedAt: text('completed_at').$type<Data<typeof s.scorecardFacts.completedAt>>(),
    reDeliveries: integer('re_deliveries').notNull().default(0),
    firstTimeRight: boolean('first_time_right'),
    chasesSent: integer('chases_sent').notNull().default(0),
    chasesOpen: integer('chases_open').notNull().default(0),
    daysToAnswer: jsonb('days_to_answer').$type<Data<typeof s.scorecardFacts.daysToAnswer>>(),
    refreshedAt: text('refreshed_at').$type<Data<typeof s.scorecardFacts.refreshedAt>>(),
  },
  (t) => [primaryKey({ columns: [t.fundRequestId] }), index('scorecard_facts_stale_idx').on(t.stale)],
);

export const scorecardTallies = pgTable(
  'scorecard_tallies',
  {
    administratorKey: integer('administrator_key').notNull(),
    client: text('client').$type<Data<typeof s.scorecardTallies.client>>().notNull(),
    month: text('month').$type<Data<typeof s.scorecardTallies.month>>().notNull(),
    stale: boolean('stale').notNull().default(true),
    mark: integer('mark').notNull().default(0),
    requests: integer('requests').notNull().default(0),
    completedLate: jsonb('completed_late').$type<Data<typeof s.scorecardTallies.completedLate>>(),
    openDue: jsonb('open_due').$type<Data<typeof s.scorecardTallies.openDue>>(),
    checked: integer('checked').notNull().default(0),
    firstTimeRight: integer('first_time_right').notNull().default(0),
    reDeliveries: integer('re_deliveries').notNull().default(0),
    chasesSent: integer('chases_sent').notNull().default(0),
    chasesOpen: integer('chases_open').notNull().default(0),
    daysToAnswer: jsonb('days_to_answer').$type<Data<typeof s.scorecardTallies.daysToAnswer>>(),
    refreshedAt: text('refreshed_at').$type<Data<typeof s.scorecardTallies.refreshedAt>>(),
  },
  (t) => [
    primaryKey({ columns: [t.administratorKey, t.client, t.month] }),
    index('scorecard_tallies_month_idx').on(t.month),
    index('scorecard_tallies_stale_idx').on(t.stale),
  ],
);
