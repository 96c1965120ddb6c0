/**
 * Chasing (docs/chasing.md, docs/decisions/0015-chasing.md): the contacts of TPAs and clients, the
 * per-TPA reminder schedules, the chases themselves, every state change of a chase as a row
 * (`chase_events`, what scorecards read), the chase runs, and the outbox of digest mails with the
 * notices that tie each chase to the mail of a run (one per chase, run and recipient: the
 * idempotency key that keeps a retried run from mailing twice).
 *
 * Contacts are the standing address book of a TPA (`administrator_id`) or of a client (`client`,
 * the fund requests' free-text client name); a fund's own `recipients` (funds.ts) stay per fund,
 * and those with the TPA Contact or Client Contact role are chased as data contacts of that fund.
 */
import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { ChaseReason, ChaseState, ContactRole } from '../../../rules/chasing.js';
import { bool, createdAt, id, json, updatedAt } from './common.js';
import { fundFiles } from './files.js';
import { fundRequests } from './funds.js';
import { administrators } from './reference.js';
import { users } from './users.js';

/** A contact of a TPA (administrator_id set) or of a client (client set): who chases go to. */
export const contacts = sqliteTable(
  'contacts',
  {
    id: id(),
    administratorId: integer('administrator_id').references(() => administrators.id, { onDelete: 'cascade' }),
    client: text('client'),
    fullName: text('full_name').notNull().default(''),
    email: text('email').notNull(),
    role: text('role').$type<ContactRole>().notNull(),
    /** IANA time zone (e.g. Europe/Luxembourg) the contact's mails show times in; null: UTC. */
    timeZone: text('time_zone'),
    /** Where the contact came from: 'manual' (UI, API, CLI), 'bulk-upload', 'demo'. */
    source: text('source').notNull().default('manual'),
    createdById: integer('created_by_id').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('contacts_admin_idx').on(t.administratorId), index('contacts_client_idx').on(t.client), index('contacts_email_idx').on(t.email)],
);

/** A TPA's own reminder schedule for missing files, overriding the install's (`chaseOffsets`, `chaseEscalateFrom`). */
export const chaseSchedules = sqliteTable('chase_schedules', {
  id: id(),
  administratorId: integer('administrator_id')
    .notNull()
    .unique()
    .references(() => administrators.id, { onDelete: 'cascade' }),
  /** Days relative to the data due date (negative: before), ascending. */
  offsets: json<number[]>('offsets').notNull(),
  /** From which late reminder (1 = first after the due date) escalation contacts are copied in. */
  escalateFrom: integer('escalate_from').notNull(),
  /** false: this TPA is not chased at all. */
  enabled: bool('enabled').notNull().default(true),
  updatedById: integer('updated_by_id').references(() => users.id),
  updatedAt: updatedAt(),
});

/** One recipient of a chase as it was resolved at the last run. */
export interface ChaseRecipient {
  email: string;
  name: string;
  role: ContactRole;
  timeZone: string | null;
  /** Where the address came from: 'tpa', 'client' or 'fund' (the fund's recipients). */
  from: 'tpa' | 'client' | 'fund';
}

/** One figure of a chase's evidence: what was expected, what was delivered and the difference (fund currency). */
export interface ChaseFigure {
  label: string;
  expected: number | null;
  delivered: number | null;
  difference: number | null;
  currency: string | null;
}

/** What a chase shows as its evidence (the failing rows themselves are the CSV at `evidence_blob_key`). */
export interface ChaseEvidence {
  /** Missing files: the SDM types still missing. */
  missingTypes?: string[];
  /** Failed check: the check id (QA_Rec check, or 'unmapped_codes') and its label. */
  check?: string;
  checkLabel?: string;
  figures?: ChaseFigure[];
  /** Failing items of the check, first ones (name, message, file, line). */
  items?: Array<{ name: string; message: string; file?: string; line?: number }>;
  /** How many failing rows the CSV holds. */
  rowCount?: number;
  /** The file the evidence is about (a returned file, or the delivery that failed). */
  fileName?: string;
  /** The SDM type of a returned file. */
  fileType?: string;
}

/**
 * A chase: a durable request to a TPA (or client) about one fund request. `key` tells the chases
 * of a fund apart (`missing_files`, `failed_check:<check>`, `returned:<file id or fund>`): one
 * fund has at most one open chase per key.
 */
export const chases = sqliteTable(
  'chases',
  {
    id: id(),
    fundRequestId: integer('fund_request_id')
      .notNull()
      .references(() => fundRequests.id, { onDelete: 'cascade' }),
    /** The fund's TPA and client when the chase was opened (what scorecards group by). */
    administratorId: integer('administrator_id').references(() => administrators.id),
    client: text('client'),
    reason: text('reason').$type<ChaseReason>().notNull(),
    key: text('key').notNull(),
    state: text('state').$type<ChaseState>().notNull().default('scheduled'),
    /** The returned file (reason returned on a file), or the delivery whose check failed. */
    fundFileId: integer('fund_file_id').references(() => fundFiles.id, { onDelete: 'set null' }),
    /** The reviewer's reason (returned), or a one-line summary. */
    message: text('message').notNull().default(''),
    evidence: json<ChaseEvidence>('evidence').notNull(),
    /** Blob key of the failing rows as CSV; null when there are none. */
    evidenceBlobKey: text('evidence_blob_key'),
    recipients: json<ChaseRecipient[]>('recipients').notNull(),
    /** Mails sent for this chase so far. */
    remindersSent: integer('reminders_sent').notNull().default(0),
    /** The day (ISO date) the next mail of this chase is due; null: none planned. */
    nextReminderOn: text('next_reminder_on'),
    lastSentAt: text('last_sent_at'),
    answeredAt: text('answered_at'),
    closedAt: text('closed_at'),
    createdById: integer('created_by_id').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('chases_fund_idx').on(t.fundRequestId, t.state),
    index('chases_state_next_idx').on(t.state, t.nextReminderOn),
    index('chases_admin_idx').on(t.administratorId, t.state),
    uniqueIndex('chases_open_key_unique').on(t.fundRequestId, t.key).where(sql`state in ('scheduled', 'sent', 'answered')`),
  ],
);

/**
 * Every state change of a chase, as it happened (append-only): the chase history scorecards and
 * the chase's timeline read. The TPA, client and reason are copied from the chase so the history
 * is filtered without a join.
 */
export const chaseEvents = sqliteTable(
  'chase_events',
  {
    id: id(),
    chaseId: integer('chase_id')
      .notNull()
      .references(() => chases.id, { onDelete: 'cascade' }),
    fundRequestId: integer('fund_request_id').notNull(),
    administratorId: integer('administrator_id'),
    client: text('client'),
    reason: text('reason').$type<ChaseReason>().notNull(),
    state: text('state').$type<ChaseState>().notNull(),
    /** ISO-8601 UTC timestamp of the change. */
    at: text('at').notNull(),
    /** The user who made the change; null: the product itself (a chase run, the pipeline). */
    actorId: integer('actor_id').references(() => users.id),
    /** The actor's e-mail, or 'system'. */
    actor: text('actor').notNull(),
    /** What happened, in a few words (e.g. 'reminder 2 of 4', 'trial_balance.csv uploaded'). */
    note: text('note').notNull().default(''),
    details: json<Record<string, unknown>>('details'),
  },
  (t) => [
    index('chase_events_at_idx').on(t.at),
    index('chase_events_chase_idx').on(t.chaseId, t.at),
    index('chase_events_fund_idx').on(t.fundRequestId, t.at),
    index('chase_events_admin_idx').on(t.administratorId, t.at),
  ],
);

/** A chase run: the periodic (or manual) pass that opens, resolves and mails chases. */
export const chaseRuns = sqliteTable(
  'chase_runs',
  {
    id: id(),
    /** The day (ISO date) the run chases for. */
    asOf: text('as_of').notNull(),
    status: text('status').$type<'running' | 'done' | 'error'>().notNull().default('running'),
    /** 'schedule', 'cli', 'api', 'demo'. */
    trigger: text('trigger').notNull(),
    counts: json<Record<string, number>>('counts'),
    error: text('error'),
    startedAt: createdAt(),
    finishedAt: text('finished_at'),
    createdById: integer('created_by_id').references(() => users.id),
  },
  (t) => [index('chase_runs_started_idx').on(t.startedAt)],
);

/** Outbox mail statuses: waiting (for its turn or a retry), sending, sent, failed (gave up), cancelled. */
export const MAIL_STATUSES = ['pending', 'sending', 'sent', 'failed', 'cancelled'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/** One digest mail of a run to one recipient: all that recipient's open chases. */
export const chaseMails = sqliteTable(
  'chase_mails',
  {
    id: id(),
    runId: integer('run_id')
      .notNull()
      .references(() => chaseRuns.id, { onDelete: 'cascade' }),
    /** `run:<run id>:to:<address>`: one mail per recipient per run. */
    idempotencyKey: text('idempotency_key').notNull().unique(),
    toEmail: text('to_email').notNull(),
    toName: text('to_name').notNull().default(''),
    timeZone: text('time_zone'),
    chaseIds: json<number[]>('chase_ids').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    /** CSV attachments: file name and blob key. */
    attachments: json<Array<{ filename: string; blobKey: string }>>('attachments').notNull(),
    status: text('status').$type<MailStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** Epoch ms before which the mail is not tried again. */
    nextAttemptAt: integer('next_attempt_at').notNull().default(0),
    lastError: text('last_error'),
    /** The Message-ID header: fixed per mail, so a retry after an unknown outcome is the same message. */
    messageId: text('message_id').notNull(),
    sentAt: text('sent_at'),
    createdAt: createdAt(),
  },
  (t) => [index('chase_mails_status_idx').on(t.status, t.nextAttemptAt), index('chase_mails_run_idx').on(t.runId)],
);

/** That a chase went to a recipient in a run's mail: unique per chase, run and address. */
export const chaseNotices = sqliteTable(
  'chase_notices',
  {
    id: id(),
    chaseId: integer('chase_id')
      .notNull()
      .references(() => chases.id, { onDelete: 'cascade' }),
    runId: integer('run_id')
      .notNull()
      .references(() => chaseRuns.id, { onDelete: 'cascade' }),
    mailId: integer('mail_id')
      .notNull()
      .references(() => chaseMails.id, { onDelete: 'cascade' }),
    toEmail: text('to_email').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('chase_notices_unique').on(t.chaseId, t.runId, t.toEmail), index('chase_notices_mail_idx').on(t.mailId)],
);
