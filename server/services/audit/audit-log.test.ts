import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeEachDialect, openDialectDatabase, type DialectDatabase } from '../../db/dialect-testing.js';
import { storeOf } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import type { AppContext } from '../../context.js';
import { fixturesDir } from '../../paths.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../../testing.js';
import { signinLink } from '../auth/session.js';
import { issueToken } from '../auth/tokens.js';
import { addUser } from '../users/users.js';
import { exportAuditLog, listAuditLog, recordAudit, verifyAuditLog } from './audit-log.js';

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
beforeEach(async () => {
  ctx = await createTestContext({ devToolsEnabled: true, devToolsLocal: true, impersonateEnabled: true });
  api = apiClient(ctx);
});
afterEach(() => ctx.dispose());

const actions = async () => (await listAuditLog(ctx, { limit: 1000 })).reverse().map((e) => `${e.action} ${e.actorEmail ?? '-'} ${e.subject ?? '-'}`);

describe('security audit log in the running product (SQLite)', () => {
  it('records sign-ins and failures, view switches, keys, impersonation, user changes, and mapping and fund deletions', async () => {
    const admin = ctx.boot.admin;
    const start = (await listAuditLog(ctx, { limit: 1000 })).length;
    const link = (await signinLink(ctx, admin, 'http://x')).url.split('#')[1];
    const session = (await api.post('/api/sso/redeemToken', { token: link })).body.payload.token;
    expect((await api.post('/api/sso/redeemToken', { token: link })).status).toBe(401);
    await api.post('user/switch-role', { view: 'auditor' }, session);
    const token = await sessionToken(ctx, admin.id);
    const ada = await addUser(ctx, { email: 'ada@example.com', name: 'Ada Lovelace', role: 'Auditor' });
    await api.get('/api/v2.0/key/sweeper', token);
    await api.get(`/api/v2.0/dev-tools/user/key/${ada.id}/10h`, token);
    // a custom mapping, then its deletion
    const form = new FormData();
    for (const [k, v] of Object.entries({
      administrator: 'meridian_fund_services',
      mappingType: 'instrument_mapping',
      mappingMode: 'custom',
      mappingName: 'to_delete',
      rationale: 'test',
    }))
      form.append(k, v);
    const csv = readFileSync(join(fixturesDir(), 'tpas', 'meridian_fund_services', 'mappings', 'instrument_mapping.csv'));
    form.append('upload', new Blob([new Uint8Array(csv)]), 'instrument_mapping.csv');
    const mapping = (await api.call('POST', 'mappings/create', { token, body: form })).body.payload;
    expect((await api.post('mappings/delete', { id: mapping.id }, token)).status).toBe(200);
    const fund = (ctx.sqlite.prepare("select id from fund_requests where status <> 'Issued' order by id limit 1").get() as { id: number }).id;
    expect((await api.post('fund/remove', { ids: [fund] }, token)).status).toBe(200);

    expect((await actions()).slice(start)).toEqual([
      `sign-in admin@fund-audit.local user:${admin.id}`,
      'sign-in-failed - -',
      `view-switch admin@fund-audit.local user:${admin.id}`,
      `user-created - user:${ada.id}`,
      expect.stringMatching(/^key-generated admin@fund-audit\.local user:\d+$/),
      `impersonation admin@fund-audit.local user:${ada.id}`,
      `mapping-deleted admin@fund-audit.local mappings:${mapping.id}`,
      `fund-deleted admin@fund-audit.local funds:${fund}`,
    ]);
    const [failed] = (await listAuditLog(ctx, { limit: 1000 })).filter((e) => e.action === 'sign-in-failed');
    expect(failed?.details).toEqual({ method: 'sign-in link', reason: 'This sign-in link was already used; ask for a new one' });
    expect(await verifyAuditLog(ctx)).toMatchObject({ ok: true, problems: [] });
  });

  it('is readable and exportable in the developer tools', async () => {
    await recordAudit(ctx, { id: 1, email: 'admin@fund-audit.local' }, 'view-switch', 'user:1', { to: 'Auditor' });
    const token = await sessionToken(ctx, ctx.boot.admin.id);
    const page = await api.get('dev-tools/audit-log?limit=1', token);
    expect(page.body.payload).toEqual([
      expect.objectContaining({ action: 'view-switch', details: { to: 'Auditor' }, hash: expect.stringMatching(/^[a-f0-9]{64}$/) }),
    ]);
    expect((await api.get('dev-tools/audit-log/verify', token)).body.payload).toMatchObject({ ok: true });
    const download = (await issueToken(ctx, ctx.boot.admin.id, 'download', 60_000)).token;
    const res = await api.app.fetch(new Request(`http://test.local/api/v2.0/dev-tools/audit-log/export?token=${download}`));
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.jsonl"/);
    const lines = (await res.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.at(-1)).toMatchObject({ action: 'view-switch', actorEmail: 'admin@fund-audit.local' });
    expect(lines.every((l, i) => i === 0 || l.prevHash === lines[i - 1].hash)).toBe(true);
    const auditor = await addUser(ctx, { email: 'aud@example.com', name: 'Ann Auditor', role: 'Auditor' });
    expect((await api.get('dev-tools/audit-log', await sessionToken(ctx, auditor.id))).status).toBe(403);
  });
});

/** Runs a statement as someone with the database in hand would (no service rules). */
async function raw(c: AppContext, text: string): Promise<void> {
  const store = storeOf(c);
  if (store.dialect === 'postgres') await (store.db as unknown as { execute(q: unknown): Promise<unknown> }).execute(sql.raw(text));
  else c.sqlite.exec(text);
}

/** Someone with the database in hand: the triggers that refuse changes are dropped first. */
async function tamper(c: AppContext, statement: string): Promise<void> {
  const store = storeOf(c);
  await raw(
    c,
    store.dialect === 'postgres'
      ? 'DROP TRIGGER audit_log_no_update ON audit_log; DROP TRIGGER audit_log_no_delete ON audit_log'
      : 'DROP TRIGGER audit_log_no_update; DROP TRIGGER audit_log_no_delete;',
  );
  await raw(c, statement);
}

const admin = { id: 1, email: 'admin@fund-audit.local' };

describeEachDialect('security audit log', (dialect) => {
  let database: DialectDatabase;
  beforeEach(async () => {
    database = await openDialectDatabase(dialect);
  });
  afterEach(() => database.dispose());

  it('appends chained entries, read newest first by page and exported oldest first', async () => {
    const c = database.ctx;
    await recordAudit(c, null, 'sign-in-failed', null, { reason: 'expired link' });
    for (let i = 0; i < 3; i++) await recordAudit(c, admin, 'view-switch', 'user:1', { n: i });
    const newest = await listAuditLog(c, { limit: 2 });
    expect(newest.map((e) => [e.id, e.action, e.details])).toEqual([
      [4, 'view-switch', { n: 2 }],
      [3, 'view-switch', { n: 1 }],
    ]);
    expect((await listAuditLog(c, { before: 3 })).map((e) => e.id)).toEqual([2, 1]);
    const lines: Array<Record<string, unknown>> = [];
    for await (const line of exportAuditLog(c)) lines.push(JSON.parse(line));
    expect(lines.map((l) => l.id)).toEqual([1, 2, 3, 4]);
    expect(lines[0]).toMatchObject({
      actorId: null,
      actorEmail: null,
      action: 'sign-in-failed',
      details: { reason: 'expired link' },
      prevHash: '0'.repeat(64),
    });
    expect(lines.every((l, i) => i === 0 || l.prevHash === lines[i - 1]!.hash)).toBe(true);
    expect(await verifyAuditLog(c)).toEqual({ ok: true, entries: 4, problems: [] });
  });

  it('keeps one chain when two nodes append at once', async () => {
    const other = await database.open();
    await Promise.all(Array.from({ length: 10 }, (_, i) => recordAudit(i % 2 ? other : database.ctx, admin, 'view-switch', 'user:1', { n: i })));
    expect(await verifyAuditLog(database.ctx)).toEqual({ ok: true, entries: 10, problems: [] });
  });

  it('leaves no gap when an entry is rolled back with the change it recorded', async () => {
    const c = database.ctx;
    await recordAudit(c, admin, 'view-switch', 'user:1', { n: 1 });
    await expect(
      transaction(c, async () => {
        await recordAudit(c, admin, 'fund-deleted', 'funds:7');
        throw new Error('the deletion failed');
      }),
    ).rejects.toThrow('the deletion failed');
    expect(await verifyAuditLog(c)).toEqual({ ok: true, entries: 1, problems: [] });
    expect((await recordAudit(c, admin, 'view-switch', 'user:1', { n: 2 })).id).toBe(2);
    expect(await verifyAuditLog(c)).toEqual({ ok: true, entries: 2, problems: [] });
  });

  it('refuses to change or remove an entry through the database', async () => {
    const c = database.ctx;
    await recordAudit(c, null, 'sign-in-failed', null, { reason: 'test' });
    // node-postgres' error is the cause of drizzle's 'Failed query'
    const refusal = (statement: string) =>
      raw(c, statement).then(
        () => 'done',
        (err: Error) => `${err.message} ${(err.cause as Error | undefined)?.message ?? ''}`,
      );
    expect(await refusal("update audit_log set action = 'sign-in'")).toMatch(/append-only/);
    expect(await refusal('delete from audit_log')).toMatch(/append-only/);
  });

  it('finds an edited entry, a removed entry and a removed newest entry', async () => {
    const c = database.ctx;
    for (let i = 0; i < 5; i++) await recordAudit(c, admin, 'view-switch', 'user:1', { n: i });
    expect((await verifyAuditLog(c)).ok).toBe(true);
    await tamper(c, 'update audit_log set details = \'{"n":99}\' where id = 1');
    expect((await verifyAuditLog(c)).problems).toEqual(['entry 1 was changed (its content does not match its hash)']);
    await raw(c, 'delete from audit_log where id = 2');
    expect((await verifyAuditLog(c)).problems).toContain('entries 2 are missing (removed)');
    await raw(c, 'delete from audit_log where id = 5');
    expect((await verifyAuditLog(c)).problems).toContain('entries 5 are missing (removed)');
    expect((await verifyAuditLog(c)).ok).toBe(false);
    // the next entry follows the highest id ever given, not the last one left
    expect((await recordAudit(c, admin, 'view-switch', 'user:1')).id).toBe(6);
  });
});
