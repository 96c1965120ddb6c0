import pg from 'pg';
import pino from 'pino';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openPgDb, type OpenPgResult } from './db/client-pg.js';
import { createPgTestDatabase, describePg } from './testing/dialects.js';
import { type AppEventName, EventBus } from './events.js';
import { bridgeEventsPg } from './events-pg.js';
import type { Logger } from './log.js';

const log = pino({ level: 'silent' }) as unknown as Logger;

/** Every event a bus publishes, in order. */
function record(bus: EventBus) {
  const seen: Array<[AppEventName, unknown]> = [];
  bus.onAny((name, data) => seen.push([name, data]));
  return seen;
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting for the event');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describePg('events across nodes on PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createPgTestDatabase>>;
  const nodes: Array<{ db: OpenPgResult; bus: EventBus; stop(): Promise<void>; gaps: number }> = [];
  const node = async (id: string) => {
    const db = await openPgDb(database.url, { max: 3 });
    const bus = new EventBus();
    const n = { db, bus, gaps: 0, stop: async () => {} };
    const bridge = await bridgeEventsPg({ pool: db.pool, url: database.url, bus, nodeId: id, log, onGap: () => n.gaps++ });
    n.stop = bridge.stop;
    nodes.push(n);
    return n;
  };
  beforeEach(async () => {
    database = await createPgTestDatabase();
  });
  afterEach(async () => {
    for (const n of nodes.splice(0)) {
      await n.stop();
      await n.db.pool.end();
    }
    await database.drop();
  });

  it("publishes each node's events once on every other node, large ones too", async () => {
    const [a, b, c] = [await node('a'), await node('b'), await node('c')];
    const [seenA, seenB, seenC] = [record(a.bus), record(b.bus), record(c.bus)];
    a.bus.publish('process', { id: 7, fundRequestId: 3, stage: 'standardization', status: 'done' });
    const ids = Array.from({ length: 3000 }, (_, i) => i + 1);
    b.bus.publish('fund-request', { ids, action: 'status' });
    await until(() => seenA.length === 2 && seenB.length === 2 && seenC.length === 2);
    await new Promise((r) => setTimeout(r, 200));
    const processEvent = ['process', { id: 7, fundRequestId: 3, stage: 'standardization', status: 'done' }];
    const fundEvent = ['fund-request', { ids, action: 'status' }];
    for (const seen of [seenA, seenB, seenC]) {
      expect(seen).toHaveLength(2);
      expect(seen).toContainEqual(processEvent);
      expect(seen).toContainEqual(fundEvent);
    }
  });

  it('listens again after its connection is lost, and says events may have been missed', async () => {
    const [a, b] = [await node('a'), await node('b')];
    const seenB = record(b.bus);
    const admin = await openPgDb(database.url, { max: 1 });
    try {
      await admin.pool.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'");
    } finally {
      await admin.pool.end();
    }
    await until(() => b.gaps === 1 && a.gaps === 1);
    a.bus.publish('export', { id: 1, status: 'done' });
    await until(() => seenB.length === 1);
    expect(seenB).toEqual([['export', { id: 1, status: 'done' }]]);
  });

  it('keeps trying to listen while the database refuses connections, and listens once it is back', async () => {
    const [a, b] = [await node('a'), await node('b')];
    const seenB = record(b.bus);
    const name = new URL(database.url).pathname.slice(1);
    // the cluster's own database, as its superuser: a database cannot lock itself out
    const adminPool = new pg.Pool({ connectionString: process.env.FUND_AUDIT_TEST_DATABASE_URL, max: 1 });
    try {
      // the database away for a few seconds: new connections refused, the listening ones cut
      await adminPool.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await adminPool.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND query LIKE 'LISTEN%'`);
      await new Promise((r) => setTimeout(r, 3500)); // the first attempts (after 1 s, then 2 s more) fail
      expect(b.gaps).toBe(0);
      await adminPool.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    } finally {
      await adminPool.end();
    }
    await until(() => b.gaps === 1 && a.gaps === 1, 15_000);
    a.bus.publish('export', { id: 2, status: 'done' });
    await until(() => seenB.length === 1);
    expect(seenB).toEqual([['export', { id: 2, status: 'done' }]]);
  }, 30_000);
});
