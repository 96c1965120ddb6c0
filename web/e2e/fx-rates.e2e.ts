/**
 * The independent FX rates in Settings, Developer tools: the shipped ECB-derived rates and an ECB
 * history loaded with `fund-audit reference fx import`, each with the dates it covers.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli, type ServerHandle } from './harness';
import { SettingsPage } from './pages/dev-tools-page';
import { ShellPage } from './pages/shell-page';
import { openSignedIn } from './support/signed-in';

describe('independent FX rates in the developer tools', () => {
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

  it('shows which dates the loaded rates cover, including an imported ECB history', async () => {
    const out = runCli(server, ['reference', 'fx', 'import', join(repoRoot, 'fixtures', 'ecb', 'eurofxref-hist_2022-12_2024-02.csv')]);
    expect(out).toContain('on 319 dates from 2022-12-01 to 2024-02-29');
    await new ShellPage(page).sider.getByRole('link', { name: 'Settings' }).click();
    await new SettingsPage(page).tab('Developer tools');
    const table = page.getByRole('table', { name: 'Independent FX rates' });
    await table.waitFor();
    const rows = (await table.locator('tbody tr').allInnerTexts()).map((r) => r.split('\t').slice(0, 5));
    expect(rows).toEqual([
      ['eurofxref-hist_2022-12_2024-02.csv', 'ECB eurofxref-hist', '01/12/2022', '29/02/2024', '319'],
      ['eurofxref-hist_2020-onwards.csv', 'ECB eurofxref-hist', '02/01/2020', '13/04/2026', '1608'],
    ]);
  });
});
