import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixturesDir } from '../../paths.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../../testing.js';
import { signinLink } from '../auth/session.js';
import { issueToken } from '../auth/tokens.js';
import { addUser } from '../users/users.js';
import { listAuditLog, recordAudit, verifyAuditLog } from './audit-log.js';

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
beforeEach(async () => {
  ctx = await createTestContext({ devToolsEnabled: true, devToolsLocal: true, impersonateEnabled: true });
  api = apiClient(ctx);
});
afterEach(() => ctx.dispose());

const actions = () =>
  listAuditLog(ctx, { limit: 1000 })
    .reverse()
    .map((e) => `${e.action} ${e.actorEmail ?? '-'} ${e.subject ?? '-'}`);

/** Someone with the database file in hand: the triggers that refuse changes are dropped first. */
function tamper(sql: string, ...params: unknown[]): void {
  ctx.sqlite.exec('DROP TRIGGER audit_log_no_update; DROP TRIGGER audit_log_no_delete;');
  ctx.sqlite.prepare(sql).run(...params);
}

describe('security audit log', () => {
  it('records sign-ins and failures, view switches, keys, impersonation, user changes, and mapping and fund deletions', async () => {
    const admin = ctx.boot.admin;
    const start = listAuditLog(ctx, { limit: 1000 }).length;
    const link = signinLink(ctx, admin, 'http://x').url.split('#')[1];
    const session = (await api.post('/api/sso/redeemToken', { token: link })).body.payload.token;
    expect((await api.post('/api/sso/redeemToken', { token: link })).status).toBe(401);
    await api.post('user/switch-role', { view: 'auditor' }, session);
    const token = sessionToken(ctx, admin.id);
    const ada = addUser(ctx, { email: 'ada@example.com', name: 'Ada Lovelace', role: 'Auditor' });
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

    expect(actions().slice(start)).toEqual([
      `sign-in admin@fund-audit.local user:${admin.id}`,
      'sign-in-failed - -',
      `view-switch admin@fund-audit.local user:${admin.id}`,
      `user-created - user:${ada.id}`,
      expect.stringMatching(/^key-generated admin@fund-audit\.local user:\d+$/),
      `impersonation admin@fund-audit.local user:${ada.id}`,
      `mapping-deleted admin@fund-audit.local mappings:${mapping.id}`,
      `fund-deleted admin@fund-audit.local funds:${fund}`,
    ]);
    const [failed] = listAuditLog(ctx, { limit: 1000 }).filter((e) => e.action === 'sign-in-failed');
    expect(failed?.details).toEqual({ method: 'sign-in link', reason: 'This sign-in link was already used; ask for a new one' });
    expect(verifyAuditLog(ctx)).toMatchObject({ ok: true, problems: [] });
  });

  it('is readable and exportable in the developer tools', async () => {
    recordAudit(ctx, { id: 1, email: 'admin@fund-audit.local' }, 'view-switch', 'user:1', { to: 'Auditor' });
    const token = sessionToken(ctx, ctx.boot.admin.id);
    const page = await api.get('dev-tools/audit-log?limit=1', token);
    expect(page.body.payload).toEqual([
      expect.objectContaining({ action: 'view-switch', details: { to: 'Auditor' }, hash: expect.stringMatching(/^[a-f0-9]{64}$/) }),
    ]);
    expect((await api.get('dev-tools/audit-log/verify', token)).body.payload).toMatchObject({ ok: true });
    const download = issueToken(ctx, ctx.boot.admin.id, 'download', 60_000).token;
    const res = await api.app.fetch(new Request(`http://test.local/api/v2.0/dev-tools/audit-log/export?token=${download}`));
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.jsonl"/);
    const lines = (await res.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.at(-1)).toMatchObject({ action: 'view-switch', actorEmail: 'admin@fund-audit.local' });
    expect(lines.every((l, i) => i === 0 || l.prevHash === lines[i - 1].hash)).toBe(true);
    const auditor = addUser(ctx, { email: 'aud@example.com', name: 'Ann Auditor', role: 'Auditor' });
    expect((await api.get('dev-tools/audit-log', sessionToken(ctx, auditor.id))).status).toBe(403);
  });

  it('refuses to change or remove an entry through the database', () => {
    recordAudit(ctx, null, 'sign-in-failed', null, { reason: 'test' });
    expect(() => ctx.sqlite.prepare("update audit_log set action = 'sign-in'").run()).toThrow(/append-only/);
    expect(() => ctx.sqlite.prepare('delete from audit_log').run()).toThrow(/append-only/);
  });

  it('finds an edited entry, a removed entry and a removed newest entry', () => {
    for (let i = 0; i < 5; i++) recordAudit(ctx, { id: 1, email: 'admin@fund-audit.local' }, 'view-switch', 'user:1', { n: i });
    const ids = listAuditLog(ctx, { limit: 1000 })
      .map((e) => e.id)
      .reverse();
    expect(verifyAuditLog(ctx).ok).toBe(true);
    const [a, b, , , last] = ids.slice(-5) as number[];
    tamper('update audit_log set details = \'{"n":99}\' where id = ?', a);
    expect(verifyAuditLog(ctx).problems).toEqual([`entry ${a} was changed (its content does not match its hash)`]);
    ctx.sqlite.prepare('delete from audit_log where id = ?').run(b);
    expect(verifyAuditLog(ctx).problems).toContain(`entries ${b} are missing (removed)`);
    ctx.sqlite.prepare('delete from audit_log where id = ?').run(last);
    expect(verifyAuditLog(ctx).problems).toContain(`entries ${last} are missing (removed)`);
    expect(verifyAuditLog(ctx).ok).toBe(false);
  });
});
