/**
 * A delivery in local currency with an FX table, onboarded by an auditor in Chromium: the
 * Self-Onboarding wizard takes the Lakeside Fund Services mappings (a file layout with an FX table
 * layout) and the Goldman Sachs Bond Fund's delivery (N-PORT 2023-03-31: a valuation in local
 * currency only, its FX table and a TB in USD, Windows-1252 with decimal comma) through to a work
 * paper; then WAM Tools, Independent FX rates shows the shipped ECB history's last date, takes a
 * Fed H.10 file, refuses a file in no known layout naming why, and removes the upload after asking.
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { screenshotPath } from './browser';
import { repoRoot, type ServerHandle } from './harness';
import { AuditorPage } from './pages/auditor-page';
import { openSignedIn } from './support/signed-in';

const LAKESIDE = join(repoRoot, 'fixtures/local-currency/lakeside_fund_services');
const MAPPINGS = ['file_layout', 'account_mapping', 'instrument_mapping', 'transaction_mapping', 'share_capital_mapping'];

describe('a local-currency delivery with an FX table through the wizard, and the independent rates', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  let aud: AuditorPage;
  let dir: string;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fa-fx-'));
    for (const t of MAPPINGS) copyFileSync(join(LAKESIDE, 'mappings', `${t}.csv`), join(dir, `${t}.csv`));
    // the wizard takes each file named after its type
    copyFileSync(join(LAKESIDE, 'fund_request.csv'), join(dir, 'fund_request.csv'));
    copyFileSync(join(LAKESIDE, 'inputs/LFS_TB_S000013795_20230331.csv'), join(dir, 'trial_balance.csv'));
    copyFileSync(join(LAKESIDE, 'inputs/LFS_VALUATION_S000013795_20230331.csv'), join(dir, 'holdings.csv'));
    copyFileSync(join(LAKESIDE, 'inputs/LFS_FX_S000013795_20230331.csv'), join(dir, 'fx_rates.csv'));
    copyFileSync(join(repoRoot, 'fixtures/fx-sources/fed_h10_fx_monthly.csv'), join(dir, 'fed_h10_fx_monthly.csv'));
    writeFileSync(join(dir, 'rates.csv'), 'Currency;Rate Date;Rate\nCHF;31/03/2023;0,9146\n');

    ({ server, browser, page } = await openSignedIn({ user: { email: 'fx.auditor@example.com', name: 'Fay Auditor', role: 'Auditor' }, pageErrors }));
    aud = new AuditorPage(page);
    await aud.nav('WAM Tools');
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('onboards the TPA with its FX table layout and converts the valuation to a work paper', async () => {
    const wizard = page.getByTestId('self-onboarding');
    await wizard.getByRole('button', { name: 'Create new TPA' }).click();
    await wizard.getByLabel('TPA code').fill('lakeside_fund_services');
    await page.locator('#fa-sdm-code-check').getByText('New', { exact: false }).waitFor();
    await wizard.getByRole('button', { name: 'Next' }).click();
    const mappings = page.getByTestId('sdm-mappings');
    for (const t of MAPPINGS) {
      await page.getByTestId('sdm-mapping-input').setInputFiles(join(dir, `${t}.csv`));
      // 'not uploaded' contains 'uploaded': wait for the chip's own state
      await expect.poll(async () => (await page.getByTestId(`chip-${t}`).innerText()).trim()).toBe('uploaded');
    }
    await mappings.getByRole('button', { name: 'Validate' }).click();
    await expect.poll(() => page.getByTestId('chip-file_layout').innerText()).toContain('uploaded and valid');
    await mappings.getByRole('button', { name: 'Save & Next' }).click();

    const files = page.getByTestId('sdm-files');
    await files.getByText('No fund requests').waitFor();
    await page.getByTestId('sdm-file-input').setInputFiles(['fund_request.csv', 'trial_balance.csv', 'holdings.csv', 'fx_rates.csv'].map((f) => join(dir, f)));
    const sdmFiles = files.getByRole('table', { name: 'SDM files' });
    await sdmFiles.getByText('fx_rates.csv').waitFor();
    await sdmFiles.getByText('holdings.csv').waitFor();
    expect(await files.getByRole('region', { name: 'Failed files' }).count()).toBe(0);
    await page.screenshot({ path: screenshotPath('fx-self-onboarding-files.png'), fullPage: true });
    await files.getByRole('button', { name: 'Process' }).click();
    await page.getByTestId('sdm-finished').getByText('Manual Self-Onboarding finished').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('sdm-finished').innerText()).toContain('4 files of');

    // the pipeline identifies the FX table as its own type, converts the valuation and tests the rates
    const fund = () =>
      page.evaluate(async () => {
        const headers = { 'x-access-token': sessionStorage.getItem('fa.token') ?? '', 'content-type': 'application/json' };
        const list = await (
          await fetch('/api/v2.0/user/fundsByTpa', { method: 'POST', headers, body: JSON.stringify({ offset: 0, limit: 10, tpa: 'lakeside_fund_services' }) })
        ).json();
        const id = list.payload.rows[0]?.id;
        if (!id) return null;
        return (await (await fetch(`/api/v2.0/fund/${id}`, { headers })).json()).payload;
      });
    await expect.poll(async () => (await fund())?.workPapers.length ?? 0, { timeout: 90_000, interval: 1000 }).toBe(1);
    const d = await fund();
    expect(d.standardizationFiles.map((f: any) => [f.fileType, f.rowCount, f.validation_status]).sort()).toEqual([
      ['fx_rates', 23, 'Valid'],
      ['holdings', 1685, 'Valid'],
      ['trial_balance', 8, 'Valid'],
    ]);
    const fx = d.calculationFiles[0].validation.QA_Rec.filter((i: any) => i.check === 'fx_testing');
    // the ECB publishes neither CLP nor TWD: named per currency, never concluded on
    expect(fx.filter((i: any) => i.notPerformed).map((i: any) => i.name)).toEqual(['FX CLP', 'FX TWD']);
    expect(fx.find((i: any) => i.name === 'FX EUR').status).toBe('pass');
    expect(pageErrors).toEqual([]);
  });

  it('shows the shipped history to its last date, loads a Fed H.10 file, refuses a bad one and removes an upload after asking', async () => {
    await page.getByTestId('sdm-finished').getByRole('button', { name: 'Start a new self-onboarding' }).click();
    await page.getByRole('tab', { name: 'Independent FX rates' }).click();
    const panel = page.getByTestId('fx-rates');
    await panel.getByTestId('fx-shipped').waitFor();
    expect(await panel.getByTestId('fx-shipped').innerText()).toContain('from 02/01/2020 to 13/04/2026');
    expect(await panel.innerText()).toContain('more than 5 business days');

    await panel.getByTestId('fx-rates-input').setInputFiles(join(dir, 'fed_h10_fx_monthly.csv'));
    const ok = panel.getByRole('status');
    await ok.getByText(/^Loaded fed_h10_fx_monthly\.csv \(Fed H\.10\)/).waitFor({ timeout: 30_000 });
    expect(await ok.innerText()).toContain('01/01/1971 to 01/06/2026');
    const table = panel.getByRole('table', { name: 'Independent FX rate files' });
    // uploaded files come first: they are preferred to the shipped history
    await expect.poll(async () => (await table.locator('tbody tr').first().innerText()).split('\t')[0]).toBe('fed_h10_fx_monthly.csv');
    expect(await table.locator('tbody tr').count()).toBe(2);

    await panel.getByTestId('fx-rates-input').setInputFiles(join(dir, 'rates.csv'));
    const refused = panel.getByRole('alert');
    await refused.waitFor();
    expect(await refused.innerText()).toContain('rates.csv: not a file of independent rates');
    expect(await table.locator('tbody tr').count()).toBe(2);
    await page.screenshot({ path: screenshotPath('fx-rates-panel.png'), fullPage: true });

    await table.getByRole('button', { name: 'Remove fed_h10_fx_monthly.csv' }).click();
    const confirm = page.locator('.p-confirm-dialog');
    await confirm.getByText('Remove fed_h10_fx_monthly.csv? Funds calculated from now on no longer use its rates.').waitFor();
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await panel.getByRole('status').getByText('Removed fed_h10_fx_monthly.csv').waitFor();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    // the shipped history has no remove button
    expect(await table.getByRole('button').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
