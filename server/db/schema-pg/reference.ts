/** Administrators (TPAs), reference-data lists and settings (PostgreSQL); see `server/db/schema/reference.ts`. */
import { integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { bool, createdAt, id, json, updatedAt } from './common.js';

export const administrators = pgTable('administrators', {
  id: id(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  region: text('region'),
  selfOnboarded: bool('self_onboarded').notNull().default(false),
  createdAt: createdAt(),
});

export const referenceData = pgTable(
  'reference_data',
  {
    id: id(),
    list: text('list').notNull(),
    code: text('code').notNull(),
    altCode: text('alt_code').notNull(),
    deprecated: bool('deprecated').notNull().default(false),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [uniqueIndex('reference_data_list_code').on(t.list, t.code)],
);

/** Key/value settings (demo state, service switches, schema notes). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: json<unknown>('value'),
  updatedAt: updatedAt(),
});
