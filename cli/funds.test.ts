import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bootstrap } from '../server/bootstrap.js';
import { createContext } from '../server/context.js';
import { startServer } from '../server/http/server.js';
import { issueToken } from '../server/services/auth/tokens.js';
import { UNCHANGED_WARNING } from '../server/services/funds/actions.js';
import { insertFund } from '../server/testing/fund-factory.js';
import { runCli, runCliAsync } from './testing/cli.js';

const env = { ...process.env, FUND_AUDIT_SEED_DEMO_DATA: 'false', CI: '1' };
const run = (args: string[]) => runCli(args, env);
const runAsync = (args: string[]) => runCliAsync(args, env);

/** A data directory with three funds: Pending, Approved (Open) and Issued. */
async function seeded() {
  const dir = mkdtempSync(join(tmpdir(), 'fa-funds-'));
  const ctx = await createContext({ dataDir: dir, flags: { seedDemoData: false, logLevel: 'silent' }, terminalLog: false });
  await bootstrap(ctx);
  const ids = [
    (await insertFund(ctx, { name: 'Pending Fund', client: 'Orion', fundCode: 'PND1', requestDate: '2025-03-01' })).id,
    (await insertFund(ctx, { name: 'Open Fund', client: 'Helix', status: 'Approved', fundCode: 'OPN2', requestDate: '2025-02-01' })).id,
    (await insertFund(ctx, { name: 'Issued Fund', client: 'Helix', status: 'Issued', fundCode: 'ISS3', requestDate: '2025-01-01' })).id,
  ];
  ctx.close();
  return { dir, ids };
}

describe('fund-audit funds', () => {
  it('documents the exit codes in the action help', async () => {
    const r = run(['funds', 'approve', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Exit codes: 0 when every fund moved, 3 when any fund did not move/);
  });

  it('lists funds as a table or JSON, filtered by status and search', async () => {
    const { dir, ids } = await seeded();
    const plain = run(['-d', dir, 'funds', 'list']);
    expect(plain.status).toBe(0);
    expect(plain.stdout).toMatch(/^id\s+fund code\s+name\s+client\s+administrator\s+status\s+period end\s+data due\s+data status/);
    expect(plain.stdout).toMatch(/Open Fund\s+Helix\s+Open/);
    expect(plain.stdout).toMatch(/1-3 of 3 fund requests/);
    const json = run(['-d', dir, 'funds', 'list', '--json', '--status', 'Open', 'Issued', '--limit', '1']);
    expect(json.status).toBe(0);
    const out = JSON.parse(json.stdout);
    // the first of two pages: an exact count, and a cursor to the second page only
    expect(out.pagination).toEqual({ offset: 0, limit: 1, count: 2, countCapped: false, next: expect.any(String), previous: null });
    expect(out.rows.map((r: any) => [r.id, r.fundCode, r.statusLabel])).toEqual([[ids[1], 'OPN2', 'Open']]);
    const search = JSON.parse(run(['-d', dir, '--json', 'funds', 'list', '--search', 'pnd']).stdout);
    expect(search.rows.map((r: any) => r.name)).toEqual(['Pending Fund']);
    expect(run(['-d', dir, 'funds', 'list', '--limit', '0']).status).toBe(3);
  });

  it('approve exits 0 when every fund moved, 3 with * and the warning when some did not, 4 for unknown ids', async () => {
    const { dir, ids } = await seeded();
    const all = run(['-d', dir, 'funds', 'approve', String(ids[0]), String(ids[2])]);
    expect(all.status).toBe(0);
    expect(all.stdout).toMatch(new RegExp(`${ids[0]}\\s+Open\\s+yes`));
    expect(all.stdout).not.toContain('Warning!');
    const some = run(['-d', dir, 'funds', 'decline', String(ids[0]), String(ids[1])]);
    expect(some.status).toBe(3);
    expect(some.stdout).toMatch(new RegExp(`${ids[0]}\\s+Open \\*\\s+no`));
    expect(some.stdout).toContain(UNCHANGED_WARNING);
    const json = run(['-d', dir, '--json', 'funds', 'remove', String(ids[0])]);
    expect(json.status).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ funds: [{ id: ids[0], status: 'Deleted', statusLabel: 'Deleted', isStatusUnChanged: false }] });
    const undo = JSON.parse(run(['-d', dir, '--json', 'funds', 'undo-delete', String(ids[0])]).stdout);
    expect(undo.funds[0].status).toBe('Approved');
    const unknown = run(['-d', dir, 'funds', 'close', '999']);
    expect(unknown.status).toBe(4);
    expect(unknown.stderr).toMatch(/No such fund request with id: 999/);
    expect(run(['-d', dir, 'funds', 'close', 'abc']).status).toBe(3);
  });

  it('works the same against a server with --server and --token', async () => {
    const { dir, ids } = await seeded();
    const ctx = await createContext({ dataDir: dir, flags: { logLevel: 'silent' }, terminalLog: false });
    const admin = (await bootstrap(ctx)).admin;
    const server = await startServer(ctx, { host: '127.0.0.1', port: 0 });
    try {
      const key = (await issueToken(ctx, admin.id, 'api', 60_000)).token;
      const list = await runAsync(['--server', server.url, '--token', key, '--json', 'funds', 'list', '--status', 'Pending']);
      expect(list.status).toBe(0);
      expect(JSON.parse(list.stdout).rows.map((r: any) => r.id)).toEqual([ids[0]]);
      const pause = await runAsync(['--server', server.url, '--token', key, 'funds', 'pause', String(ids[1]), String(ids[0])]);
      expect(pause.status).toBe(3);
      expect(pause.stdout).toMatch(new RegExp(`${ids[1]}\\s+Paused\\s+yes`));
      expect(pause.stdout).toContain(UNCHANGED_WARNING);
      const denied = await runAsync(['--server', server.url, '--token', 'wrong', 'funds', 'list']);
      expect(denied.status).toBe(6);
    } finally {
      await server.close();
      ctx.close();
    }
  });
});
