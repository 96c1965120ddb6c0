/**
 * `fund-audit contacts` and `fund-audit chase` from the built CLI, on a SQLite data directory and
 * on PostgreSQL (`--database-url`, `--blob-dir`): a bad address is refused naming it, a contact is
 * added, changed and removed, the demo's contacts carry no made-up names, a TPA's schedule is set
 * and reset, and a dry run prints what would be mailed and writes nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPgTestDatabase, describeEachDialect } from '../server/testing/dialects.js';
import { runCliAsync, type CliResult } from './testing/cli.js';

describeEachDialect('fund-audit contacts and chase', (dialect) => {
  let root: string;
  let args: string[];
  let drop = async () => {};
  const env = { FUND_AUDIT_DATABASE_URL: '', FUND_AUDIT_BLOB_DIR: '', FUND_AUDIT_LOG_LEVEL: 'warn', FUND_AUDIT_DEMO_DELIVERIES: 'false' };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'fund-audit-cli-chasing-'));
    args = ['-d', root];
    if (dialect === 'postgres') {
      const database = await createPgTestDatabase();
      drop = database.drop;
      args = [...args, '--database-url', database.url, '--blob-dir', join(root, 'blobs')];
    }
    const init = await runCliAsync([...args, 'init'], env);
    expect(init.status, init.stderr).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await drop();
    rmSync(root, { recursive: true, force: true });
  });

  const cli = (...rest: string[]): Promise<CliResult> => runCliAsync([...args, ...rest], env);
  const json = async <T>(...rest: string[]): Promise<T> => {
    const r = await cli('--json', ...rest);
    expect(r.status, `${rest.join(' ')}: ${r.stderr}${r.stdout}`).toBe(0);
    return JSON.parse(r.stdout) as T;
  };
  type Contact = { id: number; full_name: string; email: string; role: string; source: string };

  it('refuses a bad address naming it, and adds, changes and removes a contact', async () => {
    const bad = await cli('contacts', 'add', '--tpa', 'meridian_fund_services', '--email', 'ops@meridian');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain("'ops@meridian' has no Internet domain after the @ (e.g. example.com)");
    const added = await json<Contact>('contacts', 'add', '--tpa', 'meridian_fund_services', '--email', 'ops@meridian.example.com', '--name', 'Ops Desk');
    expect(added).toMatchObject({ full_name: 'Ops Desk', email: 'ops@meridian.example.com', role: 'data', source: 'manual' });
    expect(await json<Contact>('contacts', 'update', String(added.id), '--role', 'escalation')).toMatchObject({ role: 'escalation' });
    const list = await json<Contact[]>('contacts', 'list', '--tpa', 'meridian_fund_services');
    // the demo's contacts have no name: the demo data names no one
    expect(list.map((c) => [c.email, c.full_name, c.source])).toEqual(
      expect.arrayContaining([
        ['meridian.reports@example.com', '', 'bulk-upload'],
        ['escalations@meridian-fund-services.example.com', '', 'demo'],
        ['ops@meridian.example.com', 'Ops Desk', 'manual'],
      ]),
    );
    expect((await cli('contacts', 'remove', String(added.id))).stdout).toBe(`Contact ${added.id} removed\n`);
    expect((await json<Contact[]>('contacts', 'list', '--tpa', 'meridian_fund_services')).map((c) => c.email)).not.toContain('ops@meridian.example.com');
  }, 60_000);

  it("sets a TPA's schedule and resets it, and a dry run says what would go out without writing", async () => {
    expect((await cli('chase', 'schedule', 'keystone_admin', '--offsets', '-5,0,5')).stdout).toBe(
      'keystone_admin: reminders on days -5, 0, 5 of the due date, escalation from late reminder 2 (its own schedule)\n',
    );
    expect(await json('chase', 'schedule', 'keystone_admin', '--reset')).toMatchObject({ offsets: [-3, 0, 3, 7], source: 'install' });
    const outboxBefore = await json<unknown[]>('chase', 'outbox');
    const dry = await json<{ dryRun: boolean; runId: number | null; counts: { funds: number } }>('chase', '--dry-run');
    expect(dry).toMatchObject({ dryRun: true, runId: null });
    expect(dry.counts.funds).toBeGreaterThan(0);
    expect(await json<unknown[]>('chase', 'outbox')).toEqual(outboxBefore);
  }, 60_000);
});
