import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
// @ts-expect-error a plain JavaScript module of the test tooling, without types
import setup from '../../scripts/pg-global-setup.mjs';

const KEYS = ['FUND_AUDIT_TEST_DATABASE_URL', 'FUND_AUDIT_REQUIRE_PG', 'FUND_AUDIT_TEST_PG_MISSING'] as const;

describe('the PostgreSQL cluster of a test run', () => {
  let saved: Record<string, string | undefined>;
  beforeEach(() => {
    saved = Object.fromEntries(KEYS.map((k) => [k, process.env[k]]));
    for (const k of KEYS) delete process.env[k];
  });
  afterEach(() => {
    for (const k of KEYS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });
  const noBinaries = () => null;

  it('fails the run when PostgreSQL is required (CI) and not installed', async () => {
    process.env.FUND_AUDIT_REQUIRE_PG = '1';
    await expect(setup(undefined, noBinaries)).rejects.toThrow('FUND_AUDIT_REQUIRE_PG=1 but PostgreSQL is not installed (apt-get install -y postgresql)');
  });

  it('otherwise lets the PostgreSQL tests skip, saying why', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      expect(await setup(undefined, noBinaries)).toBeUndefined();
      expect(warn).toHaveBeenCalledWith('PostgreSQL tests skipped: PostgreSQL is not installed (apt-get install -y postgresql)');
    } finally {
      warn.mockRestore();
    }
    expect(process.env.FUND_AUDIT_TEST_PG_MISSING).toBe('PostgreSQL is not installed (apt-get install -y postgresql)');
  });

  it('uses a database server given in FUND_AUDIT_TEST_DATABASE_URL without starting one', async () => {
    process.env.FUND_AUDIT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:1/postgres';
    expect(await setup(undefined, noBinaries)).toBeUndefined();
    expect(process.env.FUND_AUDIT_TEST_PG_MISSING).toBeUndefined();
  });
});
