import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../jobs/engine.js';
import { enqueue } from '../../jobs/queue.js';
import { createTestContext, type TestContext } from '../../testing.js';
import { getServices, setServices } from './services.js';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestContext({ seedDemoData: false });
});
afterEach(() => ctx.dispose());

describe('services on and off', () => {
  it('keeps queued jobs waiting while the pipeline is off and runs them when it is on again', async () => {
    expect(getServices(ctx)).toEqual({ pipeline: 'on', sweeper: 'on' });
    setServices(ctx, { pipeline: 'off' });
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
    enqueue(ctx, { stage: 'calculations', fundRequestId: f });
    await new Promise((r) => setTimeout(r, 150));
    expect(ran).toBe(0);
    setServices(ctx, { pipeline: 'on' });
    await new Promise((r) => setTimeout(r, 150));
    await engine.stop();
    expect(ran).toBe(1);
  });

  it('refuses unknown services and states', () => {
    expect(() => setServices(ctx, { mailer: 'on' })).toThrow("Unknown service 'mailer'; services are pipeline, sweeper");
    expect(() => setServices(ctx, { sweeper: 'maybe' })).toThrow("Service sweeper can be 'on' or 'off' (got 'maybe')");
  });
});
