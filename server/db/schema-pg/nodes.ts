/** Processes working on one database and their outbox of events (PostgreSQL); see `server/db/schema/nodes.ts`. */
import { bigint, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import type { NodeKind } from '../schema/nodes.js';
import { json } from './common.js';

export const nodes = pgTable('nodes', {
  id: text('id').primaryKey(),
  kind: text('kind').$type<NodeKind>().notNull(),
  hostname: text('hostname').notNull(),
  pid: integer('pid').notNull(),
  url: text('url'),
  workers: integer('workers').notNull().default(0),
  startedAt: text('started_at').notNull(),
  /** Last sign of life (epoch ms). */
  heartbeatAt: bigint('heartbeat_at', { mode: 'number' }).notNull(),
});

export const nodeEvents = pgTable(
  'node_events',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    nodeId: text('node_id').notNull(),
    name: text('name').notNull(),
    data: json<unknown>('data'),
    /** Epoch ms. */
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  },
  (t) => [index('node_events_created_idx').on(t.createdAt)],
);
