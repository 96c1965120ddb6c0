/**
 * The log file: rotated by size by the process that owns it, keeping a set number of old files;
 * another writer appending to it moves to the new file after a rotation.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger, LOG_FILE } from './log.js';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('log file', () => {
  it('is rotated at its size limit, keeping the newest files', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fa-log-'));
    const log = createLogger({ dataDir, level: 'info', rotateSize: '1K', keep: 2 });
    for (let i = 0; i < 60; i++) {
      log.info({ i, pad: 'x'.repeat(100) }, 'line');
      await pause(2);
    }
    await pause(200);
    const files = readdirSync(join(dataDir, 'logs')).sort();
    expect(files).toEqual([LOG_FILE, `${LOG_FILE}.1`, `${LOG_FILE}.2`]);
    // oldest to newest, every line whole; the newest line is the last one written
    const lines = [`${LOG_FILE}.2`, `${LOG_FILE}.1`, LOG_FILE].flatMap((f) =>
      readFileSync(join(dataDir, 'logs', f), 'utf8')
        .split('\n')
        .filter(Boolean),
    );
    const parsed = lines.map((l) => JSON.parse(l));
    expect(parsed.at(-1)).toMatchObject({ i: 59, msg: 'line' });
    expect(parsed.length).toBeLessThan(60); // older files were deleted
  });

  it('off with file: false', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fa-log-'));
    createLogger({ dataDir, level: 'info', file: false }).info('nowhere');
    expect(() => readdirSync(join(dataDir, 'logs'))).toThrow();
  });

  it('an appending writer follows the file after the owner rotated it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fa-log-'));
    const owner = createLogger({ dataDir, level: 'info', rotateSize: '1K', keep: 3 });
    const other = createLogger({ dataDir, level: 'info' });
    other.info('before');
    for (let i = 0; i < 15; i++) {
      owner.info({ i, pad: 'x'.repeat(100) }, 'owner');
      await pause(2);
    }
    await pause(5500); // the appending writer checks every 5 s
    other.info('after rotation');
    await pause(100);
    expect(readFileSync(join(dataDir, 'logs', LOG_FILE), 'utf8')).toContain('after rotation');
  }, 15_000);
});
