import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError } from '../../errors.js';
import { createTestContext, type TestContext, errorOf } from '../../testing/context.js';
import { lastLines, listLogFiles, logsDir, openLogFile } from './logs.js';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestContext({ seedDemoData: false });
  const lines = Array.from({ length: 250 }, (_, i) => JSON.stringify({ level: 30, n: i + 1, msg: 'request' }));
  writeFileSync(join(logsDir(ctx), 'older.log'), `${lines.join('\n')}\n`);
});
afterEach(() => ctx.dispose());

describe('log files', () => {
  it('lists the files of the logs folder, the server log among them', () => {
    const files = listLogFiles(ctx)
      .map((f) => f.file)
      .sort();
    expect(files).toEqual(['fund-audit.log', 'older.log']);
    expect(listLogFiles(ctx).find((f) => f.file === 'older.log')!.size).toBeGreaterThan(5000);
  });

  it('tails the last 100 lines by default, oldest first, and any count asked for', () => {
    const tail = lastLines(ctx, { file: 'older.log' });
    expect(tail.count).toBe(100);
    expect(tail.lines).toHaveLength(100);
    expect(JSON.parse(tail.lines[0]).n).toBe(151);
    expect(JSON.parse(tail.lines[99]).n).toBe(250);
    expect(tail.truncated).toBe(true);
    expect(lastLines(ctx, { file: 'older.log', count: 3 }).lines.map((l) => JSON.parse(l).n)).toEqual([248, 249, 250]);
    const all = lastLines(ctx, { file: 'older.log', count: 1000 });
    expect(all.lines).toHaveLength(250);
    expect(all.truncated).toBe(false);
  });

  it('reads what the server logs as it happens', async () => {
    const logging = await createTestContext({ seedDemoData: false, logLevel: 'info' });
    try {
      logging.log.warn({ marker: 'tail-me' }, 'something to see');
      const tail = lastLines(logging, { file: 'fund-audit.log', count: 1 });
      expect(JSON.parse(tail.lines[0])).toMatchObject({ marker: 'tail-me', msg: 'something to see' });
    } finally {
      await logging.dispose();
    }
  });

  it('refuses names with a folder, unknown files and bad counts', () => {
    expect(errorOf(() => lastLines(ctx, { file: '../config.json' }))).toBeInstanceOf(ValidationError);
    const missing = errorOf(() => openLogFile(ctx, 'nope.log'));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing.message).toBe('No log file named nope.log');
    expect(errorOf(() => lastLines(ctx, { file: 'older.log', count: 0 })).message).toMatch(/from 1 to 10000/);
  });
});
