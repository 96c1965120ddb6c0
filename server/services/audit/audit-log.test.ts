import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeEachDialect, openDialectDatabase, type DialectDatabase } from '../../testing/dialects.js';
import { storeOf } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import type { AppContext } from '../../context.js';
import { fixturesDir } from '../../paths.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../../testing/context.js';
import { signinLink } from '../auth/session.js';
import { issueToken } from '../auth/tokens.js';
import { addUser } from '../users/users.js';
import { entryHash, exportAuditLog, GENESIS, listAuditLog, recordAudit, sealUnkeyedAuditLog, verifyAuditLog } from './audit-log.js';
import { HEAD_FILE, KEY_FILE } from './audit-key.js';

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
      expect.objectContaining({ action: 'view-switch', details: { to: 'Auditor' }, hash: expect.stringMatching(/^hmac-sha256:[a-f0-9]{64}$/) }),
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

/** The stored entries, oldest first, as hashed (details as stored text). */
async function storedRows(c: AppContext) {
  const { db, tables: t } = storeOf(c);
  return (await db.select().from(t.auditLog)).sort((a, b) => a.id - b.id);
}

/**
 * Someone with the database in hand (the triggers already dropped by `tamper`) rewrites the
 * chain from entry `from` on with `hash`, so that every entry follows the one before it.
 */
async function rewriteChain(c: AppContext, from: number, hash: (e: Parameters<typeof entryHash>[0]) => string): Promise<void> {
  const rows = await storedRows(c);
  const store = storeOf(c);
  let prev = rows.find((r) => r.id === from - 1)?.hash ?? GENESIS;
  for (const r of rows.filter((x) => x.id >= from)) {
    const next = hash({ ...r, prevHash: prev });
    await store.db.update(store.tables.auditLog).set({ prevHash: prev, hash: next }).where(sql`id = ${r.id}`);
    prev = next;
  }
}

describeEachDialect('the keyed audit log', (dialect) => {
  let database: DialectDatabase;
  beforeEach(async () => {
    database = await openDialectDatabase(dialect);
  });
  afterEach(() => database.dispose());

  it('keeps its key in a file of the data directory, readable by its owner only', async () => {
    const c = database.ctx;
    const entry = await recordAudit(c, admin, 'view-switch', 'user:1');
    expect(entry.hash).toMatch(/^hmac-sha256:[a-f0-9]{64}$/);
    const file = join(c.config.dataDir, KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(c.config.dataDir, HEAD_FILE), 'utf8')).toBe(`1 ${entry.hash}\n`);
  });

  it('finds an entry edited and the chain recomputed without the key, or with another key', async () => {
    const c = database.ctx;
    for (let i = 0; i < 4; i++) await recordAudit(c, admin, 'view-switch', 'user:1', { n: i });
    await tamper(c, `update audit_log set details = '{"n":99}' where id = 2`);
    // plain sha256, as the unkeyed log would have taken
    await rewriteChain(c, 2, (e) => entryHash(e));
    expect((await verifyAuditLog(c)).problems).toEqual([
      'entry 2 is not keyed although entries before it are (it was written or rewritten without the key)',
      'entry 3 is not keyed although entries before it are (it was written or rewritten without the key)',
      'entry 4 is not keyed although entries before it are (it was written or rewritten without the key)',
      'entry 4 is not the entry this node wrote with that id (it was replaced)',
      'the newest entry (4) is not keyed: the log was rewritten without the key, or the server has not started since the log became keyed',
    ]);
    // keyed, with a key of the attacker's
    await rewriteChain(c, 2, (e) => entryHash(e, Buffer.from('k'.repeat(32))));
    expect((await verifyAuditLog(c)).problems).toEqual([
      ...[2, 3, 4].map((id) => `entry ${id} was changed (its content does not match its hash)`),
      'entry 4 is not the entry this node wrote with that id (it was replaced)',
    ]);
  });

  it('finds a log cut short even when the counters of the highest id were reset too', async () => {
    const c = database.ctx;
    for (let i = 0; i < 5; i++) await recordAudit(c, admin, 'view-switch', 'user:1', { n: i });
    await tamper(
      c,
      dialect === 'postgres'
        ? "delete from audit_log where id > 3; update settings set value = '3' where key = 'audit-log-high-water'"
        : "delete from audit_log where id > 3; update sqlite_sequence set seq = 3 where name = 'audit_log'",
    );
    expect((await verifyAuditLog(c)).problems).toEqual(['entries 4-5 are missing (removed: this node wrote entry 5)']);
  });

  it('verifies a log written before it was keyed, seals it at start, and then finds its unkeyed entries rewritten', async () => {
    const c = database.ctx;
    const { db, tables: t } = storeOf(c);
    // three entries as the unkeyed log wrote them (plain sha256)
    let prev = GENESIS;
    for (let id = 1; id <= 3; id++) {
      const row = {
        id,
        at: `2026-01-0${id}T00:00:00.000Z`,
        actorId: 1,
        actorEmail: admin.email,
        action: 'sign-in',
        subject: 'user:1',
        details: '{}',
        prevHash: prev,
      };
      prev = entryHash(row);
      await db.insert(t.auditLog).values({ ...row, hash: prev });
    }
    if (dialect === 'postgres') await raw(c, "insert into settings (key, value, updated_at) values ('audit-log-high-water', '3', now()::text)");
    const seal = await sealUnkeyedAuditLog(c);
    expect(seal).toMatchObject({ id: 4, action: 'audit-log-keyed', prevHash: prev, details: { unkeyedEntries: 3, unkeyedIntact: true, problems: [] } });
    expect(await sealUnkeyedAuditLog(c)).toBeNull();
    await recordAudit(c, admin, 'view-switch', 'user:1');
    expect(await verifyAuditLog(c)).toEqual({ ok: true, entries: 5, problems: [] });
    // an unkeyed entry edited and the unkeyed chain recomputed: the seal no longer follows it
    await tamper(c, "update audit_log set actor_email = 'someone@example.com' where id = 2");
    const rows = await storedRows(c);
    let p = rows[0]!.hash;
    for (const r of rows.slice(1, 3)) {
      const h = entryHash({ ...r, prevHash: p });
      await db.update(t.auditLog).set({ prevHash: p, hash: h }).where(sql`id = ${r.id}`);
      p = h;
    }
    expect((await verifyAuditLog(c)).problems).toEqual(['entry 4 does not follow the entry before it (an entry before it was changed or removed)']);
  });

  it("names a key that is not the log's", async () => {
    await recordAudit(database.ctx, admin, 'view-switch', 'user:1');
    const elsewhere = await openDialectDatabase(dialect, { auditLogKey: 'x'.repeat(40) });
    try {
      expect(existsSync(join(elsewhere.ctx.config.dataDir, KEY_FILE))).toBe(false);
    } finally {
      await elsewhere.dispose();
    }
    database.ctx.config.auditLogKey = 'x'.repeat(40);
    expect((await verifyAuditLog(database.ctx)).problems).toEqual([
      'entry 1 was changed (its content does not match its hash)',
      expect.stringMatching(/^no keyed entry matches this node's audit-log key \(fingerprint [a-f0-9]{16}\)/),
    ]);
  });
});
