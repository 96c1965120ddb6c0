/**
 * A workbook's sheet no layout matches, in the browser: Keystone's delivered workbook of the
 * Kentucky Tax-Free Short-to-Medium Series with a 'Read Me' sheet in front of its data, imported
 * for the demo fund; the Files tab of its Fund details names the sheet on each input file taken
 * from the workbook, with why it was not used.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshotPath } from './browser';
import { repoRoot, type ServerHandle } from './harness';
import { pageApi } from './page-api';
import { FundDetailsPage } from './pages/fund-details-page';
import { openSignedIn } from './support/signed-in';

const WORKBOOK = 'KEYSTONE_5493006TF05454RBY690_20221231.xlsx';
const KENTUCKY = 'Kentucky Tax-Free Short-to-Medium Series';

describe("a workbook's 'Read Me' sheet on the Files tab", () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    ({ server, browser, page } = await openSignedIn({ pageErrors }));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('is named on the input files taken from the workbook, with why it was not used', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(join(repoRoot, 'fixtures/tpas/keystone_admin/inputs', WORKBOOK));
    wb.addWorksheet('Read Me').addRow(['About this workbook: one sheet per report of the period end; amounts in USD.']);
    wb.worksheets.unshift(wb.worksheets.pop()!);
    const dir = mkdtempSync(join(tmpdir(), 'fa-e2e-readme-'));
    writeFileSync(join(dir, WORKBOOK), Buffer.from(await wb.xlsx.writeBuffer()));
    const http = pageApi(page);
    const fundId = (await http.fundIds())[`${KENTUCKY}|keystone_admin`]!;
    await http.importFiles('keystone_admin', dir, [WORKBOOK]);
    // the new delivery's input files carry the skipped sheet once identified
    await expect
      .poll(
        async () => {
          const fund = await http.get<{ inputFiles: Array<{ validation: { skippedSheets?: unknown[] } | null }> }>(`/fund/${fundId}`);
          return fund.inputFiles.some((f) => (f.validation?.skippedSheets ?? []).length > 0);
        },
        { timeout: 90_000, interval: 500 },
      )
      .toBe(true);
    await page.goto(`${server.url}/fund/${fundId}`);
    const fd = new FundDetailsPage(page);
    await expect.poll(() => fd.heading.innerText()).toBe(KENTUCKY);
    await fd.tab('Files');
    const named = fd.files('Input files').getByTestId('skipped-sheets');
    await named.first().waitFor();
    // the sheet's name on each file, why it was not used on hover
    const texts = await named.allInnerTexts();
    expect(texts.length).toBeGreaterThan(0);
    expect(new Set(texts)).toEqual(new Set(["Sheet 'Read Me' not used"]));
    expect(await named.first().getAttribute('title')).toMatch(/^Sheet 'Read Me' not used: No file layout of the TPA matches/);
    await page.screenshot({ path: screenshotPath('fund-details-skipped-sheet.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
  }, 150_000);
});
