/**
 * A sign-in refused by the rate limits (too many attempts from one network address) lands on a
 * page saying why and when to try again, for single sign-on and for the one-time link, never on
 * the raw JSON 429; once the time has come, its button takes the user back the way they came (the
 * same link, whose token was not used).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startTestIdp, type TestIdp } from '../../server/testing/idp';
import { launchBrowser, screenshotPath } from './browser';
import { addUserWithLink, startServer, type ServerHandle } from './harness';
import { IdentityProviderPage } from './pages/identity-provider-page';

describe('a rate-limited sign-in', () => {
  let browser: Browser;
  let idp: TestIdp | undefined;
  const servers: ServerHandle[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    for (const s of servers) await s.stop();
    await idp?.close();
  });

  /** A page of a new browser context (own session storage) whose clock can be moved on. */
  async function freshPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.clock.install();
    return context.newPage();
  }

  /** The page's text, checked to be the explanation (not a JSON answer). */
  async function expectBlockedPage(page: Page): Promise<string> {
    await page.getByRole('heading', { name: 'Sign-in paused' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/sign-in-blocked');
    const text = (await page.locator('main').innerText()).replace(/\s+/g, ' ');
    expect(text).toContain('Too many sign-in attempts came from your network address');
    expect(text).toMatch(/Try again at \d\d:\d\d:\d\d \(in (\d+ seconds?|1 minute)\)\./);
    expect(await page.content()).not.toContain('"success":false');
    return text;
  }

  it('through single sign-on explains the block and offers to sign in again once the time has come', async () => {
    const port = await freePort();
    const appUrl = `http://127.0.0.1:${port}`;
    idp = await startTestIdp(appUrl, { ada: { email: 'ada@example.com', name: 'Ada Lovelace', groups: ['fa-admins'] } });
    const dataDir = mkdtempSync(join(tmpdir(), 'fund-audit-e2e-'));
    writeFileSync(
      join(dataDir, 'config.json'),
      JSON.stringify({
        publicUrl: appUrl,
        oidcIssuer: idp.issuer,
        oidcClientId: idp.clientId,
        oidcClientSecret: idp.clientSecret,
        oidcScopes: 'openid email profile groups',
        oidcRoleMap: { 'fa-admins': 'Admin' },
        rateLimitSignInPerMinute: 1,
      }),
    );
    const server = await startServer({ dataDir, args: ['--port', String(port)] });
    servers.push(server);
    // the address's one sign-in start of the minute
    const first = await freshPage();
    await first.goto(`${server.url}/`);
    await new IdentityProviderPage(first).loginInput.waitFor();

    const blocked = await freshPage();
    await blocked.goto(`${server.url}/`);
    await expectBlockedPage(blocked);
    const again = blocked.getByRole('button', { name: 'Sign in again' });
    expect(await again.isDisabled()).toBe(true);
    await blocked.screenshot({ path: screenshotPath('sign-in-blocked-sso.png') });
    // a reload keeps counting down to the same time
    const before = await blocked.getByTestId('sign-in-blocked-when').innerText();
    await blocked.reload();
    expect((await blocked.getByTestId('sign-in-blocked-when').innerText()).slice(0, 22)).toBe(before.slice(0, 22));
    await blocked.clock.fastForward('01:05');
    await blocked.getByText('You can try again now.').waitFor();
    expect(await again.isEnabled()).toBe(true);
  });

  it('through a one-time link explains the block and reopens the same link once the time has come', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fund-audit-e2e-'));
    writeFileSync(join(dataDir, 'config.json'), JSON.stringify({ rateLimitSignInPerMinute: 1 }));
    const server = await startServer({ dataDir });
    servers.push(server);
    const first = await freshPage();
    await first.goto(server.signInLink);
    await first.getByRole('dialog', { name: 'Privacy notice' }).waitFor();

    const link = addUserWithLink(server, { email: 'ann@example.com', name: 'Ann Auditor', role: 'Auditor' });
    const blocked = await freshPage();
    await blocked.goto(link);
    const text = await expectBlockedPage(blocked);
    expect(text).toContain('Your sign-in link was not used');
    const reopen = blocked.getByRole('button', { name: 'Open my sign-in link again' });
    expect(await reopen.isDisabled()).toBe(true);
    await blocked.screenshot({ path: screenshotPath('sign-in-blocked-link.png') });
    await blocked.clock.fastForward('01:05');
    await blocked.getByText('You can try again now.').waitFor();
    // the server's minute has not passed: the same link is refused again, and kept again
    const redeemed = blocked.waitForRequest((r) => r.url().endsWith('/api/sso/redeemToken'));
    await reopen.click();
    await redeemed;
    await expectBlockedPage(blocked);
    expect(await blocked.evaluate(() => sessionStorage.getItem('fa.blockedLink'))).toBe(link);
  });
});
