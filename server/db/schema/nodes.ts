/**
 * The processes working on one database: `serve` nodes (HTTP, socket and job workers) and
 * `worker` nodes (job workers only), each with a heartbeat; and the events a node without the
 * socket (a `worker` process) leaves for the serving nodes to forward.
 */
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { json } from './common.js';

export const NODE_KINDS = ['serve', 'worker'] as const;
export type NodeKind = (typeof NODE_KINDS)[number];

export const nodes = sqliteTable('nodes', {
  /** `<kind>-<hostname>-<pid>-<random>`; jobs it holds carry it in `processes.worker_id`. */
  id: text('id').primaryKey(),
  kind: text('kind').$type<NodeKind>().notNull(),
  hostname: text('hostname').notNull(),
  pid: integer('pid').notNull(),
  /** The address a `serve` node listens on. */
  url: text('url'),
  workers: integer('workers').notNull().default(0),
  startedAt: text('started_at').notNull(),
  /** Last sign of life (epoch ms). */
  heartbeatAt: integer('heartbeat_at').notNull(),
});

/** Events published by one node for the others (a short-lived outbox, pruned after minutes). */
export const nodeEvents = sqliteTable(
  'node_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    nodeId: text('node_id').notNull(),
    name: text('name').notNull(),
    data: json<unknown>('data'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('node_events_created_idx').on(t.createdAt)],
);
