/**
 * The security audit log in Settings, Developer logs: the administrator's sign-in and a view switch
 * are listed, the hash chain checks out, and the export downloads JSON lines.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerHandle } from './harness';
import { SettingsPage } from './pages/dev-tools-page';
import { ShellPage } from './pages/shell-page';
import { openSignedIn } from './support/signed-in';

describe('security audit log in the developer tools', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ({ server, browser, page } = await openSignedIn({ config: { devToolsEnabled: true } }));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('lists the sign-in and a view switch, verifies the chain and exports it', async () => {
    const shell = new ShellPage(page);
    await shell.switchToAuditor();
    await expect.poll(() => page.locator('[data-frame]').getAttribute('data-frame')).toBe('auditor');
    await page.getByRole('button', { name: 'Switch to delivery team' }).click();
    await expect.poll(() => page.locator('[data-frame]').getAttribute('data-frame')).toBe('delivery');
    await shell.sider.getByRole('link', { name: 'Settings' }).click();
    await new SettingsPage(page).tab('Developer logs');
    const table = page.getByRole('table', { name: 'Security audit log' });
    await table.waitFor();
    const rows = await table.locator('tbody tr').allInnerTexts();
    const actions = rows.map((r) => r.split('\t')[2]);
    expect(actions.slice(0, 3)).toEqual(['view-switch', 'view-switch', 'sign-in']);
    expect(rows[2]).toContain('admin@fund-audit.local');

    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Intact' }).innerText()).toMatch(/Intact: \d+ entries, every hash matches\./);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.jsonl$/);
    const lines = readFileSync((await file.path()) as string, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.at(-1)).toMatchObject({ action: 'view-switch', actorEmail: 'admin@fund-audit.local' });
  });
});
