/** Fund requests with their fund codes, recipients, saved listing filters and the audit trail. */
import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { bool, createdAt, id, json, updatedAt } from './common.js';
import { administrators } from './reference.js';
import { users } from './users.js';

import type { DataRequestStatus, FundStatus } from '../../../rules/statuses.js';

/** Fund upload and data-requested statuses (spec section 4), stored as the rules module writes them. */
export { DATA_REQUEST_STATUSES, FUND_STATUSES, type DataRequestStatus, type FundStatus } from '../../../rules/statuses.js';

export const fundRequests = sqliteTable(
  'fund_requests',
  {
    id: id(),
    administratorId: integer('administrator_id').references(() => administrators.id),
    name: text('name').notNull(),
    client: text('client').notNull(),
    gfisClientCode: text('gfis_client_code'),
    status: text('status').$type<FundStatus>().notNull().default('Pending'),
    statusBeforeDelete: text('status_before_delete').$type<FundStatus>(),
    country: text('country'),
    eyCountry: text('ey_country'),
    currency: text('currency'),
    structure: text('structure'),
    fundSubType: text('fund_sub_type'),
    auditType: text('audit_type'),
    jobType: text('job_type'),
    accountingStandard: text('accounting_standard'),
    periodStart: text('period_start'),
    periodEnd: text('period_end'),
    dueDate: text('due_date'),
    auditStartDate: text('audit_start_date'),
    navCloseDate: text('nav_close_date'),
    requestDate: text('request_date'),
    financialYear: text('financial_year'),
    accountingPeriod: text('accounting_period'),
    engagementCode: text('engagement_code'),
    outputType: text('output_type'),
    externalValuations: text('external_valuations').$type<'Y' | 'N'>().notNull().default('N'),
    priceType1: text('price_type_1'),
    priceType2: text('price_type_2'),
    priceType3: text('price_type_3'),
    priceType4: text('price_type_4'),
    priceSource1: text('price_source_1'),
    priceSource2: text('price_source_2'),
    priceSource3: text('price_source_3'),
    pm: real('pm'),
    te: real('te'),
    sad: real('sad'),
    connectedAudit: bool('connected_audit').notNull().default(false),
    rttPlus: real('rtt_plus'),
    rttMinus: real('rtt_minus'),
    /** FX testing tolerance in percent (0-100) of the independent rate; null: the server's `fxTolerancePct`. */
    fxTolerance: real('fx_tolerance'),
    soiRecType: text('soi_rec_type'),
    fihiType: text('fihi_type'),
    hasInvestmentAnalyzer: bool('has_investment_analyzer').notNull().default(false),
    aggregConsolFlag: text('aggreg_consol_flag'),
    groupKey: text('group_key'),
    groupWorkPapers: bool('group_work_papers').notNull().default(false),
    parentId: integer('parent_id'),
    isParent: bool('is_parent').notNull().default(false),
    aggregForceRun: bool('aggreg_force_run').notNull().default(false),
    needsRerun: bool('needs_rerun').notNull().default(false),
    auditComments: text('audit_comments'),
    administratorComments: text('administrator_comments'),
    deliveryComments: text('delivery_comments'),
    notes: text('notes'),
    dataRequestStatus: text('data_request_status').$type<DataRequestStatus>().notNull().default('NotRequested'),
    selfOnboarded: bool('self_onboarded').notNull().default(false),
    fundAdministratorContact: text('fund_administrator_contact'),
    auditorEmail1: text('auditor_email_1'),
    auditorEmail2: text('auditor_email_2'),
    auditorEmail3: text('auditor_email_3'),
    auditorEmail4: text('auditor_email_4'),
    ppedEmail: text('pped_email'),
    tpaMailbox: text('tpa_mailbox'),
    frTpaContact: text('fr_tpa_contact'),
    taTpaMailbox: text('ta_tpa_mailbox'),
    rerunCount: integer('rerun_count').notNull().default(0),
    rerunById: integer('rerun_by_id').references(() => users.id),
    rerunByRole: text('rerun_by_role'),
    rerunDate: text('rerun_date'),
    createdById: integer('created_by_id').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('fund_requests_status_idx').on(t.status),
    index('fund_requests_admin_period_idx').on(t.administratorId, t.periodEnd),
    index('fund_requests_due_idx').on(t.dueDate),
    index('fund_requests_request_date_idx').on(t.requestDate),
    // fund listing: children of a parent; a status filter in request-date order; search and sort on client and name
    index('fund_requests_parent_idx').on(t.parentId),
    // name and client make the status indexes covering for the listing's search and its count
    index('fund_requests_status_request_idx').on(t.status, t.requestDate, t.name, t.client),
    index('fund_requests_client_name_idx').on(t.client, t.name),
    index('fund_requests_status_due_idx').on(t.status, t.dueDate, t.name, t.client),
  ],
);

export const fundCodes = sqliteTable(
  'fund_codes',
  {
    id: id(),
    fundRequestId: integer('fund_request_id')
      .notNull()
      .references(() => fundRequests.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    main: bool('main').notNull().default(false),
  },
  (t) => [uniqueIndex('fund_codes_unique').on(t.fundRequestId, t.code), index('fund_codes_code_idx').on(t.code)],
);

export const recipients = sqliteTable('recipients', {
  id: id(),
  fundRequestId: integer('fund_request_id')
    .notNull()
    .references(() => fundRequests.id, { onDelete: 'cascade' }),
  fullName: text('full_name').notNull().default(''),
  email: text('email').notNull(),
  role: text('role').notNull(),
});

/** Saved listing filters; fixed ones (ids 1-3) belong to nobody and cannot be deleted. */
export const savedFilters = sqliteTable('saved_filters', {
  id: id(),
  userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
  title: text('title').notNull(),
  filter: json<unknown>('filter').notNull(),
  fixed: bool('fixed').notNull().default(false),
  createdAt: createdAt(),
});

/** Immutable audit trail: every status change, edit and file action. */
export const trail = sqliteTable(
  'trail',
  {
    id: id(),
    fundRequestId: integer('fund_request_id'),
    userId: integer('user_id').references(() => users.id),
    action: text('action').notNull(),
    before: json<unknown>('before'),
    after: json<unknown>('after'),
    createdAt: createdAt(),
  },
  (t) => [index('trail_fund_idx').on(t.fundRequestId, t.createdAt)],
);
