/**
 * The live socket: connected after sign-in, 'reconnecting' while the server is down, and
 * connected again (with a refreshed token) once the server is back on the same address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newContext, screenshotPath } from './browser';
import { startServer, type ServerHandle } from './harness';
import { ShellPage } from './pages/shell-page';
import { SignInPage } from './pages/sign-in-page';

describe('connection indicator', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    page = await (await newContext(browser)).newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('reconnects after a server restart', async () => {
    const shell = new ShellPage(page);
    await new SignInPage(page).signIn(server.signInLink);
    const state = () => shell.connection.getAttribute('data-state');
    await expect.poll(state, { timeout: 10_000 }).toBe('connected');

    const port = new URL(server.url).port;
    const dataDir = server.dataDir;
    await server.stop({ keepDataDir: true });
    // while the server is away the indicator says it is reconnecting (between attempts)
    await expect.poll(state, { timeout: 10_000, interval: 100 }).toBe('reconnecting');
    expect(await shell.connection.innerText()).toContain('Reconnecting');
    await page.screenshot({ path: screenshotPath('connection-reconnecting.png') });

    server = await startServer({ dataDir, args: ['--port', port] });
    expect(new URL(server.url).port).toBe(port);
    await expect.poll(state, { timeout: 25_000, interval: 250 }).toBe('connected');
    expect(await shell.footerConnection.innerText()).toContain('connected');
  });
});
