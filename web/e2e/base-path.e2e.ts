/**
 * The UI under a base path (`serve --base-path /fund-audit`): the sign-in link, the pages, the API
 * calls, the assets and the live socket all stay under the prefix; client routes keep it across
 * navigation and a reload.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newContext, screenshotPath } from './browser';
import { startServer, type ServerHandle } from './harness';
import { DashboardPage } from './pages/dashboard-page';
import { ShellPage } from './pages/shell-page';
import { SignInPage } from './pages/sign-in-page';

const BASE = '/fund-audit';

describe('served under a base path', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  const requested: string[] = [];
  const socketEvents: Array<{ url: string; event: string }> = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startServer({ args: ['--base-path', BASE] });
    browser = await launchBrowser();
    page = await (await newContext(browser)).newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    page.on('request', (r) => requested.push(r.url()));
    page.on('websocket', (ws) => {
      ws.on('framereceived', (frame) => {
        const event = (JSON.parse(String(frame.payload)) as { event?: string }).event ?? '';
        socketEvents.push({ url: ws.url(), event });
      });
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('signs in from the printed link, lists the funds and connects the live socket under the prefix', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/fund-audit$/);
    expect(server.signInLink.startsWith(`${server.url}/redeemToken/#`)).toBe(true);
    await new SignInPage(page).signIn(server.signInLink);
    const dash = new DashboardPage(page);
    await dash.title.waitFor();
    expect(new URL(page.url()).pathname.startsWith(`${BASE}/`)).toBe(true);
    expect(await dash.fundNames()).toContain('Goldman Sachs Bond Fund');

    const shell = new ShellPage(page);
    await expect.poll(() => shell.connection.getAttribute('data-state'), { timeout: 10_000 }).toBe('connected');
    await expect
      .poll(() => socketEvents.find((e) => e.event === 'connect')?.url ?? '', { timeout: 10_000 })
      .toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/fund-audit\/ws\?token=/);
    mkdirSync('/tmp/shots-base', { recursive: true });
    await page.screenshot({ path: join('/tmp/shots-base', 'dashboard-under-base-path.png') });
    await page.screenshot({ path: screenshotPath('base-path-dashboard.png') });
  });

  it('keeps the prefix on client routes, across a reload', async () => {
    const shell = new ShellPage(page);
    await shell.sider.getByRole('link', { name: 'Import files' }).click();
    await page.locator('.fa-import-grid').waitFor();
    const path = new URL(page.url()).pathname;
    expect(path.startsWith(`${BASE}/`)).toBe(true);
    await page.reload();
    await page.locator('.fa-import-grid').waitFor();
    expect(new URL(page.url()).pathname).toBe(path);
    await page.screenshot({ path: join('/tmp/shots-base', 'import-files-after-reload.png') });
  });

  it('asked nothing of the server outside the prefix', () => {
    const origin = new URL(server.url).origin;
    const outside = requested.filter((u) => u.startsWith(origin) && !new URL(u).pathname.startsWith(`${BASE}/`));
    expect(outside).toEqual([]);
    expect(requested.some((u) => u.startsWith(`${server.url}/api/`))).toBe(true);
    expect(requested.some((u) => u.startsWith(`${server.url}/assets/`))).toBe(true);
    expect(pageErrors).toEqual([]);
  });
});
