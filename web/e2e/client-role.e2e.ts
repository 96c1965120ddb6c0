/**
 * A Client in the auditor frame: signed in with demo mode on, it stays signed in (no demo call it
 * would be refused is made, no widget is shown); without demo mode it is shown only the tabs it can
 * open (Home and WAM Wiki), and an address of a page it cannot use leads home, never to /unauthorized.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshotPath } from './browser';
import { addUserWithLink, startServer, type ServerHandle } from './harness';
import { ShellPage } from './pages/shell-page';
import { SignInPage } from './pages/sign-in-page';

describe('a Client user', () => {
  let browser: Browser;
  const servers: ServerHandle[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    for (const s of servers) await s.stop();
  });

  /** Signs a new Client in on the server; returns the page and the API calls refused to it. */
  async function signInClient(server: ServerHandle, email: string): Promise<{ page: Page; refused: string[] }> {
    const link = addUserWithLink(server, { email, name: 'Carla Client', role: 'Client' });
    const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    const refused: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 403) refused.push(`${r.request().method()} ${new URL(r.url()).pathname}`);
    });
    await new SignInPage(page).signIn(link);
    return { page, refused };
  }

  const tabs = async (page: Page) => (await new ShellPage(page).auditorTabs.getByRole('link').allInnerTexts()).map((t) => t.trim());

  it('stays signed in with demo mode on: no demo widget and no refused call', async () => {
    const server = await startServer(['--demo']);
    servers.push(server);
    const { page, refused } = await signInClient(server, 'carla@client.example');
    await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
    // give the frame's page-load calls time to answer
    await page.waitForLoadState('networkidle');
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.getByRole('complementary', { name: 'Live demo' }).count()).toBe(0);
    expect(await tabs(page)).toEqual(['Home', 'WAM Wiki', 'Scorecards', 'Open chases']);
    expect(refused).toEqual([]);
    await page.reload();
    await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(new URL(page.url()).pathname).toBe('/');
    await page.screenshot({ path: screenshotPath('client-demo-mode.png') });
  });

  it('is shown only the tabs it can open, and led home from the pages it cannot', async () => {
    const server = await startServer();
    servers.push(server);
    const email = 'carlo.bartholomew-vanderstraeten@investor-services.client-portfolio-administration.example';
    const { page, refused } = await signInClient(server, email);
    await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
    // an address too long for one line wraps after its '@' or before a '.', never inside a name (nor at its hyphens)
    const shell = new ShellPage(page);
    await shell.openProfile();
    const lines = await shell.profileEmailLines();
    expect(lines.join('')).toBe(email);
    expect(lines.length).toBeGreaterThan(1);
    lines.slice(1).forEach((line, i) => expect(line.startsWith('.') || lines[i].endsWith('@'), `${lines[i]} | ${line}`).toBe(true));
    await page.screenshot({ path: screenshotPath('client-profile-long-email.png') });
    await page.keyboard.press('Escape');
    expect(await tabs(page)).toEqual(['Home', 'WAM Wiki', 'Scorecards', 'Open chases']);
    expect(await page.getByText('Your access covers this page, the WAM Wiki, your scorecards and Open chases').count()).toBe(1);
    await new ShellPage(page).auditorTabs.getByRole('link', { name: 'WAM Wiki' }).click();
    await page.getByRole('tab', { name: 'Wiki' }).waitFor();
    for (const path of ['/data-platform', '/tools']) {
      await page.goto(`${server.url}${path}`);
      await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
      expect(new URL(page.url()).pathname, path).toBe('/');
    }
    await page.waitForLoadState('networkidle');
    expect(refused).toEqual([]);
    await page.screenshot({ path: screenshotPath('client-tabs.png') });
  });

  it("opens the onboarding guide from the wiki's 'Standard data model' link", async () => {
    const server = await startServer();
    servers.push(server);
    const { page, refused } = await signInClient(server, 'cleo@client.example');
    await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
    await new ShellPage(page).auditorTabs.getByRole('link', { name: 'WAM Wiki' }).click();
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: /Standard data model/ }).click();
    const guide = await download;
    expect(guide.suggestedFilename()).toBe('onboarding.md');
    expect(readFileSync((await guide.path()) as string, 'utf8')).toMatch(/^# Onboarding a TPA/);
    expect(refused).toEqual([]);
    await page.screenshot({ path: screenshotPath('client-wiki.png') });
  });
});
