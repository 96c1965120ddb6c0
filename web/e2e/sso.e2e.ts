/**
 * Single sign-on in the browser against a real OpenID Connect provider on this machine: sign-in
 * through the provider, the role from its groups claim, a new tab signed in by the provider's
 * session, the view switch of one tab leaving the other alone, logout ending the provider's
 * session, a role changed at the provider applied at the next sign-in, a Client not offered the
 * delivery view, a user without a role on /signup, a rejected link leaving to the provider, a
 * tampered state or nonce on /unauthorized, and no Content-Security-Policy violation on the way.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startTestIdp, type TestIdp } from '../../server/testing/idp';
import { launchBrowser, newContext, screenshotPath } from './browser';
import { sessionOf, startServer, type ServerHandle } from './harness';
import { IdentityProviderPage } from './pages/identity-provider-page';
import { MessagePages } from './pages/message-pages';
import { ShellPage } from './pages/shell-page';
import { SignInPage } from './pages/sign-in-page';

describe('single sign-on through OpenID Connect', () => {
  let idp: TestIdp;
  let server: ServerHandle;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const cspViolations: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    const port = await freePort();
    const appUrl = `http://127.0.0.1:${port}`;
    idp = await startTestIdp(appUrl, {
      ada: { email: 'ada@example.com', name: 'Ada Lovelace', groups: ['fa-admins'] },
      carl: { email: 'carl@client.example', name: 'Carl Client', groups: ['fa-clients'] },
      nora: { email: 'nora@example.com', name: 'Nora Nobody', groups: ['staff'] },
    });
    const dataDir = mkdtempSync(join(tmpdir(), 'fund-audit-e2e-'));
    writeFileSync(
      join(dataDir, 'config.json'),
      JSON.stringify({
        publicUrl: appUrl,
        oidcIssuer: idp.issuer,
        oidcClientId: idp.clientId,
        oidcClientSecret: idp.clientSecret,
        oidcScopes: 'openid email profile groups',
        oidcRoleMap: { 'fa-admins': 'Admin', 'fa-auditors': 'Auditor', 'fa-clients': 'Client' },
      }),
    );
    server = await startServer({ dataDir, args: ['--port', String(port)] });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await idp?.close();
  });

  /** A new page in a new or given browser context, watched for CSP violations and page errors. */
  async function openPage(context?: BrowserContext): Promise<Page> {
    let ctx = context;
    if (!ctx) {
      ctx = await newContext(browser);
      contexts.push(ctx);
    }
    const page = await ctx.newPage();
    page.on('console', (m) => {
      if (/Content.Security.Policy/i.test(m.text())) cspViolations.push(`${page.url()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    return page;
  }

  const path = (page: Page) => new URL(page.url()).pathname;
  const fromIdp = (page: Page) => new URL(page.url()).origin === idp.issuer;

  let first: Page;
  let second: Page;

  it('goes from a protected page to the provider, back through the privacy notice, with the role of the groups claim', async () => {
    first = await openPage();
    await first.goto(`${server.url}/`);
    const provider = new IdentityProviderPage(first);
    await provider.loginInput.waitFor();
    expect(fromIdp(first)).toBe(true);
    await first.screenshot({ path: screenshotPath('sso-provider-sign-in.png') });
    await provider.signIn('ada');
    const signIn = new SignInPage(first);
    await signIn.privacyDialog.waitFor();
    expect(path(first)).toBe('/login');
    await first.screenshot({ path: screenshotPath('sso-privacy-notice.png') });
    await signIn.scrollPrivacyToBottom();
    await signIn.acceptButton.click();
    expect(await new ShellPage(first).frameKind()).toBe('delivery');
    expect(path(first)).toBe('/');
    await first.screenshot({ path: screenshotPath('sso-signed-in.png') });
    const { user } = await sessionOf(first, server.url);
    expect(user).toMatchObject({ email: 'ada@example.com', fullName: 'Ada Lovelace', role: 'Admin', originalRole: 'Admin' });
  });

  it('signs a new tab in through the provider session, without a link or a login form, on the page it opened', async () => {
    second = await openPage(first.context());
    const asked: string[] = [];
    second.on('request', (r) => asked.push(r.url()));
    await second.goto(`${server.url}/export`);
    expect(await new ShellPage(second).frameKind()).toBe('delivery');
    await expect.poll(() => path(second)).toBe('/export');
    expect(asked.some((u) => u.startsWith(`${idp.issuer}/auth`))).toBe(true);
    expect(asked.some((u) => u.includes('/interaction/'))).toBe(false);
    const tokens = await Promise.all([first, second].map((p) => p.evaluate(() => sessionStorage.getItem('fa.token'))));
    expect(tokens[0]).not.toBe(tokens[1]);
  });

  it("switches the view of one tab only: the other tab's session keeps the Admin role", async () => {
    const shell = new ShellPage(second);
    await shell.switchToAuditor();
    await expect.poll(() => second.locator('[data-frame]').getAttribute('data-frame')).toBe('auditor');
    await expect.poll(async () => (await sessionOf(second, server.url)).user.role).toBe('Auditor');
    expect((await sessionOf(first, server.url)).user).toMatchObject({ role: 'Admin', originalRole: 'Admin' });
    await first.reload();
    expect(await new ShellPage(first).frameKind()).toBe('delivery');
  });

  it('logs out at the provider too, and applies a role changed at the provider at the next sign-in', async () => {
    const token = await first.evaluate(() => sessionStorage.getItem('fa.token'));
    (idp.users.get('ada') as { groups: string[] }).groups = ['fa-auditors'];
    await new ShellPage(first).logout();
    const provider = new IdentityProviderPage(first);
    await provider.signOutButton.waitFor();
    expect(fromIdp(first)).toBe(true);
    await provider.signOutButton.click();
    const messages = new MessagePages(first);
    await messages.unauthorizedMessage.waitFor();
    expect(path(first)).toBe('/unauthorized');
    expect(await first.evaluate(() => sessionStorage.getItem('fa.token'))).toBeNull();
    const old = await fetch(`${server.url}/api/sso/login`, { method: 'POST', headers: { 'x-access-token': token ?? '' } });
    expect(old.status).toBe(401);

    await messages.unauthorizedMessage.getByRole('link', { name: 'click here' }).click();
    await provider.signIn('ada'); // the provider's session ended: it asks again
    expect(await new ShellPage(first).frameKind()).toBe('auditor');
    expect((await sessionOf(first, server.url)).user).toMatchObject({ email: 'ada@example.com', role: 'Auditor', originalRole: 'Auditor' });
  });

  it('does not offer a Client the delivery view', async () => {
    const page = await openPage();
    await page.goto(`${server.url}/`);
    await new IdentityProviderPage(page).signIn('carl');
    const signIn = new SignInPage(page);
    await signIn.privacyDialog.waitFor();
    await signIn.scrollPrivacyToBottom();
    await signIn.acceptButton.click();
    const shell = new ShellPage(page);
    expect(await shell.frameKind()).toBe('auditor');
    await shell.auditorTabs.waitFor();
    expect(await page.getByRole('button', { name: 'Switch to delivery team' }).count()).toBe(0);
    expect((await sessionOf(page, server.url)).user).toMatchObject({ role: 'Client', originalRole: 'Client' });
  });

  it('sends a user whom the role map gives no role to /signup', async () => {
    const page = await openPage();
    await page.goto(`${server.url}/`);
    await new IdentityProviderPage(page).signIn('nora');
    await page.getByText('You do not currently have access to the WAMapps portal.').waitFor();
    expect(path(page)).toBe('/signup');
    await page.screenshot({ path: screenshotPath('sso-no-role-signup.png') });
    expect(await page.evaluate(() => sessionStorage.getItem('fa.token'))).toBeNull();
  });

  it('leaves a rejected sign-in link to the identity provider, which signs the user in', async () => {
    const page = await openPage();
    await page.goto(`${server.url}/redeemToken/#not-a-valid-link`);
    await new IdentityProviderPage(page).signIn('carl');
    expect(await new ShellPage(page).frameKind()).toBe('auditor');
    expect((await sessionOf(page, server.url)).user).toMatchObject({ email: 'carl@client.example' });
  });

  it.each(['state', 'nonce'])('refuses a sign-in whose %s was tampered with on the way to the provider', async (param) => {
    const page = await openPage();
    // The redirect to the provider is changed on its way (a redirect's next request cannot be routed itself).
    await page.route(`${server.url}/api/sso/authorize`, async (route) => {
      const response = await route.fetch({ maxRedirects: 0 });
      const location = new URL(response.headers().location ?? '');
      location.searchParams.set(param, `${location.searchParams.get(param)}x`);
      await route.fulfill({ response, headers: { ...response.headers(), location: location.href } });
    });
    await page.goto(`${server.url}/`);
    await new IdentityProviderPage(page).signIn('carl');
    await new MessagePages(page).unauthorizedMessage.waitFor();
    expect(path(page)).toBe('/unauthorized');
    expect(await page.evaluate(() => sessionStorage.getItem('fa.token'))).toBeNull();
  });

  it('met no Content-Security-Policy violation and no page error in the application', () => {
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
