/**
 * Users and sign-in on both databases: the first start's administrator and fixed filters, users
 * with unique e-mail addresses, sign-in links redeemed once for sessions, view switches, privacy
 * acceptance, single sign-on users and service keys.
 */
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { bootstrap } from '../../bootstrap.js';
import { storeOf } from '../../db/dialect.js';
import { describeEachDialect, openDialectDatabase } from '../../testing/dialects.js';
import { ConflictError, NotFoundError, UnauthorizedError, ValidationError } from '../../errors.js';
import { apiClient, createTestContext, errorOf, type TestContext } from '../../testing/context.js';
import { listAuditLog } from '../audit/audit-log.js';
import { generateServiceKey } from '../dev-tools/keys.js';
import { readiness } from '../health/health.js';
import { addUser, ensureAdmin, getUserByEmail, listUsers } from '../users/users.js';
import { acceptPrivacy, getSession, logout, redeemSigninToken, signinLink, switchView } from './session.js';
import { upsertSsoUser } from './sso-users.js';
import { hashToken, issueToken, revokeToken, revokeUserTokens, tokenOwnerOf, verifyToken, withTokenLookups } from './tokens.js';

describeEachDialect('users and sign-in', (dialect) => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext({ dialect, seedDemoData: false });
  });
  afterEach(() => ctx.dispose());

  it('prepares the first administrator and the fixed filters once; user filters start at 1000', async () => {
    expect(ctx.boot).toMatchObject({ adminCreated: true, demoSeeded: false, admin: { email: 'admin@fund-audit.local', role: 'Admin' } });
    const again = await bootstrap(ctx);
    expect(again.adminCreated).toBe(false);
    expect(again.admin.id).toBe(ctx.boot.admin.id);
    const { db, tables: t } = storeOf(ctx);
    expect((await db.select().from(t.savedFilters).orderBy(t.savedFilters.id)).map((f) => [f.id, f.title, f.fixed])).toEqual([
      [1, 'Pending', true],
      [2, 'Open', true],
      [3, 'Deleted', true],
    ]);
    const [mine] = await db.insert(t.savedFilters).values({ title: 'Mine', filter: {}, userId: ctx.boot.admin.id }).returning();
    expect(mine?.id).toBe(1000);
    expect((await readiness(ctx)).checks.migrations.ok).toBe(true);
  });

  it('keeps e-mail addresses unique in any case and says which is missing', async () => {
    const ada = await addUser(ctx, { email: ' Ada@Example.com ', name: 'Ada  King Lovelace', role: 'Auditor' });
    expect(ada).toMatchObject({ email: 'ada@example.com', username: 'ada', firstName: 'Ada', lastName: 'King Lovelace', role: 'Auditor', disabled: false });
    const dup = await errorOf(() => addUser(ctx, { email: 'ADA@example.com', name: 'Other', role: 'Client' }));
    expect(dup).toBeInstanceOf(ConflictError);
    expect(dup.message).toBe('A user with e-mail ada@example.com already exists');
    const bad = await errorOf<ValidationError>(() => addUser(ctx, { email: 'nope', name: '', role: 'Boss' as never }));
    expect(bad.errors).toHaveLength(3);
    expect((await getUserByEmail(ctx, 'ADA@EXAMPLE.COM')).id).toBe(ada.id);
    expect(await errorOf(() => getUserByEmail(ctx, 'bob@example.com'))).toBeInstanceOf(NotFoundError);
    expect((await listUsers(ctx)).map((u) => u.email)).toEqual(['admin@fund-audit.local', 'ada@example.com']);
    expect((await listAuditLog(ctx)).map((e) => e.action)).toContain('user-created');
  });

  it('redeems a sign-in link once for a session that ends at logout', async () => {
    const link = await signinLink(ctx, ctx.boot.admin, 'https://audit.example.com/');
    expect(link.url).toMatch(/^https:\/\/audit\.example\.com\/redeemToken\/#[\w-]{43}$/);
    const raw = link.url.split('#')[1] as string;
    const session = await redeemSigninToken(ctx, raw);
    expect((await errorOf(() => redeemSigninToken(ctx, raw))).message).toBe('This sign-in link was already used; ask for a new one');
    const { user } = await verifyToken(ctx, session.token, ['session']);
    expect(user.id).toBe(ctx.boot.admin.id);
    expect((await errorOf(() => verifyToken(ctx, session.token, ['api']))).message).toBe('The token is not valid');
    expect(await logout(ctx, session.token)).toEqual({ idToken: null });
    expect((await errorOf(() => verifyToken(ctx, session.token, ['session']))).message).toBe('The token was revoked');
    const expired = await issueToken(ctx, ctx.boot.admin.id, 'session', -1);
    expect(await errorOf(() => verifyToken(ctx, expired.token, ['session']))).toBeInstanceOf(UnauthorizedError);
    const actions = (await listAuditLog(ctx)).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['sign-in', 'sign-in-failed']));
  });

  it('signs in over HTTP and tells the session which database runs it', async () => {
    const api = apiClient(ctx);
    const link = await signinLink(ctx, ctx.boot.admin, 'http://x');
    const redeemed = await api.post('/api/sso/redeemToken', { token: link.url.split('#')[1] });
    expect(redeemed.status).toBe(200);
    const login = await api.post('/api/sso/login', {}, redeemed.body.payload.token);
    expect(login.status).toBe(200);
    expect(login.body.payload.user.email).toBe('admin@fund-audit.local');
    const database = login.body.payload.config.dependencies.find((d: { name: string }) => d.name === (dialect === 'postgres' ? 'postgresql' : 'sqlite'));
    expect(database?.version).toMatch(/^\d+\.\d+/);
  });

  it("reads a request's token once for all its checks, again after the request changes it, and afresh for the next request", async () => {
    const { token } = await issueToken(ctx, ctx.boot.admin.id, 'session', 60_000);
    const { db, tables: t } = storeOf(ctx);
    // another node revokes the token while a request is between its checks: the request's checks agree with its first one
    await withTokenLookups(async () => {
      expect(await tokenOwnerOf(ctx, token)).toMatchObject({ kind: 'session', email: 'admin@fund-audit.local' });
      await db
        .update(t.tokens)
        .set({ revokedAt: new Date().toISOString() })
        .where(eq(t.tokens.tokenHash, hashToken(token)));
      expect((await verifyToken(ctx, token, ['session'])).user.id).toBe(ctx.boot.admin.id);
    });
    // the next request reads it again
    await withTokenLookups(async () => {
      expect((await errorOf(() => verifyToken(ctx, token, ['session']))).message).toBe('The token was revoked');
    });
    // a request that revokes its own token (logout) is refused by any check after it
    const second = (await issueToken(ctx, ctx.boot.admin.id, 'session', 60_000)).token;
    await withTokenLookups(async () => {
      await verifyToken(ctx, second, ['session']);
      await revokeToken(ctx, second);
      expect((await errorOf(() => verifyToken(ctx, second, ['session']))).message).toBe('The token was revoked');
    });
  });

  it('switches the view of one session only, and ends the sessions of a disabled user', async () => {
    const first = await issueToken(ctx, ctx.boot.admin.id, 'session', 60_000);
    const second = await issueToken(ctx, ctx.boot.admin.id, 'session', 60_000);
    const auditor = await switchView(ctx, ctx.boot.admin, first.token, 'auditor');
    expect(auditor.user).toMatchObject({ role: 'Auditor', originalRole: 'Admin' });
    expect((await verifyToken(ctx, first.token, ['session'])).user.role).toBe('Auditor');
    expect((await verifyToken(ctx, second.token, ['session'])).user.role).toBe('Admin');
    const back = await switchView(ctx, (await verifyToken(ctx, first.token, ['session'])).user, first.token, 'delivery');
    expect(back.user.role).toBe('Admin');
    expect((await getSession(ctx, ctx.boot.admin)).config.dependencies.map((d) => d.name)).toContain(dialect === 'postgres' ? 'postgresql' : 'sqlite');
    await revokeUserTokens(ctx, ctx.boot.admin.id, ['session']);
    expect((await errorOf(() => verifyToken(ctx, second.token, ['session']))).message).toBe('The token was revoked');
    const { db, tables: t } = storeOf(ctx);
    await db.update(t.users).set({ disabled: true }).where(eq(t.users.id, ctx.boot.admin.id));
    const api = await issueToken(ctx, ctx.boot.admin.id, 'api', 60_000);
    expect((await errorOf(() => verifyToken(ctx, api.token, ['api']))).message).toBe('The user of this token is disabled');
  });

  it('records the privacy notice version with its acceptance, refusing another version', async () => {
    const bad = await errorOf(() => acceptPrivacy(ctx, ctx.boot.admin, '0.9'));
    expect(bad).toBeInstanceOf(ValidationError);
    const accepted = await acceptPrivacy(ctx, ctx.boot.admin, undefined);
    expect(accepted.accepted_privacy_version).toBe(ctx.config.privacyStatementVersion);
    const { db, tables: t } = storeOf(ctx);
    expect((await db.select().from(t.privacyAcceptances)).map((a) => [a.userId, a.version])).toEqual([[ctx.boot.admin.id, ctx.config.privacyStatementVersion]]);
    expect((await getUserByEmail(ctx, 'admin@fund-audit.local')).acceptedPrivacyVersion).toBe(ctx.config.privacyStatementVersion);
  });

  it('creates single sign-on users from their claims, follows their role and links a user made before only when allowed', async () => {
    const claims = { issuer: 'https://idp.example.com', sub: 'u-1', email: 'Cy@Example.com', name: 'Cy Young', preferred_username: 'cy' };
    const created = await upsertSsoUser(ctx, claims, 'DeliveryTeamMember');
    expect(created).toMatchObject({ email: 'cy@example.com', username: 'cy', firstName: 'Cy', lastName: 'Young', role: 'DeliveryTeamMember' });
    expect(created?.externalId).toBe('https://idp.example.com u-1');
    const promoted = await upsertSsoUser(ctx, { ...claims, email: 'cy.young@example.com' }, 'Admin');
    expect(promoted).toMatchObject({ id: created?.id, email: 'cy.young@example.com', role: 'Admin', originalRole: 'Admin' });
    const session = await issueToken(ctx, created?.id as number, 'session', 60_000);
    expect(await upsertSsoUser(ctx, claims, null)).toBeNull();
    expect((await errorOf(() => verifyToken(ctx, session.token, ['session']))).message).toBe('The token was revoked');
    const cli = await addUser(ctx, { email: 'dee@example.com', name: 'Dee', role: 'Auditor' });
    const dee = { issuer: 'https://idp.example.com', sub: 'u-2', email: 'dee@example.com', email_verified: true };
    // linking by e-mail is off by default: the CLI's user keeps its role
    expect((await errorOf(() => upsertSsoUser(ctx, dee, 'Admin'))).message).toMatch(/oidcLinkByEmail/);
    expect((await getUserByEmail(ctx, 'dee@example.com')).role).toBe('Auditor');
    ctx.config.oidcLinkByEmail = true;
    expect((await errorOf(() => upsertSsoUser(ctx, { ...dee, email_verified: 'true' }, 'Auditor'))).message).toMatch(/has not verified/);
    expect((await errorOf(() => upsertSsoUser(ctx, { ...dee, sub: 'u-9', email: 'admin@fund-audit.local' }, 'Client'))).message).toMatch(/break-glass/);
    const linked = await upsertSsoUser(ctx, dee, 'Auditor');
    expect(linked?.id).toBe(cli.id);
    const other = await errorOf(() => upsertSsoUser(ctx, { issuer: 'https://idp.example.com', sub: 'u-3', email: 'dee@example.com' }, 'Auditor'));
    expect(other.message).toBe('The e-mail dee@example.com belongs to another single sign-on identity');
    expect((await errorOf(() => upsertSsoUser(ctx, { issuer: 'i', sub: 's' }, 'Auditor'))).message).toBe(
      'The identity provider sent no e-mail address for this user',
    );
    expect((await listUsers(ctx)).map((u) => u.email)).toEqual(['admin@fund-audit.local', 'cy.young@example.com', 'dee@example.com']);
  });

  it('hands out one working key per service, revoking the earlier ones', async () => {
    const first = await generateServiceKey(ctx, ctx.boot.admin, 'sweeper');
    const again = await generateServiceKey(ctx, ctx.boot.admin, 'sweeper');
    expect(again).toMatchObject({ userId: first.userId, revoked: 1, email: 'sweeper@service.fund-audit.local' });
    expect((await errorOf(() => verifyToken(ctx, first.token, ['api']))).message).toBe('The token was revoked');
    expect((await verifyToken(ctx, again.token, ['api'])).user.role).toBe('DeliveryTeamMember');
  });
});

describeEachDialect('the first administrator', (dialect) => {
  it('is created once when two nodes start on one database at the same time', async () => {
    const database = await openDialectDatabase(dialect);
    try {
      const other = await database.open();
      const [a, b] = await Promise.all([ensureAdmin(database.ctx, 'admin@example.com'), ensureAdmin(other, 'admin@example.com')]);
      expect(a.user.id).toBe(b.user.id);
      expect([a.created, b.created].sort()).toEqual([false, true]);
      expect((await listUsers(database.ctx)).map((u) => u.email)).toEqual(['admin@example.com']);
    } finally {
      await database.dispose();
    }
  });
});

describeEachDialect('a sign-in link redeemed by many requests at once', (dialect) => {
  it('gives exactly one session, whichever of two nodes the 20 requests reach', async () => {
    const database = await openDialectDatabase(dialect);
    try {
      const nodes = [apiClient(database.ctx), apiClient(await database.open())];
      const { user } = await ensureAdmin(database.ctx, 'admin@example.com');
      const link = await signinLink(database.ctx, user, 'https://audit.example.com');
      const token = link.url.split('#')[1];
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => nodes[i % 2]!.post('/api/sso/redeemToken', { token })));
      const sessions = answers.filter((a) => a.status === 200);
      expect(sessions).toHaveLength(1);
      expect(answers.filter((a) => a.status === 401).map((a) => a.body.errors)).toEqual(
        Array.from({ length: 19 }, () => ['This sign-in link was already used; ask for a new one']),
      );
      const { db, tables: t } = storeOf(database.ctx);
      expect((await db.select().from(t.tokens).where(eq(t.tokens.kind, 'session'))).map((s) => s.userId)).toEqual([user.id]);
      const login = await nodes[0]!.post('/api/sso/login', {}, sessions[0]!.body.payload.token);
      expect(login.body.payload.user.email).toBe('admin@example.com');
    } finally {
      await database.dispose();
    }
  });
});
