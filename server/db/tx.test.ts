import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachDialect, openDialectDatabase, type DialectDatabase } from '../testing/dialects.js';
import { storeOf } from './dialect.js';
import { afterCommit, transaction } from './tx.js';

describeEachDialect('transactions of dialect-neutral services', (dialect) => {
  let database: DialectDatabase;
  beforeEach(async () => {
    database = await openDialectDatabase(dialect);
  });
  afterEach(() => database.dispose());

  const value = async (key: string) => {
    const { db, tables: t } = storeOf(database.ctx);
    const [row] = await db.select().from(t.settings).where(eq(t.settings.key, key));
    return row?.value;
  };

  it('runs what waits for the commit after the outermost transaction commits, never after a rollback', async () => {
    const { ctx } = database;
    const { tables: t } = storeOf(ctx);
    const ran: string[] = [];
    afterCommit(ctx, () => ran.push('no transaction: at once'));
    await transaction(ctx, async (tx) => {
      await transaction(ctx, async (inner) => {
        await inner.insert(t.settings).values({ key: 'a', value: 1 });
        afterCommit(ctx, () => ran.push('after the commit'));
      });
      await tx.insert(t.settings).values({ key: 'b', value: 2 });
      ran.push('outer still open');
    });
    expect(ran).toEqual(['no transaction: at once', 'outer still open', 'after the commit']);
    await expect(
      transaction(ctx, async (tx) => {
        await tx.insert(t.settings).values({ key: 'c', value: 3 });
        afterCommit(ctx, () => ran.push('rolled back'));
        throw new Error('failed');
      }),
    ).rejects.toThrow('failed');
    expect(ran).not.toContain('rolled back');
    expect(await value('c')).toBeUndefined();
  });

  it('commits what the function wrote when it resolves', async () => {
    const { ctx } = database;
    const { tables: t } = storeOf(ctx);
    const out = await transaction(ctx, async (tx) => {
      await tx.insert(t.settings).values({ key: 'a', value: { n: 1 } });
      await tx.insert(t.settings).values({ key: 'b', value: [1, 2] });
      return 'done';
    });
    expect(out).toBe('done');
    expect(await value('a')).toEqual({ n: 1 });
    expect(await value('b')).toEqual([1, 2]);
  });

  it('rolls back everything it wrote when it throws, also after awaiting other work', async () => {
    const { ctx } = database;
    const { tables: t } = storeOf(ctx);
    await expect(
      transaction(ctx, async (tx) => {
        await tx.insert(t.settings).values({ key: 'a', value: 1 });
        await new Promise((r) => setTimeout(r, 10));
        await transaction(ctx, async (inner) => inner.insert(t.settings).values({ key: 'b', value: 2 }));
        throw new Error('the check failed');
      }),
    ).rejects.toThrow('the check failed');
    expect(await value('a')).toBeUndefined();
    expect(await value('b')).toBeUndefined();
  });

  it('gives a service called inside a transaction the transaction: its writes roll back with it', async () => {
    const { ctx } = database;
    // a service that only knows the context, as every dialect-neutral service does
    const saveSetting = async (key: string, v: number) => {
      const { db, tables: t } = storeOf(ctx);
      await db.insert(t.settings).values({ key, value: v });
    };
    await expect(
      transaction(ctx, async () => {
        await saveSetting('inside', 1);
        // on PostgreSQL a write through the pool would be another connection: not rolled back
        throw new Error('abandoned');
      }),
    ).rejects.toThrow('abandoned');
    expect(await value('inside')).toBeUndefined();
    await saveSetting('outside', 2);
    expect(await value('outside')).toBe(2);
  });

  it('keeps two transactions of one process apart: a second one never sees the first half done', async () => {
    const { ctx } = database;
    const { tables: t } = storeOf(ctx);
    let inserted!: () => void;
    const firstInserted = new Promise<void>((r) => {
      inserted = r;
    });
    const order: string[] = [];
    const first = transaction(ctx, async (tx) => {
      await tx.insert(t.settings).values({ key: 'first', value: 0 });
      inserted();
      await new Promise((r) => setTimeout(r, 300));
      order.push('first commits');
    });
    await firstInserted;
    const second = transaction(ctx, async (tx) => {
      const rows = await tx.select({ key: t.settings.key }).from(t.settings);
      order.push(`second reads [${rows.map((r) => r.key).join(',')}]`);
    });
    await Promise.all([first, second]);
    // SQLite: one write transaction at a time, the second waits for the first's commit;
    // PostgreSQL: both run at once, the second does not see the first's uncommitted row
    expect(order).toEqual(dialect === 'sqlite' ? ['first commits', 'second reads [first]'] : ['second reads []', 'first commits']);
  });
});
