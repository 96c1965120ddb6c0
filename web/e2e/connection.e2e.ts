/**
 * The live socket: connected after sign-in, not connected while the server is down, and
 * connected again (with a refreshed token) once the server is back on the same address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newContext } from './browser';
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
    await expect.poll(state, { timeout: 10_000 }).not.toBe('connected');
    expect(['reconnecting', 'disconnected']).toContain(await state());

    server = await startServer({ dataDir, args: ['--port', port] });
    expect(new URL(server.url).port).toBe(port);
    await expect.poll(state, { timeout: 25_000, interval: 250 }).toBe('connected');
    expect(await shell.footerConnection.innerText()).toContain('connected');
  });
});
