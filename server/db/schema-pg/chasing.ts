/**
 * Generated from `server/db/schema/chasing.ts` by `npm run db:generate` (server/db/pg-schema/generate.ts):
 * the same tables in drizzle's pg-core. Change the SQLite description (and
 * server/db/pg-schema/differences.ts), not this file.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type * as s from '../schema/chasing.js';
import { type Data, isoNow } from './common.js';
import { fundFiles } from './files.js';
import { fundRequests } from './funds.js';
import { administrators } from './reference.js';
import { users } from './users.js';

export const contacts = pgTable(
  'contacts',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    administratorId: integer('administrator_id').references(() => administrators.id, { onDelete: 'cascade' }),
    client: text('client').$type<Data<typeof s.contacts.client>>(),
    fullName: text('full_name').$type<Data<typeof s.contacts.fullName>>().notNull().default(''),
    email: text('email').$type<Data<typeof s.contacts.email>>().notNull(),
    role: text('role').$type<Data<typeof s.contacts.role>>().notNull(),
    timeZone: text('time_zone').$type<Data<typeof s.contacts.timeZone>>(),
    source: text('source').$type<Data<typeof s.contacts.source>>().notNull().default('manual'),
    createdById: integer('created_by_id').references(() => users.id),
    createdAt: text('created_at').$type<Data<typeof s.contacts.createdAt>>().notNull().default(isoNow),
    updatedAt: text('updated_at').$type<Data<typeof s.contacts.updatedAt>>().notNull().default(isoNow),
  },
  (t) => [index('contacts_admin_idx').on(t.administratorId), index('contacts_client_idx').on(t.client), index('contacts_email_idx').on(t.email)],
);

export const chaseSchedules = pgTable('chase_schedules', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  administratorId: integer('administrator_id')
    .notNull()
    .unique()
    .references(() => administrators.id, { onDelete: 'cascade' }),
  offsets: jsonb('offsets').$type<Data<typeof s.chaseSchedules.offsets>>().notNull(),
  escalateFrom: integer('escalate_from').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  updatedById: integer('updated_by_id').references(() => users.id),
  updatedAt: text('updated_at').$type<Data<typeof s.chaseSchedules.updatedAt>>().notNull().default(isoNow),
});

export const chases = pgTable(
  'chases',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    fundRequestId: integer('fund_request_id')
      .notNull()
      .references(() => fundRequests.id, { onDelete: 'cascade' }),
    administratorId: integer('administrator_id').references(() => administrators.id),
    client: text('client').$type<Data<typeof s.chases.client>>(),
    reason: text('reason').$type<Data<typeof s.chases.reason>>().notNull(),
    key: text('key').$type<Data<typeof s.chases.key>>().notNull(),
    state: text('state').$type<Data<typeof s.chases.state>>().notNull().default('scheduled'),
    fundFileId: integer('fund_file_id').references(() => fundFiles.id, { onDelete: 'set null' }),
    message: text('message').$type<Data<typeof s.chases.message>>().notNull().default(''),
    evidence: jsonb('evidence').$type<Data<typeof s.chases.evidence>>().notNull(),
    evidenceBlobKey: text('evidence_blob_key').$type<Data<typeof s.chases.evidenceBlobKey>>(),
    recipients: jsonb('recipients').$type<Data<typeof s.chases.recipients>>().notNull(),
    remindersSent: integer('reminders_sent').notNull().default(0),
    nextReminderOn: text('next_reminder_on').$type<Data<typeof s.chases.nextReminderOn>>(),
    lastSentAt: text('last_sent_at').$type<Data<typeof s.chases.lastSentAt>>(),
    answeredAt: text('answered_at').$type<Data<typeof s.chases.answeredAt>>(),
    closedAt: text('closed_at').$type<Data<typeof s.chases.closedAt>>(),
    createdById: integer('created_by_id').references(() => users.id),
    createdAt: text('created_at').$type<Data<typeof s.chases.createdAt>>().notNull().default(isoNow),
    updatedAt: text('updated_at').$type<Data<typeof s.chases.updatedAt>>().notNull().default(isoNow),
  },
  (t) => [
    index('chases_fund_idx').on(t.fundRequestId, t.state),
    index('chases_state_next_idx').on(t.state, t.nextReminderOn),
    index('chases_admin_idx').on(t.administratorId, t.state),
    uniqueIndex('chases_open_key_unique').on(t.fundRequestId, t.key).where(sql`state in ('scheduled', 'sent', 'answered')`),
  ],
);

export const chaseEvents = pgTable(
  'chase_events',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    chaseId: integer('chase_id')
      .notNull()
      .references(() => chases.id, { onDelete: 'cascade' }),
    fundRequestId: integer('fund_request_id').notNull(),
    administratorId: integer('administrator_id'),
    client: text('client').$type<Data<typeof s.chaseEvents.client>>(),
    reason: text('reason').$type<Data<typeof s.chaseEvents.reason>>().notNull(),
    state: text('state').$type<Data<typeof s.chaseEvents.state>>().notNull(),
    at: text('at').$type<Data<typeof s.chaseEvents.at>>().notNull(),
    actorId: integer('actor_id').references(() => users.id),
    actor: text('actor').$type<Data<typeof s.chaseEvents.actor>>().notNull(),
    note: text('note').$type<Data<typeof s.chaseEvents.note>>().notNull().default(''),
    details: jsonb('details').$type<Data<typeof s.chaseEvents.details>>(),
  },
  (t) => [
    index('chase_events_at_idx').on(t.at),
    index('chase_events_chase_idx').on(t.chaseId, t.at),
    index('chase_events_fund_idx').on(t.fundRequestId, t.at),
    index('chase_events_admin_idx').on(t.administratorId, t.at),
  ],
);

export const chaseRuns = pgTable(
  'chase_runs',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    asOf: text('as_of').$type<Data<typeof s.chaseRuns.asOf>>().notNull(),
    status: text('status').$type<Data<typeof s.chaseRuns.status>>().notNull().default('running'),
    trigger: text('trigger').$type<Data<typeof s.chaseRuns.trigger>>().notNull(),
    counts: jsonb('counts').$type<Data<typeof s.chaseRuns.counts>>(),
    error: text('error').$type<Data<typeof s.chaseRuns.error>>(),
    startedAt: text('created_at').$type<Data<typeof s.chaseRuns.startedAt>>().notNull().default(isoNow),
    finishedAt: text('finished_at').$type<Data<typeof s.chaseRuns.finishedAt>>(),
    createdById: integer('created_by_id').references(() => users.id),
  },
  (t) => [index('chase_runs_started_idx').on(t.startedAt)],
);

export const chaseMails = pgTable(
  'chase_mails',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    runId: integer('run_id')
      .notNull()
      .references(() => chaseRuns.id, { onDelete: 'cascade' }),
    idempotencyKey: text('idempotency_key').$type<Data<typeof s.chaseMails.idempotencyKey>>().notNull().unique(),
    toEmail: text('to_email').$type<Data<typeof s.chaseMails.toEmail>>().notNull(),
    toName: text('to_name').$type<Data<typeof s.chaseMails.toName>>().notNull().default(''),
    timeZone: text('time_zone').$type<Data<typeof s.chaseMails.timeZone>>(),
    chaseIds: jsonb('chase_ids').$type<Data<typeof s.chaseMails.chaseIds>>().notNull(),
    subject: text('subject').$type<Data<typeof s.chaseMails.subject>>().notNull(),
    text: text('text').$type<Data<typeof s.chaseMails.text>>().notNull(),
    html: text('html').$type<Data<typeof s.chaseMails.html>>().notNull(),
    attachments: jsonb('attachments').$type<Data<typeof s.chaseMails.attachments>>().notNull(),
    status: text('status').$type<Data<typeof s.chaseMails.status>>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: bigint('next_attempt_at', { mode: 'number' }).notNull().default(0),
    lastError: text('last_error').$type<Data<typeof s.chaseMails.lastError>>(),
    messageId: text('message_id').$type<Data<typeof s.chaseMails.messageId>>().notNull(),
    sentAt: text('sent_at').$type<Data<typeof s.chaseMails.sentAt>>(),
    createdAt: text('created_at').$type<Data<typeof s.chaseMails.createdAt>>().notNull().default(isoNow),
  },
  (t) => [index('chase_mails_status_idx').on(t.status, t.nextAttemptAt), index('chase_mails_run_idx').on(t.runId)],
);

export const chaseNotices = pgTable(
  'chase_notices',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    chaseId: integer('chase_id')
      .notNull()
      .references(() => chases.id, { onDelete: 'cascade' }),
    runId: integer('run_id')
      .notNull()
      .references(() => chaseRuns.id, { onDelete: 'cascade' }),
    mailId: integer('mail_id')
      .notNull()
      .references(() => chaseMails.id, { onDelete: 'cascade' }),
    toEmail: text('to_email').$type<Data<typeof s.chaseNotices.toEmail>>().notNull(),
    createdAt: text('created_at').$type<Data<typeof s.chaseNotices.createdAt>>().notNull().default(isoNow),
  },
  (t) => [uniqueIndex('chase_notices_unique').on(t.chaseId, t.runId, t.toEmail), index('chase_notices_mail_idx').on(t.mailId)],
);
