/**
 * Auditor Fund details on a work paper made incomplete by an audit adjustment: Meridian delivers
 * the Goldman Sachs Bond Fund through the real pipeline, then an adjustment posts to an account
 * the fund's trial balance does not have (decision 0012). After 'Rerun adjustments' the work
 * paper's Outcome says 'Incomplete data', and so does its QA Validations cell, in red, whose
 * popover names the adjustment line and why.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { screenshotPath } from './browser';
import { type ServerHandle } from './harness';
import { AuditorPage } from './pages/auditor-page';
import { ShellPage } from './pages/shell-page';
import { pageApi } from './page-api';
import { openSignedIn } from './support/signed-in';
import { GS, INPUTS, MFS } from './support/meridian-delivery';

describe('auditor fund details: an adjustment line the fund cannot take', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  let aud: AuditorPage;
  const pageErrors: string[] = [];
  let fundId: number;
  let adjustmentId: number;
  let http: ReturnType<typeof pageApi>;
  const api = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => http.call<T>(method, path, body);

  beforeAll(async () => {
    ({ server, browser, page } = await openSignedIn({ pageErrors }));
    aud = new AuditorPage(page);
    http = pageApi(page);
    fundId = (await http.fundIds())[`${GS}|meridian_fund_services`];
    await http.importFiles('meridian_fund_services', join(MFS, 'inputs'), INPUTS);
    await http.waitForWorkPaper(fundId);
    // 11900 is not an account of the fund's trial balance, nor a standard account
    const added = await api<{ id: number }>('POST', `/fund/${fundId}/adjustments`, {
      type: 'main',
      description: 'Accrual posted to a suspense account',
      bookedByTpa: false,
      lines: [
        { account: '11900', target: 'tb_balance', amount: 250 },
        { account: '11000', target: 'tb_balance', amount: -250 },
      ],
    });
    adjustmentId = added.id;
    await api('POST', `/fund/${fundId}/adjustments/rerun`, { rerun: 'adjustments' });
    // the calculations and the work paper run again in the background
    await vi.waitFor(
      async () => {
        const f = await api<{ workPapers: Array<{ outcome: string | null }> }>('GET', `/fund/${fundId}`);
        if (f.workPapers[0]?.outcome !== 'Incomplete data') throw new Error(`work paper outcome ${f.workPapers[0]?.outcome}`);
      },
      { timeout: 90_000, interval: 1000 },
    );
    await new ShellPage(page).sider.getByRole('button', { name: 'Switch to auditor' }).click();
    await page.locator('[data-frame="auditor"]').waitFor();
    await aud.nav('Data Platform');
    await aud.dataTab('Funds Listing');
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("says 'Incomplete data' in the work paper's QA validations, in red, naming the adjustment line", async () => {
    await aud
      .row(GS)
      .getByRole('button', { name: `Fund details of ${GS}` })
      .first()
      .click();
    await aud.dialog(`Fund details - ${GS}`).waitFor();
    await aud.detailsTab('Run parameters');
    const wp = aud.details.getByRole('table', { name: 'Work papers' }).locator('tbody tr').first();
    expect(await wp.locator('[data-col="outcome"]').innerText()).toBe('Incomplete data');
    const button = wp
      .locator('td')
      .last()
      .getByRole('button', { name: /QA validations of .*: Incomplete data, / });
    expect(await button.getAttribute('data-qa')).toBe('fail');
    await button.click();
    const popover = page.getByRole('dialog', { name: 'QA Validations' });
    const incomplete = popover.getByRole('region', { name: 'Incomplete data' });
    await incomplete.waitFor();
    const lines = await incomplete.locator('li').allInnerTexts();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`Adjustment #${adjustmentId} line 1 (not booked) posts to account 11900, which the fund's trial balance does not have`);
    await page.locator('.p-overlaypanel-enter-done').waitFor();
    await page.screenshot({ path: screenshotPath('auditor-qa-incomplete-adjustment.png') });
    await page.keyboard.press('Escape');
    expect(pageErrors).toEqual([]);
  });
});
