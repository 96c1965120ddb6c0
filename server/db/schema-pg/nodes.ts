/**
 * Generated from `server/db/schema/nodes.ts` by `npm run db:generate` (server/db/pg-schema/generate.ts):
 * the same tables in drizzle's pg-core. Change the SQLite description (and
 * server/db/pg-schema/differences.ts), not this file.
 */
import { bigint, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import type * as s from '../schema/nodes.js';
import { type Data } from './common.js';

export const nodes = pgTable('nodes', {
  id: text('id').$type<Data<typeof s.nodes.id>>().primaryKey(),
  kind: text('kind').$type<Data<typeof s.nodes.kind>>().notNull(),
  hostname: text('hostname').$type<Data<typeof s.nodes.hostname>>().notNull(),
  pid: integer('pid').notNull(),
  url: text('url').$type<Data<typeof s.nodes.url>>(),
  workers: integer('workers').notNull().default(0),
  startedAt: text('started_at').$type<Data<typeof s.nodes.startedAt>>().notNull(),
  heartbeatAt: bigint('heartbeat_at', { mode: 'number' }).notNull(),
});

export const nodeEvents = pgTable(
  'node_events',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    nodeId: text('node_id').$type<Data<typeof s.nodeEvents.nodeId>>().notNull(),
    name: text('name').$type<Data<typeof s.nodeEvents.name>>().notNull(),
    data: jsonb('data').$type<Data<typeof s.nodeEvents.data>>(),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  },
  (t) => [index('node_events_created_idx').on(t.createdAt)],
);
