/**
 * Delivery Live mappings, a mapping's history on the demo data: a master mapping uploaded again
 * with changed rows becomes version 2; the grid shows the version and the funds it feeds; the
 * history dialog lists both versions (current marked, reason, rows) and the comparison names the
 * rows added, removed and changed.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { screenshotPath } from './browser';
import { repoRoot, type ServerHandle } from './harness';
import { ShellPage } from './pages/shell-page';
import { chooseByLabel } from './support/dropdown';
import { openSignedIn } from './support/signed-in';

const MAPPINGS = join(repoRoot, 'fixtures/tpas/demo_test/mappings');
const NAME = 'demo_test_instrument_mapping';

describe('delivery live mappings: history of a mapping', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const grid = () => page.locator('.fa-mappings-grid');
  const row = (text: string) => grid().locator('tbody tr', { hasText: text });
  const choose = (label: string, option: string) => chooseByLabel(page, label, option);

  beforeAll(async () => {
    ({ server, browser, page } = await openSignedIn({ pageErrors }));
    await new ShellPage(page).sider.getByRole('link', { name: 'Live mappings' }).click();
    await grid().locator('tbody tr').first().waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('a master mapping uploaded with changed rows becomes version 2', async () => {
    expect(await row(NAME).innerText()).toMatch(/instrument_mapping\s+master\s+demo_test_instrument_mapping/);
    const v1 = readFileSync(join(MAPPINGS, 'instrument_mapping.csv'), 'utf8');
    const v2 = `${v1.replace('BOND,DEBT,Bond', 'BOND,DEBT,Bond (any issuer)').trimEnd()}\nLOAN,LOAN,Bank loan\n`;
    const file = join(mkdtempSync(join(tmpdir(), 'fa-mapping-')), 'instrument_mapping.csv');
    writeFileSync(file, v2);
    await choose('Administrator', 'Demo TPA');
    await choose('Mapping type', 'instrument_mapping');
    await choose('Mode', 'Master (replace)');
    await page.getByLabel('Reason for the change').fill('loans are their own type');
    await page.getByTestId('custom-mapping-input').setInputFiles(file);
    await page.locator('.p-toast-message', { hasText: 'instrument_mapping.csv uploaded' }).waitFor();
    // the Version column moves to 2
    await expect.poll(async () => (await row(NAME).locator('td').allInnerTexts()).map((t) => t.trim())).toContain('2');
  });

  it('the history lists both versions and the comparison names the rows added and changed', async () => {
    await page.getByRole('button', { name: `History of ${NAME}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`History of ${NAME}`).waitFor();
    const versions = dialog.getByRole('table', { name: 'Versions' }).locator('tbody tr');
    await expect.poll(() => versions.count()).toBe(2);
    const [newest, oldest] = (await versions.allInnerTexts()).map((t) => t.split('\t').map((c) => c.trim()));
    expect(newest[0]).toBe('2 (current)');
    expect(newest[3]).toBe('loans are their own type');
    expect(oldest[0]).toBe('1');
    expect(oldest[3]).toBe('shipped demo mapping');
    expect(Number(newest[4])).toBe(Number(oldest[4]) + 1);
    await dialog.getByRole('button', { name: 'Compare' }).click();
    const diff = dialog.getByRole('region', { name: 'Changes from version 1 to version 2' });
    await diff.getByRole('status').waitFor();
    expect(await diff.getByRole('status').innerText()).toMatch(/^Version 1 to 2: 1 added, 0 removed, 1 changed, \d+ unchanged$/);
    const lines = (await diff.locator('tbody tr').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    expect(lines).toEqual(['Added loan source_code: LOAN, target_code: LOAN, description: Bank loan', 'Changed bond description: Bond → Bond (any issuer)']);
    await page.screenshot({ path: screenshotPath('delivery-mapping-history.png') });
    await page.keyboard.press('Escape');
    expect(pageErrors).toEqual([]);
  });
});
