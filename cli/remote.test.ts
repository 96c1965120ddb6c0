import { mkdtempSync } from 'node:fs';
import { createServer as createNetServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bootstrap } from '../server/bootstrap.js';
import { createContext } from '../server/context.js';
import { startServer } from '../server/http/server.js';
import { issueToken } from '../server/services/auth/tokens.js';
import { insertFund } from '../server/testing/fund-factory.js';
import { freePort } from '../server/testing/idp.js';
import { runCliAsync } from './testing/cli.js';

const env = { FUND_AUDIT_SEED_DEMO_DATA: 'false', FUND_AUDIT_SERVER: '', FUND_AUDIT_TOKEN: '' };
const run = (args: string[], extra: NodeJS.ProcessEnv = {}) => runCliAsync(args, { ...env, ...extra });

/** A data directory with one Pending fund, opened for an in-process server, and an Admin API key. */
async function install() {
  const dir = mkdtempSync(join(tmpdir(), 'fa-remote-'));
  const ctx = await createContext({ dataDir: dir, flags: { seedDemoData: false, logLevel: 'silent' }, terminalLog: false });
  const admin = (await bootstrap(ctx)).admin;
  const fund = await insertFund(ctx, { name: 'Pending Fund', client: 'Orion', fundCode: 'PND1', requestDate: '2025-03-01' });
  return { ctx, fund, key: (await issueToken(ctx, admin.id, 'api', 60_000)).token };
}

/** A TCP server that accepts every connection, reads the request and closes without an answer. */
async function hangingUp(): Promise<{ url: string; connections: () => number; close: () => Promise<unknown> }> {
  let count = 0;
  const server: Server = createNetServer((socket) => {
    count++;
    socket.once('data', () => socket.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    connections: () => count,
    close: () => new Promise((r) => server.close(r)),
  };
}

describe('fund-audit remote mode', { timeout: 90_000 }, () => {
  it('takes the server and key from FUND_AUDIT_SERVER and FUND_AUDIT_TOKEN; flags win', async () => {
    const { ctx, fund, key } = await install();
    const server = await startServer(ctx, { host: '127.0.0.1', port: 0 });
    try {
      const byEnv = await run(['--json', 'funds', 'list'], { FUND_AUDIT_SERVER: server.url, FUND_AUDIT_TOKEN: key });
      expect(byEnv.status).toBe(0);
      const byFlags = await run(['--server', server.url, '--token', key, '--json', 'funds', 'list']);
      expect(JSON.parse(byEnv.stdout)).toEqual(JSON.parse(byFlags.stdout));
      expect(JSON.parse(byEnv.stdout).rows.map((r: { id: number }) => r.id)).toEqual([fund.id]);

      const wrongToken = await run(['--token', 'wrong', 'funds', 'list'], { FUND_AUDIT_SERVER: server.url, FUND_AUDIT_TOKEN: key });
      expect(wrongToken.status).toBe(6);
      const nowhere = `http://127.0.0.1:${await freePort()}`;
      const otherServer = await run(['--server', nowhere, 'funds', 'list'], { FUND_AUDIT_SERVER: server.url, FUND_AUDIT_TOKEN: key });
      expect(otherServer.stderr).toContain(`Cannot reach ${nowhere}: ECONNREFUSED`);

      // an explicit --data-dir keeps the command local: an empty folder has no fund requests
      const empty = mkdtempSync(join(tmpdir(), 'fa-remote-local-'));
      const local = await run(['-d', empty, '--json', 'funds', 'list'], { FUND_AUDIT_SERVER: nowhere, FUND_AUDIT_TOKEN: key });
      expect(local.status).toBe(0);
      expect(JSON.parse(local.stdout).rows).toEqual([]);

      const noToken = await run(['funds', 'list'], { FUND_AUDIT_SERVER: server.url });
      expect(noToken.status).toBe(6);
      expect(noToken.stderr).toMatch(/--server needs --token KEY \(or FUND_AUDIT_TOKEN\)/);
    } finally {
      await server.close();
      ctx.close();
    }
  });

  it('retries a refused connection with backoff until the server is up', async () => {
    const { ctx, fund, key } = await install();
    const port = await freePort();
    const started = Date.now();
    const pending = run(['--server', `http://127.0.0.1:${port}`, '--token', key, '--json', 'funds', 'list']);
    // the CLI starts, tries at once and again 0.5 s, 1.5 s and 3.5 s later; the server is up after 2 s
    await new Promise((r) => setTimeout(r, 2000));
    const server = await startServer(ctx, { host: '127.0.0.1', port });
    try {
      const list = await pending;
      expect(list.stderr).toBe('');
      expect(list.status).toBe(0);
      expect(JSON.parse(list.stdout).rows.map((r: { id: number }) => r.id)).toEqual([fund.id]);
      expect(Date.now() - started).toBeGreaterThan(2000);
    } finally {
      await server.close();
      ctx.close();
    }
  });

  it('gives up after 4 attempts when nothing listens', async () => {
    const port = await freePort();
    const started = Date.now();
    const r = await run(['--server', `http://127.0.0.1:${port}`, '--token', 'k', 'funds', 'list']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`Cannot reach http://127.0.0.1:${port}: ECONNREFUSED (after 4 attempts)`);
    expect(r.stderr).toMatch(/check the --server URL and that the server is running/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3500);
  });

  it('retries reads on a dropped connection, but never sends a status change twice', async () => {
    const server = await hangingUp();
    try {
      const read = await run(['--server', server.url, '--token', 'k', 'funds', 'list']);
      expect(read.status).toBe(1);
      expect(read.stderr).toMatch(/Cannot reach .*: UND_ERR_SOCKET \(after 4 attempts\)/);
      expect(server.connections()).toBe(4);

      const mappings = await run(['--server', server.url, '--token', 'k', 'mappings', 'list']);
      expect(mappings.stderr).toMatch(/\(after 4 attempts\)/);
      expect(server.connections()).toBe(8);

      const approve = await run(['--server', server.url, '--token', 'k', 'funds', 'approve', '1']);
      expect(approve.status).toBe(1);
      expect(approve.stderr).toMatch(/UND_ERR_SOCKET; the request may have been carried out, check before sending it again/);
      expect(server.connections()).toBe(9);
    } finally {
      await server.close();
    }
  });
});
