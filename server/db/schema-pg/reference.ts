/**
 * Generated from `server/db/schema/reference.ts` by `npm run db:generate` (server/db/pg-schema/generate.ts):
 * the same tables in drizzle's pg-core. Change the SQLite description (and
 * server/db/pg-schema/differences.ts), not this file.
 */
import { boolean, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type * as s from '../schema/reference.js';
import { type Data, isoNow } from './common.js';

export const administrators = pgTable('administrators', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  code: text('code').$type<Data<typeof s.administrators.code>>().notNull().unique(),
  name: text('name').$type<Data<typeof s.administrators.name>>().notNull(),
  region: text('region').$type<Data<typeof s.administrators.region>>(),
  selfOnboarded: boolean('self_onboarded').notNull().default(false),
  createdAt: text('created_at').$type<Data<typeof s.administrators.createdAt>>().notNull().default(isoNow),
});

export const referenceData = pgTable(
  'reference_data',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    list: text('list').$type<Data<typeof s.referenceData.list>>().notNull(),
    code: text('code').$type<Data<typeof s.referenceData.code>>().notNull(),
    altCode: text('alt_code').$type<Data<typeof s.referenceData.altCode>>().notNull(),
    deprecated: boolean('deprecated').notNull().default(false),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [uniqueIndex('reference_data_list_code').on(t.list, t.code)],
);

export const settings = pgTable('settings', {
  key: text('key').$type<Data<typeof s.settings.key>>().primaryKey(),
  value: jsonb('value').$type<Data<typeof s.settings.value>>(),
  updatedAt: text('updated_at').$type<Data<typeof s.settings.updatedAt>>().notNull().default(isoNow),
});
