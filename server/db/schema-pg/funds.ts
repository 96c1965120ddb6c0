/**
 * Generated from `server/db/schema/funds.ts` by `npm run db:generate` (server/db/pg-schema/generate.ts):
 * the same tables in drizzle's pg-core. Change the SQLite description (and
 * server/db/pg-schema/differences.ts), not this file.
 */
import { boolean, doublePrecision, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type * as s from '../schema/funds.js';
import { type Data, isoNow } from './common.js';
import { administrators } from './reference.js';
import { users } from './users.js';

export const fundRequests = pgTable(
  'fund_requests',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    administratorId: integer('administrator_id').references(() => administrators.id),
    name: text('name').$type<Data<typeof s.fundRequests.name>>().notNull(),
    client: text('client').$type<Data<typeof s.fundRequests.client>>().notNull(),
    gfisClientCode: text('gfis_client_code').$type<Data<typeof s.fundRequests.gfisClientCode>>(),
    status: text('status').$type<Data<typeof s.fundRequests.status>>().notNull().default('Pending'),
    statusBeforeDelete: text('status_before_delete').$type<Data<typeof s.fundRequests.statusBeforeDelete>>(),
    country: text('country').$type<Data<typeof s.fundRequests.country>>(),
    eyCountry: text('ey_country').$type<Data<typeof s.fundRequests.eyCountry>>(),
    currency: text('currency').$type<Data<typeof s.fundRequests.currency>>(),
    structure: text('structure').$type<Data<typeof s.fundRequests.structure>>(),
    fundSubType: text('fund_sub_type').$type<Data<typeof s.fundRequests.fundSubType>>(),
    auditType: text('audit_type').$type<Data<typeof s.fundRequests.auditType>>(),
    jobType: text('job_type').$type<Data<typeof s.fundRequests.jobType>>(),
    accountingStandard: text('accounting_standard').$type<Data<typeof s.fundRequests.accountingStandard>>(),
    periodStart: text('period_start').$type<Data<typeof s.fundRequests.periodStart>>(),
    periodEnd: text('period_end').$type<Data<typeof s.fundRequests.periodEnd>>(),
    dueDate: text('due_date').$type<Data<typeof s.fundRequests.dueDate>>(),
    auditStartDate: text('audit_start_date').$type<Data<typeof s.fundRequests.auditStartDate>>(),
    navCloseDate: text('nav_close_date').$type<Data<typeof s.fundRequests.navCloseDate>>(),
    requestDate: text('request_date').$type<Data<typeof s.fundRequests.requestDate>>(),
    financialYear: text('financial_year').$type<Data<typeof s.fundRequests.financialYear>>(),
    accountingPeriod: text('accounting_period').$type<Data<typeof s.fundRequests.accountingPeriod>>(),
    engagementCode: text('engagement_code').$type<Data<typeof s.fundRequests.engagementCode>>(),
    outputType: text('output_type').$type<Data<typeof s.fundRequests.outputType>>(),
    externalValuations: text('external_valuations').$type<Data<typeof s.fundRequests.externalValuations>>().notNull().default('N'),
    priceType1: text('price_type_1').$type<Data<typeof s.fundRequests.priceType1>>(),
    priceType2: text('price_type_2').$type<Data<typeof s.fundRequests.priceType2>>(),
    priceType3: text('price_type_3').$type<Data<typeof s.fundRequests.priceType3>>(),
    priceType4: text('price_type_4').$type<Data<typeof s.fundRequests.priceType4>>(),
    priceSource1: text('price_source_1').$type<Data<typeof s.fundRequests.priceSource1>>(),
    priceSource2: text('price_source_2').$type<Data<typeof s.fundRequests.priceSource2>>(),
    priceSource3: text('price_source_3').$type<Data<typeof s.fundRequests.priceSource3>>(),
    pm: doublePrecision('pm'),
    te: doublePrecision('te'),
    sad: doublePrecision('sad'),
    connectedAudit: boolean('connected_audit').notNull().default(false),
    rttPlus: doublePrecision('rtt_plus'),
    rttMinus: doublePrecision('rtt_minus'),
    fxTolerance: doublePrecision('fx_tolerance'),
    soiRecType: text('soi_rec_type').$type<Data<typeof s.fundRequests.soiRecType>>(),
    fihiType: text('fihi_type').$type<Data<typeof s.fundRequests.fihiType>>(),
    hasInvestmentAnalyzer: boolean('has_investment_analyzer').notNull().default(false),
    aggregConsolFlag: text('aggreg_consol_flag').$type<Data<typeof s.fundRequests.aggregConsolFlag>>(),
    groupKey: text('group_key').$type<Data<typeof s.fundRequests.groupKey>>(),
    groupWorkPapers: boolean('group_work_papers').notNull().default(false),
    parentId: integer('parent_id'),
    isParent: boolean('is_parent').notNull().default(false),
    aggregForceRun: boolean('aggreg_force_run').notNull().default(false),
    needsRerun: boolean('needs_rerun').notNull().default(false),
    auditComments: text('audit_comments').$type<Data<typeof s.fundRequests.auditComments>>(),
    administratorComments: text('administrator_comments').$type<Data<typeof s.fundRequests.administratorComments>>(),
    deliveryComments: text('delivery_comments').$type<Data<typeof s.fundRequests.deliveryComments>>(),
    notes: text('notes').$type<Data<typeof s.fundRequests.notes>>(),
    dataRequestStatus: text('data_request_status').$type<Data<typeof s.fundRequests.dataRequestStatus>>().notNull().default('NotRequested'),
    selfOnboarded: boolean('self_onboarded').notNull().default(false),
    fundAdministratorContact: text('fund_administrator_contact').$type<Data<typeof s.fundRequests.fundAdministratorContact>>(),
    auditorEmail1: text('auditor_email_1').$type<Data<typeof s.fundRequests.auditorEmail1>>(),
    auditorEmail2: text('auditor_email_2').$type<Data<typeof s.fundRequests.auditorEmail2>>(),
    auditorEmail3: text('auditor_email_3').$type<Data<typeof s.fundRequests.auditorEmail3>>(),
    auditorEmail4: text('auditor_email_4').$type<Data<typeof s.fundRequests.auditorEmail4>>(),
    ppedEmail: text('pped_email').$type<Data<typeof s.fundRequests.ppedEmail>>(),
    tpaMailbox: text('tpa_mailbox').$type<Data<typeof s.fundRequests.tpaMailbox>>(),
    frTpaContact: text('fr_tpa_contact').$type<Data<typeof s.fundRequests.frTpaContact>>(),
    taTpaMailbox: text('ta_tpa_mailbox').$type<Data<typeof s.fundRequests.taTpaMailbox>>(),
    rerunCount: integer('rerun_count').notNull().default(0),
    rerunById: integer('rerun_by_id').references(() => users.id),
    rerunByRole: text('rerun_by_role').$type<Data<typeof s.fundRequests.rerunByRole>>(),
    rerunDate: text('rerun_date').$type<Data<typeof s.fundRequests.rerunDate>>(),
    createdById: integer('created_by_id').references(() => users.id),
    createdAt: text('created_at').$type<Data<typeof s.fundRequests.createdAt>>().notNull().default(isoNow),
    updatedAt: text('updated_at').$type<Data<typeof s.fundRequests.updatedAt>>().notNull().default(isoNow),
  },
  (t) => [
    index('fund_requests_status_idx').on(t.status),
    index('fund_requests_admin_period_idx').on(t.administratorId, t.periodEnd),
    index('fund_requests_due_idx').on(t.dueDate.asc().nullsFirst()),
    index('fund_requests_request_date_idx').on(t.requestDate.asc().nullsFirst()),
    index('fund_requests_parent_idx').on(t.parentId),
    index('fund_requests_status_request_idx').on(t.status, t.requestDate.asc().nullsFirst(), t.name, t.client),
    index('fund_requests_client_name_idx').on(t.client, t.name),
    index('fund_requests_status_due_idx').on(t.status, t.dueDate.asc().nullsFirst(), t.name, t.client),
  ],
);

export const fundCodes = pgTable(
  'fund_codes',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    fundRequestId: integer('fund_request_id')
      .notNull()
      .references(() => fundRequests.id, { onDelete: 'cascade' }),
    code: text('code').$type<Data<typeof s.fundCodes.code>>().notNull(),
    main: boolean('main').notNull().default(false),
  },
  (t) => [uniqueIndex('fund_codes_unique').on(t.fundRequestId, t.code), index('fund_codes_code_idx').on(t.code)],
);

export const recipients = pgTable('recipients', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  fundRequestId: integer('fund_request_id')
    .notNull()
    .references(() => fundRequests.id, { onDelete: 'cascade' }),
  fullName: text('full_name').$type<Data<typeof s.recipients.fullName>>().notNull().default(''),
  email: text('email').$type<Data<typeof s.recipients.email>>().notNull(),
  role: text('role').$type<Data<typeof s.recipients.role>>().notNull(),
});

export const savedFilters = pgTable('saved_filters', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
  title: text('title').$type<Data<typeof s.savedFilters.title>>().notNull(),
  filter: jsonb('filter').$type<Data<typeof s.savedFilters.filter>>().notNull(),
  fixed: boolean('fixed').notNull().default(false),
  createdAt: text('created_at').$type<Data<typeof s.savedFilters.createdAt>>().notNull().default(isoNow),
});

export const trail = pgTable(
  'trail',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    fundRequestId: integer('fund_request_id'),
    userId: integer('user_id').references(() => users.id),
    action: text('action').$type<Data<typeof s.trail.action>>().notNull(),
    before: jsonb('before').$type<Data<typeof s.trail.before>>(),
    after: jsonb('after').$type<Data<typeof s.trail.after>>(),
    createdAt: text('created_at').$type<Data<typeof s.trail.createdAt>>().notNull().default(isoNow),
  },
  (t) => [index('trail_fund_idx').on(t.fundRequestId, t.createdAt)],
);
