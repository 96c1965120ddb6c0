import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { createContext } from './context.js';
import { openContext } from './open-context.js';

describe('a PostgreSQL database in the configuration', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'fund-audit-dburl-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is checked: anything but a postgres:// URL is refused, naming the variable', () => {
    const err = (() => {
      try {
        loadConfig({ dataDir: dir, env: { FUND_AUDIT_DATABASE_URL: 'mysql://db/fund_audit' } });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err).toBeInstanceOf(ConfigError);
    expect(err?.message).toContain('FUND_AUDIT_DATABASE_URL');
    expect(err?.message).toContain('must be a postgres:// or postgresql:// URL');
    expect(loadConfig({ dataDir: dir, env: { FUND_AUDIT_DATABASE_URL: 'postgresql://fa:secret@db:5432/fa' } }).databaseUrl).toBe(
      'postgresql://fa:secret@db:5432/fa',
    );
  });

  it('is refused by the commands of a SQLite data directory, before the data directory gets a database', async () => {
    const start = createContext({ dataDir: dir, flags: { databaseUrl: 'postgres://fa:secret@db:5432/fa', logLevel: 'silent' }, terminalLog: false });
    await expect(start).rejects.toThrow(ConfigError);
    await expect(start).rejects.toThrow('this command works on the SQLite database of a data directory only');
    expect(existsSync(join(dir, 'fund-audit.sqlite'))).toBe(false);
  });

  it('needs a blob directory, which every node and command of the install shares', async () => {
    const start = openContext({
      dataDir: dir,
      flags: { databaseUrl: 'postgres://fa:secret@db:5432/fa', logLevel: 'silent' },
      terminalLog: false,
    });
    await expect(start).rejects.toThrow(ConfigError);
    await expect(start).rejects.toThrow('blobDir (--blob-dir, FUND_AUDIT_BLOB_DIR) is required with databaseUrl');
    expect(existsSync(join(dir, 'fund-audit.sqlite'))).toBe(false);
  });
});
