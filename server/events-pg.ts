/**
 * Events across nodes on PostgreSQL (docs/decisions/0011-postgresql-beside-sqlite.md): every event
 * published on this node's bus is sent with `pg_notify` on one channel, and every other node's
 * event received on a listening connection is published on this node's bus, so a browser on
 * node A sees what node B did. A payload too large for a notification (PostgreSQL's limit is
 * 8,000 bytes) goes through `node_events`, the notification naming its row. A lost listening
 * connection is opened again (`onGap` is told: events sent meanwhile are not replayed).
 * Started by `serve` and `worker` on PostgreSQL (`server/queue/node-events.ts`).
 */
import pg from 'pg';
import type { AppEventName, AppEvents, EventBus } from './events.js';
import type { Logger } from './log.js';

/** The notification channel of Fund Audit's events. */
export const EVENTS_CHANNEL = 'fund_audit_events';

/** Largest payload sent in the notification itself (bytes of JSON). */
export const MAX_INLINE_BYTES = 7000;

type Message = { node: string; name: AppEventName; data?: unknown; row?: number };

/**
 * Connects a node's event bus to the other nodes.
 * @param opts.pool the node's pool (sends notifications, reads large payloads)
 * @param opts.url the database URL (the listening connection is its own, outside the pool)
 * @param opts.nodeId this node's id: its own notifications are not published twice
 * @param opts.onGap called after the listening connection was lost and opened again
 * @returns `stop()`, which ends the listening connection and the forwarding
 */
export async function bridgeEventsPg(opts: {
  pool: pg.Pool;
  url: string;
  bus: EventBus;
  nodeId: string;
  log: Logger;
  onGap?: () => void;
}): Promise<{ stop(): Promise<void> }> {
  const { pool, bus, nodeId, log } = opts;
  let republishing = false;
  let stopped = false;
  let listener: pg.Client | null = null;

  const receive = async (payload: string | undefined) => {
    if (!payload) return;
    const msg = JSON.parse(payload) as Message;
    if (msg.node === nodeId) return;
    let data = msg.data;
    if (msg.row !== undefined) {
      const { rows } = await pool.query<{ data: unknown }>('SELECT data FROM node_events WHERE id = $1', [msg.row]);
      if (!rows.length) return log.warn({ event: msg.name, row: msg.row }, 'an event of another node was pruned before it was read');
      data = rows[0]?.data;
    }
    republishing = true;
    try {
      bus.publish(msg.name, data as AppEvents[typeof msg.name]);
    } finally {
      republishing = false;
    }
  };

  const listen = async () => {
    const client = new pg.Client({ connectionString: opts.url });
    client.on('notification', (n) => {
      receive(n.payload).catch((err) => log.error({ err }, 'could not read an event of another node'));
    });
    client.on('error', (err) => {
      if (stopped || listener !== client) return;
      log.warn({ err }, 'the connection receiving other nodes’ events was lost; opening it again');
      listener = null;
      void client.end().catch(() => {});
      reopen(1000);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENTS_CHANNEL}`);
    } catch (err) {
      void client.end().catch(() => {});
      throw err;
    }
    listener = client;
  };

  /** Listens again after `delayMs`, retrying with a doubling delay (at most 30 s) while the database is away. */
  const reopen = (delayMs: number) => {
    setTimeout(() => {
      if (stopped) return;
      listen()
        .then(() => {
          log.info('listening to other nodes’ events again');
          opts.onGap?.();
        })
        .catch((err) => {
          log.warn({ err, retryInMs: Math.min(delayMs * 2, 30_000) }, 'could not listen to other nodes’ events yet');
          reopen(Math.min(delayMs * 2, 30_000));
        });
    }, delayMs).unref();
  };

  const send = async (name: AppEventName, data: unknown) => {
    const inline = JSON.stringify({ node: nodeId, name, data } satisfies Message);
    if (Buffer.byteLength(inline) <= MAX_INLINE_BYTES) {
      await pool.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, inline]);
      return;
    }
    const { rows } = await pool.query<{ id: number }>('INSERT INTO node_events (node_id, name, data, created_at) VALUES ($1, $2, $3, $4) RETURNING id', [
      nodeId,
      name,
      JSON.stringify(data ?? null),
      Date.now(),
    ]);
    await pool.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, JSON.stringify({ node: nodeId, name, row: rows[0]?.id } satisfies Message)]);
  };

  await listen();
  const off = bus.onAny((name, data) => {
    if (republishing || stopped) return;
    send(name, data).catch((err) => log.error({ err, event: name }, 'could not send an event to the other nodes'));
  });

  return {
    stop: async () => {
      stopped = true;
      off();
      const client = listener;
      listener = null;
      await client?.end();
    },
  };
}
