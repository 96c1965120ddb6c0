/** Delivery events (PostgreSQL); see `server/db/schema/deliveries.ts`. */
import { index, integer, primaryKey, pgTable, text } from 'drizzle-orm/pg-core';
import type { DayCounts, DeliveryEventKind, DeliveryEventSource, JudgedInput } from '../schema/deliveries.js';
import { bool, createdAt, id, json } from './common.js';
import { fundRequests } from './funds.js';

export const deliveryEvents = pgTable(
  'delivery_events',
  {
    id: id(),
    fundRequestId: integer('fund_request_id')
      .notNull()
      .references(() => fundRequests.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<DeliveryEventKind>().notNull(),
    at: text('at').notNull(),
    fileType: text('file_type'),
    fileName: text('file_name'),
    fundFileId: integer('fund_file_id'),
    importFileId: integer('import_file_id'),
    outcome: text('outcome').$type<'passed' | 'failed'>(),
    failedChecks: json<string[]>('failed_checks'),
    inputs: json<JudgedInput[]>('inputs'),
    complete: bool('complete'),
    firstDelivery: bool('first_delivery'),
    source: text('source').$type<DeliveryEventSource>().notNull().default('pipeline'),
    createdAt: createdAt(),
  },
  (t) => [index('delivery_events_fund_idx').on(t.fundRequestId, t.kind, t.fileType, t.at, t.fundFileId), index('delivery_events_at_idx').on(t.at)],
);

/** Scorecard facts of each fund request (PostgreSQL); see `server/db/schema/deliveries.ts`. */
export const scorecardFacts = pgTable(
  'scorecard_facts',
  {
    fundRequestId: integer('fund_request_id')
      .notNull()
      .references(() => fundRequests.id, { onDelete: 'cascade' }),
    stale: bool('stale').notNull().default(true),
    mark: integer('mark').notNull().default(0),
    completedAt: text('completed_at'),
    reDeliveries: integer('re_deliveries').notNull().default(0),
    firstTimeRight: bool('first_time_right'),
    chasesSent: integer('chases_sent').notNull().default(0),
    chasesOpen: integer('chases_open').notNull().default(0),
    daysToAnswer: json<number[]>('days_to_answer'),
    refreshedAt: text('refreshed_at'),
  },
  (t) => [primaryKey({ columns: [t.fundRequestId] }), index('scorecard_facts_stale_idx').on(t.stale)],
);

/** Scorecard tallies per TPA, client and month (PostgreSQL); see `server/db/schema/deliveries.ts`. */
export const scorecardTallies = pgTable(
  'scorecard_tallies',
  {
    administratorKey: integer('administrator_key').notNull(),
    client: text('client').notNull(),
    month: text('month').notNull(),
    stale: bool('stale').notNull().default(true),
    mark: integer('mark').notNull().default(0),
    requests: integer('requests').notNull().default(0),
    completedLate: json<DayCounts>('completed_late'),
    openDue: json<DayCounts>('open_due'),
    checked: integer('checked').notNull().default(0),
    firstTimeRight: integer('first_time_right').notNull().default(0),
    reDeliveries: integer('re_deliveries').notNull().default(0),
    chasesSent: integer('chases_sent').notNull().default(0),
    chasesOpen: integer('chases_open').notNull().default(0),
    daysToAnswer: json<number[]>('days_to_answer'),
    refreshedAt: text('refreshed_at'),
  },
  (t) => [
    primaryKey({ columns: [t.administratorKey, t.client, t.month] }),
    index('scorecard_tallies_month_idx').on(t.month),
    index('scorecard_tallies_stale_idx').on(t.stale),
  ],
);
