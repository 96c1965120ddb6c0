/**
 * Delivery events (docs/scorecards.md, docs/decisions/0020-delivery-events-and-scorecards.md): the
 * dated facts TPA and client scorecards are computed from, appended where they happen and never
 * changed: a file received for a fund request (identification attached an input file), and the
 * outcome of a fund's checks (the calculations stage judged its current inputs). Chases have their
 * own history (`chase_events`, chasing.ts).
 */
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { bool, createdAt, id, json } from './common.js';
import { fundRequests } from './funds.js';

/** What a delivery event records: a file received, or a run of the checks over the fund's inputs. */
export const DELIVERY_EVENT_KINDS = ['received', 'checked'] as const;
export type DeliveryEventKind = (typeof DELIVERY_EVENT_KINDS)[number];

/** Where an event was written: by the pipeline as it happened, from rows kept before events were recorded, or by the demo data. */
export const DELIVERY_EVENT_SOURCES = ['pipeline', 'backfill', 'demo'] as const;
export type DeliveryEventSource = (typeof DELIVERY_EVENT_SOURCES)[number];

/** An input file the checks judged. */
export interface JudgedInput {
  fundFileId: number;
  fileType: string;
}

export const deliveryEvents = sqliteTable(
  'delivery_events',
  {
    id: id(),
    fundRequestId: integer('fund_request_id')
      .notNull()
      .references(() => fundRequests.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<DeliveryEventKind>().notNull(),
    /** ISO-8601 UTC timestamp of the fact. */
    at: text('at').notNull(),
    /** received: the SDM type of the file. */
    fileType: text('file_type'),
    /** received: the file (or sheet) as delivered. */
    fileName: text('file_name'),
    /** received: the fund's input file; checked: the calculation file written (both may be gone since). */
    fundFileId: integer('fund_file_id'),
    /** received: the import the file came in. */
    importFileId: integer('import_file_id'),
    /** checked: 'passed' (no check failed, every judged input Valid) or 'failed'. */
    outcome: text('outcome').$type<'passed' | 'failed'>(),
    /** checked: the checks that failed (QA_Rec check ids, 'unmapped_codes', 'row_errors'). */
    failedChecks: json<string[]>('failed_checks'),
    /** checked: the input files judged (those standardized when the checks ran). */
    inputs: json<JudgedInput[]>('inputs'),
    /** checked: the judged inputs covered every input type the fund required when the checks ran. */
    complete: bool('complete'),
    /** checked: every judged input was the first file received of its type for the fund. */
    firstDelivery: bool('first_delivery'),
    source: text('source').$type<DeliveryEventSource>().notNull().default('pipeline'),
    createdAt: createdAt(),
  },
  (t) => [
    // per fund and kind in time order: a fund's first arrival, count and newest file per type read from the index alone
    index('delivery_events_fund_idx').on(t.fundRequestId, t.kind, t.fileType, t.at, t.fundFileId),
    index('delivery_events_at_idx').on(t.at),
  ],
);

/**
 * What the recorded events say of each fund request, as the scorecards read it (docs/decisions/
 * 0020-delivery-events-and-scorecards.md): a cache of `eventFacts` over the request's events,
 * rewritten whole from them (never counted up). Triggers mark a request's row stale in the
 * transaction that records or removes one of its delivery or chase events, marks one of its
 * input files (not) required or removes one, or changes its job type (migration 0017);
 * scorecards compute stale and missing rows from the events themselves, and the refresher
 * (server/services/scorecards/refresh.ts) writes them back.
 */
export const scorecardFacts = sqliteTable(
  'scorecard_facts',
  {
    fundRequestId: integer('fund_request_id')
      .notNull()
      .references(() => fundRequests.id, { onDelete: 'cascade' }),
    /** an event or input of the request changed since the row was written */
    stale: bool('stale').notNull().default(true),
    /** how many times the row was marked stale: the refresher writes it back only if unchanged since it read it */
    mark: integer('mark').notNull().default(0),
    /** when the last required input type first arrived (ISO timestamp); null while one is missing */
    completedAt: text('completed_at'),
    reDeliveries: integer('re_deliveries').notNull().default(0),
    /** the first complete delivery's checks passed as first deliveries; null: not checked yet */
    firstTimeRight: bool('first_time_right'),
    chasesSent: integer('chases_sent').notNull().default(0),
    chasesOpen: integer('chases_open').notNull().default(0),
    /** days from first mail to answer of each answered chase */
    daysToAnswer: json<number[]>('days_to_answer'),
    refreshedAt: text('refreshed_at'),
  },
  (t) => [primaryKey({ columns: [t.fundRequestId] }), index('scorecard_facts_stale_idx').on(t.stale)],
);

/** Day counts of a tally as flat pairs, ascending: `[0, 5, 3, 2]` is five requests on time and two three days late. */
export type DayCounts = number[];

/**
 * The second level of the same cache (docs/decisions/0020-delivery-events-and-scorecards.md): per
 * TPA (`administrator_key`, 0 for requests without one), client and month of data due dates, the
 * tally of the requests a scorecard counts there (`tallyOf` in server/services/scorecards/
 * figures.ts), rewritten whole from their facts. Triggers mark a bucket stale when one of its
 * requests' facts is marked stale, and when a request is added, removed, or changes status, data
 * due date, TPA, client or parent (both the bucket it leaves and the one it joins); scorecards
 * compute stale buckets from the requests' facts, so a scorecard over 100,000 requests reads a few
 * thousand rows.
 */
export const scorecardTallies = sqliteTable(
  'scorecard_tallies',
  {
    administratorKey: integer('administrator_key').notNull(),
    client: text('client').notNull(),
    /** `YYYY-MM` of the data due dates */
    month: text('month').notNull(),
    stale: bool('stale').notNull().default(true),
    /** how many times the row was marked stale (see `scorecardFacts.mark`) */
    mark: integer('mark').notNull().default(0),
    requests: integer('requests').notNull().default(0),
    /** complete requests by whole days late (0: on time) */
    completedLate: json<DayCounts>('completed_late'),
    /** requests with a required file still missing, by day of the month of their data due date */
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
