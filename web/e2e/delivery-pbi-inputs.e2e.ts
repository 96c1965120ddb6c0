/**
 * PowerBI inputs on a server with `pbiInputs` on: the drop zone waits for an input type; a csv
 * without the type's columns is refused with the server's message and missing columns; a good csv
 * is stored, its download address with the SAS token is shown once and serves the file, and the
 * grid shows it with the token masked; 10 files per page, newest first; the page is absent where
 * PowerBI inputs are off.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { newContext, screenshotPath } from './browser';
import { startServer, type ServerHandle } from './harness';
import { PbiInputsPage } from './pages/pbi-inputs-page';
import { ShellPage } from './pages/shell-page';
import { SignInPage } from './pages/sign-in-page';
import { openSignedIn } from './support/signed-in';

const FUND_MAPPING = 'fund_code,administrator,engagement_code\nS000013795,meridian_fund_services,E-2023-001\nS000012000,keystone_admin,E-2023-002\n';

describe('PowerBI inputs', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  let pbi: PbiInputsPage;
  const files = mkdtempSync(join(tmpdir(), 'fund-audit-pbi-'));
  const file = (name: string, text: string) => {
    writeFileSync(join(files, name), text);
    return join(files, name);
  };
  const pageErrors: string[] = [];

  beforeAll(async () => {
    ({ server, browser, page } = await openSignedIn({ config: { pbiInputs: true }, pageErrors }));
    pbi = new PbiInputsPage(page);
    await new ShellPage(page).sider.getByRole('link', { name: 'PowerBI Inputs' }).click();
    await page.getByRole('heading', { name: 'PowerBI Inputs' }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('waits for an input type before taking a file, and shows the columns the type needs', async () => {
    await pbi.grid.getByText('No PowerBI inputs uploaded').waitFor();
    expect(await pbi.fileInput.isDisabled()).toBe(true);
    expect(await page.locator('.fa-upload').innerText()).toContain('Choose an input type first.');
    await pbi.chooseType('Fund mapping');
    expect(await pbi.fileInput.isDisabled()).toBe(false);
    expect(await page.getByTestId('pbi-type-help').innerText()).toContain('Columns needed: fund_code, administrator, engagement_code.');
  });

  it("refuses a csv without the type's columns, naming the missing ones", async () => {
    await pbi.upload(file('funds-wrong.csv', 'fund_code,engagement_code\nS000013795,E-1\n'));
    const toast = pbi.toast('funds-wrong.csv does not fit the input type Fund mapping');
    await toast.waitFor();
    expect(await toast.innerText()).toContain('Column administrator is missing');
    expect(await pbi.rows.count()).toBe(0);
  });

  it('stores a good csv, shows its download address once and lists it with the token masked', async () => {
    await pbi.upload(file('fund-mapping.csv', FUND_MAPPING));
    await pbi.toast('fund-mapping.csv uploaded').waitFor();
    const address = await pbi.savedAddress('fund-mapping.csv').inputValue();
    expect(address).toMatch(new RegExp(`^${server.url}/api/v2.0/pbi-inputs/file/\\d+\\?token=[\\w-]{43}$`));
    // PowerBI reads the file with the address alone, no session
    const res = await fetch(address);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(FUND_MAPPING);
    const token = new URL(address).searchParams.get('token')!;
    await pbi.row('fund-mapping.csv').waitFor();
    const cells = await pbi.cells('fund-mapping.csv');
    expect(cells.slice(0, 4)).toEqual(['Fund mapping', 'fund-mapping.csv', `••••••••${token.slice(-4)}`, 'Fund Audit Administrator']);
    expect(cells[4]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
    expect(cells[5]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
    expect(await page.locator('.fa-pbi-grid').innerText()).not.toContain(token);
    await page.screenshot({ path: screenshotPath('delivery-pbi-inputs.png'), fullPage: true });
  });

  it('shows 10 files a page, newest first', async () => {
    await page.evaluate(async (text) => {
      for (let i = 1; i <= 11; i++) {
        const form = new FormData();
        form.append('pbiInputsTypes', 'fund_mapping');
        form.append('upload', new Blob([text]), `batch-${String(i).padStart(2, '0')}.csv`);
        const res = await fetch('/api/v2.0/pbi-inputs/save', {
          method: 'POST',
          headers: { 'x-access-token': sessionStorage.getItem('fa.token') ?? '' },
          body: form,
        });
        if (!res.ok) throw new Error(await res.text());
      }
    }, FUND_MAPPING);
    await page.reload();
    await pbi.row('batch-11.csv').waitFor();
    expect(await pbi.rows.count()).toBe(10);
    expect((await pbi.cells('batch-11.csv'))[1]).toBe('batch-11.csv');
    expect(await pbi.rows.first().innerText()).toContain('batch-11.csv');
    await page.getByRole('button', { name: 'Page 2', exact: true }).click();
    await expect.poll(() => pbi.rows.allInnerTexts()).toEqual([expect.stringContaining('batch-01.csv'), expect.stringContaining('fund-mapping.csv')]);
    expect(pageErrors).toEqual([]);
  });

  it('is not there when PowerBI inputs are off', async () => {
    const off = await startServer();
    try {
      const other = await (await newContext(browser)).newPage();
      await new SignInPage(other).signIn(off.signInLink);
      expect(await new ShellPage(other).siderEntries()).not.toContain('PowerBI Inputs');
      await other.goto(`${off.url}/pbi-inputs`);
      await expect.poll(() => new URL(other.url()).pathname).toBe('/404');
    } finally {
      await off.stop();
    }
  });
});
