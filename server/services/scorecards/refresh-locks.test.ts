/**
 * On PostgreSQL the scorecard refresher never waits for a row a writer's transaction holds: it
 * writes back the others and leaves that one stale until a later batch, so a writer marking rows
 * stale in its own order cannot deadlock with it.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AppContext } from '../../context.js';
import { rawRows, storeOf } from '../../db/dialect.js';
import { describePg, openDialectDatabase, type DialectDatabase } from '../../testing/dialects.js';
import { transaction } from '../../db/tx.js';
import { refreshScorecardFacts } from './refresh.js';

describePg('the scorecard refresher beside a writer on PostgreSQL', () => {
  let database: DialectDatabase;
  let writer: AppContext;
  const ids: number[] = [];
  const staleOf = async () =>
    (await rawRows<{ id: number; stale: boolean }>(storeOf(database.ctx), sql`select fund_request_id as id, stale from scorecard_facts order by 1`)).map(
      (r) => [r.id, r.stale],
    );

  beforeAll(async () => {
    database = await openDialectDatabase('postgres');
    writer = await database.open();
    const store = storeOf(database.ctx);
    for (const name of ['Alpha Fund', 'Beta Fund']) {
      const [row] = await rawRows<{ id: number }>(store, sql`insert into fund_requests (name, client) values (${name}, 'Client A') returning id`);
      ids.push(row.id);
      await rawRows(store, sql`insert into scorecard_facts (fund_request_id, stale) values (${row.id}, true) returning fund_request_id`);
    }
  });
  afterAll(() => database?.dispose());

  it('writes back the rows no writer holds and leaves the held one stale for the next batch', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holding!: () => void;
    const held = new Promise<void>((resolve) => {
      holding = resolve;
    });
    // a writer's transaction marks Beta Fund's facts stale again and stays open
    const writing = transaction(writer, async () => {
      await rawRows(storeOf(writer), sql`update scorecard_facts set stale = true, mark = mark + 1 where fund_request_id = ${ids[1]} returning mark`);
      holding();
      await released;
    });
    await held;
    // the refresher finishes while the writer still holds Beta Fund's row (waiting for it would never end: the writer waits for the refresher)
    await refreshScorecardFacts(database.ctx);
    expect(await staleOf()).toEqual([
      [ids[0], false],
      [ids[1], true],
    ]);
    release();
    await writing;
    await refreshScorecardFacts(database.ctx);
    expect(await staleOf()).toEqual([
      [ids[0], false],
      [ids[1], false],
    ]);
  });
});
