import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDialectDatabase, describeEachDialect, type DialectDatabase } from '../testing/dialects.js';
import { Engine } from '../jobs/engine.js';
import { enqueue } from './queue.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';
import { getServices, setServices } from './services.js';

describeEachDialect('services on and off', (dialect) => {
  let database: DialectDatabase;
  beforeEach(async () => {
    database = await openDialectDatabase(dialect);
  });
  afterEach(() => database.dispose());

  it('are on until switched off, and stay as switched after a restart', async () => {
    const { ctx } = database;
    expect(await getServices(ctx)).toEqual({ pipeline: 'on', sweeper: 'on', mail: 'on' });
    expect(await setServices(ctx, { pipeline: 'off' })).toEqual({ pipeline: 'off', sweeper: 'on', mail: 'on' });
    expect(await setServices(ctx, { sweeper: 'off', mail: 'on' })).toEqual({ pipeline: 'off', sweeper: 'off', mail: 'on' });
    const restarted = await database.open();
    expect(await getServices(restarted)).toEqual({ pipeline: 'off', sweeper: 'off', mail: 'on' });
    await setServices(restarted, { pipeline: 'on' });
    expect(await getServices(ctx)).toEqual({ pipeline: 'on', sweeper: 'off', mail: 'on' });
  });

  it('keeps both of two switches made at once by two nodes', async () => {
    const other = await database.open();
    for (let round = 0; round < 5; round++) {
      await setServices(database.ctx, { pipeline: 'on', sweeper: 'on', mail: 'on' });
      await Promise.all([setServices(database.ctx, { pipeline: 'off' }), setServices(other, { sweeper: 'off' })]);
      expect(await getServices(database.ctx)).toEqual({ pipeline: 'off', sweeper: 'off', mail: 'on' });
    }
  });

  it('refuses unknown services and states, changing nothing', async () => {
    const { ctx } = database;
    await expect(setServices(ctx, { mailer: 'on' })).rejects.toThrow("Unknown service 'mailer'; services are pipeline, sweeper, mail");
    await expect(setServices(ctx, { pipeline: 'off', sweeper: 'maybe' })).rejects.toThrow("Service sweeper can be 'on' or 'off' (got 'maybe')");
    expect(await getServices(ctx)).toEqual({ pipeline: 'on', sweeper: 'on', mail: 'on' });
  });
});

describe('the service switches in the running product (SQLite)', () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext({ seedDemoData: false, devToolsEnabled: true });
  });
  afterEach(() => ctx.dispose());

  it('are switched in the developer tools', async () => {
    const api = apiClient(ctx);
    const token = await sessionToken(ctx, ctx.boot.admin.id);
    expect((await api.get('dev-tools/services', token)).body.payload).toEqual({ pipeline: 'on', sweeper: 'on', mail: 'on' });
    const off = await api.post('dev-tools/services', { services: { sweeper: 'off' } }, token);
    expect(off.body.payload).toEqual({ pipeline: 'on', sweeper: 'off', mail: 'on' });
    const bad = await api.post('dev-tools/services', { services: { sweeper: 'maybe' } }, token);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.errors)).toContain("Service sweeper can be 'on' or 'off' (got 'maybe')");
    expect(await getServices(ctx)).toEqual({ pipeline: 'on', sweeper: 'off', mail: 'on' });
  });

  it('keeps queued jobs waiting while the pipeline is off and runs them when it is on again', async () => {
    await setServices(ctx, { pipeline: 'off' });
    const f = Number(ctx.sqlite.prepare("insert into fund_requests (name, client) values ('F', 'C')").run().lastInsertRowid);
    let ran = 0;
    const engine = new Engine(
      ctx,
      {
        calculations: () => {
          ran++;
          return {};
        },
      },
      { workers: 1, pollMs: 20 },
    );
    engine.start();
    await enqueue(ctx, { stage: 'calculations', fundRequestId: f });
    await new Promise((r) => setTimeout(r, 150));
    expect(ran).toBe(0);
    await setServices(ctx, { pipeline: 'on' });
    await new Promise((r) => setTimeout(r, 150));
    await engine.stop();
    expect(ran).toBe(1);
  });
});
