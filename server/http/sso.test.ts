import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect, openDialectDatabase, type DialectDatabase } from '../testing/dialects.js';
import { storeOf } from '../db/dialect.js';
import { startTestIdp, type TestIdp } from '../testing/idp.js';
import { apiClient, createTestContext, type TestContext } from '../testing/context.js';
import { issueToken } from '../services/auth/tokens.js';
import { eq } from 'drizzle-orm';
import { listAuditLog } from '../services/audit/audit-log.js';
import { addUser } from '../services/users/users.js';
import type { AppContext } from '../context.js';

const APP = 'http://test.local';
let idp: TestIdp;
let ctx: TestContext;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  idp = await startTestIdp(APP, {
    ada: { email: 'ada@example.com', name: 'Ada Lovelace', groups: ['fa-admins', 'staff'] },
    carl: { email: 'carl@client.example', name: 'Carl Client', groups: ['fa-clients'] },
    nora: { email: 'nora@example.com', name: 'Nora Nobody', groups: ['staff'] },
  });
  ctx = await createTestContext({
    publicUrl: APP,
    oidcIssuer: idp.issuer,
    oidcClientId: idp.clientId,
    oidcClientSecret: idp.clientSecret,
    oidcScopes: 'openid email profile groups',
    oidcRolesClaim: 'groups',
    oidcRoleMap: { 'fa-admins': 'Admin', 'fa-auditors': 'Auditor', 'fa-clients': 'Client' },
  });
  api = apiClient(ctx);
});
afterAll(async () => {
  await ctx?.dispose();
  await idp?.close();
});

/** A browser's cookies for the provider, and following its redirects and login form by hand. */
class ProviderBrowser {
  private cookies = new Map<string, string>();
  private keep(res: Response): void {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [name, ...v] = (pair ?? '').split('=');
      if (name) this.cookies.set(name.trim(), v.join('='));
    }
  }
  private async go(url: string, init: RequestInit = {}): Promise<Response> {
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    this.keep(res);
    return res;
  }
  /** Follows the provider until it redirects to the application; logs in as `login` when asked. */
  async signIn(authorizationUrl: string, login: string): Promise<URL> {
    let url = authorizationUrl;
    let res = await this.go(url);
    for (let hop = 0; hop < 10; hop++) {
      if (res.status >= 300 && res.status < 400) {
        url = new URL(res.headers.get('location') ?? '', url).href;
        if (url.startsWith(APP)) return new URL(url);
        res = await this.go(url);
        continue;
      }
      const html = await res.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      if (!action) throw new Error(`no login form at ${url}: ${html.slice(0, 300)}`);
      url = new URL(action.replace(/&amp;/g, '&'), url).href;
      const body = new URLSearchParams({ prompt: 'login', login, password: 'any' });
      res = await this.go(url, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    }
    throw new Error('too many redirects');
  }
}

/** A raw one-time sign-in link token for a user (what `fund-audit users link` mails). */
async function signinToken(c: AppContext, userId: number): Promise<string> {
  return (await issueToken(c, userId, 'signin', 60_000)).token;
}

/** Starts a sign-in at the application: the provider's address and the flow cookie. */
async function start(): Promise<{ location: string; cookie: string }> {
  const res = await api.call('GET', '/api/sso/authorize');
  expect(res.status).toBe(302);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { location: res.headers.get('location') ?? '', cookie };
}

async function callback(url: URL, cookie: string): Promise<string> {
  const res = await api.call('GET', `/api/sso/callback${url.search}`, { headers: { cookie } });
  expect(res.status).toBe(302);
  return res.headers.get('location') ?? '';
}

async function sessionFromRedeem(location: string) {
  expect(location).toMatch(/^\/redeemToken\/#[\w-]{40,}$/);
  const redeemed = await api.post('/api/sso/redeemToken', { token: location.split('#')[1] });
  expect(redeemed.status).toBe(200);
  const login = await api.post('/api/sso/login', {}, redeemed.body.payload.token);
  return { token: redeemed.body.payload.token as string, user: login.body.payload.user };
}

describe('single sign-on through OpenID Connect', () => {
  it('tells the browser that /authenticate goes to the identity provider', async () => {
    const res = await api.get('/api/sso/providers');
    expect(res.body.payload).toEqual({ oidc: true, redirectUri: `${APP}/api/sso/callback` });
  });

  it('starts the Authorization Code flow with PKCE, a state and a nonce bound to the browser', async () => {
    const { location, cookie } = await start();
    const auth = new URL(location);
    expect(auth.origin).toBe(idp.issuer);
    expect(auth.searchParams.get('response_type')).toBe('code');
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(auth.searchParams.get('redirect_uri')).toBe(`${APP}/api/sso/callback`);
    expect(auth.searchParams.get('scope')).toBe('openid email profile groups');
    expect(auth.searchParams.get('nonce')).toBeTruthy();
    expect(cookie).toBe(`fa_sso=${auth.searchParams.get('state')}`);
  });

  it('creates the user from the claims with the role of its groups, and updates it at the next sign-in', async () => {
    const first = await start();
    const back = await new ProviderBrowser().signIn(first.location, 'ada');
    const { user } = await sessionFromRedeem(await callback(back, first.cookie));
    expect(user).toMatchObject({ email: 'ada@example.com', fullName: 'Ada Lovelace', role: 'Admin', originalRole: 'Admin' });

    (idp.users.get('ada') as { groups: string[] }).groups = ['fa-auditors'];
    (idp.users.get('ada') as { name: string }).name = 'Ada King';
    const second = await start();
    const again = await sessionFromRedeem(await callback(await new ProviderBrowser().signIn(second.location, 'ada'), second.cookie));
    expect(again.user).toMatchObject({ id: user.id, fullName: 'Ada King', role: 'Auditor', originalRole: 'Auditor' });
    const { db, tables: t } = storeOf(ctx);
    const [row] = await db.select().from(t.users).where(eq(t.users.id, user.id));
    expect(row?.externalId).toBe(`${idp.issuer} ada`);
  });

  it('sends a user the role map gives no role to /signup, and creates no user', async () => {
    const flow = await start();
    expect(await callback(await new ProviderBrowser().signIn(flow.location, 'nora'), flow.cookie)).toBe('/signup');
    const { db, tables: t } = storeOf(ctx);
    expect(await db.select().from(t.users).where(eq(t.users.email, 'nora@example.com'))).toEqual([]);
  });

  it('refuses a callback from another browser, a replayed callback and a changed state', async () => {
    const flow = await start();
    const back = await new ProviderBrowser().signIn(flow.location, 'carl');
    expect(await callback(back, '')).toBe('/unauthorized');
    expect(await callback(back, 'fa_sso=guessed')).toBe('/unauthorized');
    const changed = new URL(back);
    changed.searchParams.set('state', 'changed');
    expect(await callback(changed, flow.cookie)).toBe('/unauthorized');
    // the flow was used up by the refused attempt: the genuine answer cannot be replayed either
    expect(await callback(back, flow.cookie)).toBe('/unauthorized');
  });

  it("refuses the provider's error answer", async () => {
    const flow = await start();
    const state = new URL(flow.location).searchParams.get('state');
    expect(await callback(new URL(`${APP}/api/sso/callback?error=access_denied&state=${state}`), flow.cookie)).toBe('/unauthorized');
  });

  it("ends the provider's session at logout (RP-initiated logout back to /unauthorized)", async () => {
    const flow = await start();
    const back = await new ProviderBrowser().signIn(flow.location, 'carl');
    const { token, user } = await sessionFromRedeem(await callback(back, flow.cookie));
    expect(user.role).toBe('Client');
    const out = await api.post('/api/sso/logout', {}, token);
    const end = new URL(out.body.payload.endSessionUrl);
    expect(end.origin).toBe(idp.issuer);
    expect(end.searchParams.get('post_logout_redirect_uri')).toBe(`${APP}/unauthorized`);
    expect(end.searchParams.get('id_token_hint')).toMatch(/^ey/);
    expect((await api.post('/api/sso/login', {}, token)).status).toBe(401);
  });
});

/** Signs `login` in at the provider through `app`: where the callback sends the browser. */
async function signInThrough(app: ReturnType<typeof apiClient>, login: string): Promise<string> {
  const started = await app.call('GET', '/api/sso/authorize');
  const cookie = (started.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const back = await new ProviderBrowser().signIn(started.headers.get('location') ?? '', login);
  const res = await app.call('GET', `/api/sso/callback${back.search}`, { headers: { cookie } });
  return res.headers.get('location') ?? '';
}

/** The reason of the newest refused sign-in in the audit log. */
async function lastRefusal(c: AppContext): Promise<string> {
  const entry = (await listAuditLog(c)).find((e) => e.action === 'sign-in-failed');
  return String(entry?.details.reason ?? '');
}

async function userByEmail(c: AppContext, email: string) {
  const { db, tables: t } = storeOf(c);
  return (await db.select().from(t.users).where(eq(t.users.email, email)))[0];
}

describe('single sign-on and users made with the CLI', () => {
  it('never takes over a user made with the CLI while linking by e-mail is off, whatever the claims say', async () => {
    const cli = await addUser(ctx, { email: 'lena@example.com', name: 'Lena CLI', role: 'Auditor' });
    const cliSession = await api.post('/api/sso/redeemToken', { token: await signinToken(ctx, cli.id) });
    idp.users.set('lena', { email: 'lena@example.com', name: 'Lena Provider', groups: ['fa-admins'] });
    expect(await signInThrough(api, 'lena')).toBe('/unauthorized');
    expect(await lastRefusal(ctx)).toMatch(/lena@example\.com belongs to a user who signs in with sign-in links.*oidcLinkByEmail/);
    expect(await userByEmail(ctx, 'lena@example.com')).toMatchObject({ role: 'Auditor', originalRole: 'Auditor', externalId: null, firstName: 'Lena' });
    // no role either: the user's sessions are not ended by someone else's sign-in
    idp.users.set('lena', { email: 'lena@example.com', name: 'Lena Provider', groups: [] });
    expect(await signInThrough(api, 'lena')).toBe('/unauthorized');
    expect((await api.post('/api/sso/login', {}, cliSession.body.payload.token)).body.payload.user).toMatchObject({ role: 'Auditor' });
  });

  it("never moves a provider identity onto another user's e-mail (the first administrator's)", async () => {
    idp.users.set('otto', { email: 'otto@example.com', name: 'Otto Staff', groups: ['fa-clients'] });
    const first = await sessionFromRedeem(await signInThrough(api, 'otto'));
    expect(first.user).toMatchObject({ email: 'otto@example.com', role: 'Client' });
    // the provider lets Otto change his address to the administrator's
    const admin = ctx.boot.admin;
    idp.users.set('otto', { email: admin.email, name: 'Otto Staff', groups: ['fa-admins'] });
    expect(await signInThrough(api, 'otto')).toBe('/unauthorized');
    expect(await lastRefusal(ctx)).toBe(
      `The e-mail ${admin.email} belongs to another user of Fund Audit; this identity keeps otto@example.com until it is freed`,
    );
    expect(await userByEmail(ctx, admin.email)).toMatchObject({ id: admin.id, role: admin.role, externalId: null });
    expect(await userByEmail(ctx, 'otto@example.com')).toMatchObject({ role: 'Client' });
  });
});

describeEachDialect('single sign-on taking over users by e-mail (oidcLinkByEmail)', (dialect) => {
  let database: DialectDatabase;
  let app: ReturnType<typeof apiClient>;
  beforeAll(async () => {
    database = await openDialectDatabase(dialect, {
      publicUrl: APP,
      oidcIssuer: idp.issuer,
      oidcClientId: idp.clientId,
      oidcClientSecret: idp.clientSecret,
      oidcScopes: 'openid email profile groups',
      oidcRolesClaim: 'groups',
      oidcRoleMap: { 'fa-admins': 'Admin', 'fa-auditors': 'Auditor', 'fa-clients': 'Client', 'fa-root': 'Root' },
      oidcLinkByEmail: true,
    });
    app = apiClient(database.ctx);
  });
  afterAll(() => database?.dispose());

  it('takes over a user made with the CLI when the provider verified the e-mail, with the role of the claim', async () => {
    const c = database.ctx;
    const cli = await addUser(c, { email: 'vera@example.com', name: 'Vera CLI', role: 'Client' });
    idp.users.set('vera', { email: 'vera@example.com', name: 'Vera Verified', groups: ['fa-auditors'] });
    const location = await signInThrough(app, 'vera');
    expect(location).toMatch(/^\/redeemToken\/#/);
    const redeemed = await app.post('/api/sso/redeemToken', { token: location.split('#')[1] });
    expect((await app.post('/api/sso/login', {}, redeemed.body.payload.token)).body.payload.user).toMatchObject({
      id: cli.id,
      role: 'Auditor',
      fullName: 'Vera Verified',
    });
    expect((await userByEmail(c, 'vera@example.com'))?.externalId).toBe(`${idp.issuer} vera`);
    expect((await listAuditLog(c)).find((e) => e.action === 'user-linked')).toMatchObject({ subject: `user:${cli.id}` });
  });

  it('refuses an e-mail the provider has not verified', async () => {
    const c = database.ctx;
    await addUser(c, { email: 'una@example.com', name: 'Una CLI', role: 'Client' });
    idp.users.set('una', { email: 'una@example.com', name: 'Una Unverified', groups: ['fa-admins'], emailVerified: false });
    expect(await signInThrough(app, 'una')).toBe('/unauthorized');
    expect(await lastRefusal(c)).toBe('The identity provider has not verified the e-mail una@example.com, so it cannot sign in as the user who has it');
    expect(await userByEmail(c, 'una@example.com')).toMatchObject({ role: 'Client', externalId: null });
  });

  it("never takes over the first administrator, the adminEmail's user or a Root user", async () => {
    const c = database.ctx;
    const first = await addUser(c, { email: 'first-admin@example.com', name: 'First Admin', role: 'Admin' });
    const configured = await addUser(c, { email: c.config.adminEmail, name: 'Configured Admin', role: 'Admin' });
    const root = await addUser(c, { email: 'root@example.com', name: 'Root CLI', role: 'Root' });
    for (const [login, user, groups] of [
      ['mallory-first', first, ['fa-clients']],
      ['mallory-admin', configured, ['fa-admins']],
      ['mallory-root', root, ['fa-root']],
    ] as const) {
      idp.users.set(login, { email: user.email, name: 'Mallory', groups: [...groups] });
      expect(await signInThrough(app, login), login).toBe('/unauthorized');
      expect(await lastRefusal(c)).toMatch(/break-glass access/);
      expect(await userByEmail(c, user.email)).toMatchObject({ role: user.role, externalId: null, firstName: user.firstName });
    }
  });
});

describeEachDialect('single sign-on across nodes', (dialect) => {
  let database: DialectDatabase;
  let a: ReturnType<typeof apiClient>;
  let b: ReturnType<typeof apiClient>;
  beforeAll(async () => {
    database = await openDialectDatabase(dialect, {
      publicUrl: APP,
      oidcIssuer: idp.issuer,
      oidcClientId: idp.clientId,
      oidcClientSecret: idp.clientSecret,
      oidcScopes: 'openid email profile groups',
      oidcRolesClaim: 'groups',
      oidcRoleMap: { 'fa-admins': 'Admin', 'fa-auditors': 'Auditor', 'fa-clients': 'Client' },
    });
    a = apiClient(database.ctx);
    b = apiClient(await database.open());
  });
  afterAll(() => database?.dispose());

  it('finishes on one node a sign-in started on another, once', async () => {
    const started = await a.call('GET', '/api/sso/authorize');
    expect(started.status).toBe(302);
    const cookie = (started.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const back = await new ProviderBrowser().signIn(started.headers.get('location') ?? '', 'carl');
    const finished = await b.call('GET', `/api/sso/callback${back.search}`, { headers: { cookie } });
    const location = finished.headers.get('location') ?? '';
    expect(location).toMatch(/^\/redeemToken\/#[\w-]{40,}$/);
    const redeemed = await a.post('/api/sso/redeemToken', { token: location.split('#')[1] });
    expect((await b.post('/api/sso/login', {}, redeemed.body.payload.token)).body.payload.user).toMatchObject({
      email: 'carl@client.example',
      role: 'Client',
    });
    const replayed = await a.call('GET', `/api/sso/callback${back.search}`, { headers: { cookie } });
    expect(replayed.headers.get('location')).toBe('/unauthorized');
  });
});
