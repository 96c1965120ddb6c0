/**
 * Fund aggregation in the browser, on a server with aggregation enabled: a parent fund in EUR whose
 * consolidation flag is set, over the Goldman Sachs Bond Fund (Meridian's csv files) and the Dupree
 * Kentucky fund (Keystone's workbook), both run through the real pipeline. The Dashboard's
 * aggregation columns and the parent's Aggregation tab show 'Needs rerun' once the children's data
 * is in; the forced aggregation rerun switch runs the aggregation, after which the parent has a work
 * paper and no longer needs a rerun. Screenshots go to FUND_AUDIT_SHOTS_DIR (default
 * web/e2e/screenshots).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { screenshotPath } from './browser';
import { repoRoot, startServer, type ServerHandle } from './harness';
import { DashboardPage } from './pages/dashboard-page';
import { FundDetailsPage } from './pages/fund-details-page';
import { SignInPage } from './pages/sign-in-page';
import { pageApi } from './page-api';
import { openSignedIn } from './support/signed-in';

const PARENT = 'Bond funds group (EUR)';
const shot = (name: string) => {
  const dir = process.env.FUND_AUDIT_SHOTS_DIR;
  if (!dir) return screenshotPath(name);
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
};

describe('delivery fund aggregation', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  let fd: FundDetailsPage;
  const pageErrors: string[] = [];
  const ids: Record<string, number> = {};
  let http: ReturnType<typeof pageApi>;
  const api = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => http.call<T>(method, path, body);
  const parent = () => api<{ needs_rerun: boolean; aggreg_force_run: boolean; workPapers: unknown[] }>('GET', `/fund/${ids.parent}`);

  beforeAll(async () => {
    ({ server, browser, page } = await openSignedIn({ config: { aggregation: true }, pageErrors }));
    fd = new FundDetailsPage(page);
    http = pageApi(page);
    const all = await http.fundIds();
    ids.gs = all['Goldman Sachs Bond Fund|meridian_fund_services'];
    ids.kentucky = all['Kentucky Tax-Free Short-to-Medium Series|keystone_admin'];
    const created = await api<{ id: number }>('POST', '/fund', {
      fund: {
        name: PARENT,
        client: 'Fund Audit group',
        administrator: 'meridian_fund_services',
        fund_code: 'GRP-BONDS-EUR',
        currency: 'EUR',
        country: 'US',
        period_start: '2022-04-01',
        period_end: '2023-03-31',
        request_date: '2023-04-03',
        PM: 1,
        TE: 0.75,
        SAD: 0.05,
        external_valuations: 'N',
        aggreg_consol_flag: 'CONSOLIDATION',
        group_key: 'GRP-BONDS',
      },
    });
    ids.parent = created.id;
    for (const id of [ids.gs, ids.kentucky]) await api('POST', '/fund', { id, fund: { parentId: ids.parent, group_key: 'GRP-BONDS' } });
    const mfs = join(repoRoot, 'fixtures/tpas/meridian_fund_services/inputs');
    await http.importFiles('meridian_fund_services', mfs, [
      'MFS_TB_S000013795_20230331.csv',
      'MFS_HOLDINGS_S000013795_20230331.csv',
      'MFS_PRICES_S000013795_20230331.csv',
      'MFS_CAPITAL_S000013795_20230331.csv',
    ]);
    await http.importFiles('keystone_admin', join(repoRoot, 'fixtures/tpas/keystone_admin/inputs'), ['KEYSTONE_5493006TF05454RBY690_20221231.xlsx']);
    await http.waitForWorkPaper(ids.gs);
    await http.waitForWorkPaper(ids.kentucky);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("shows the parent as 'Parent' needing a rerun in the Dashboard's aggregation columns", async () => {
    expect((await parent()).needs_rerun).toBe(true);
    const dashboard = new DashboardPage(page);
    await page.goto(`${server.url}/`);
    await dashboard.row(PARENT).waitFor();
    expect(await dashboard.cell(PARENT, 'isParent')).toBe('Parent');
    expect(await dashboard.cell(PARENT, 'aggreg_consol_flag')).toBe('CONSOLIDATION');
    expect(await dashboard.cell(PARENT, 'needs_rerun')).toMatch(/Yes|true/i);
    await page.locator('th[data-col="needs_rerun"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: shot('aggregation-dashboard.png') });
  });

  it('runs the aggregation from the Aggregation tab and shows it no longer needs a rerun', async () => {
    await page.goto(`${server.url}/fund/${ids.parent}`);
    await expect.poll(() => fd.heading.innerText()).toBe(PARENT);
    // created without is_parent: linking its children made it a parent
    await expect.poll(() => fd.field('is_parent').innerText()).toBe('Yes');
    await fd.field('is_parent').scrollIntoViewIfNeeded();
    await page.screenshot({ path: shot('aggregation-parent-details.png') });
    await fd.tab('Aggregation');
    const tab = page.getByTestId('fa-fd-aggregation');
    await expect.poll(() => tab.innerText()).toContain('2 child fund(s), aggregated in EUR');
    expect(await page.getByTestId('fa-fd-needs-rerun').innerText()).toMatch(/^Yes/);
    // (the link's own aggregation may already have run in the background: the page shows it live)
    expect(['Not computed yet', 'Computed']).toContain(await page.getByTestId('fa-fd-aggregate-status').innerText());
    expect(await tab.innerText()).toContain('CONSOLIDATION');
    await page.screenshot({ path: shot('aggregation-tab-needs-rerun.png') });
    await page.locator('.p-inputswitch:has(#fa-fd-aggreg-force)').click();
    await fd.toast('The aggregation will run again').waitFor();
    await http.waitForWorkPaper(ids.parent);
    await expect.poll(async () => (await parent()).needs_rerun, { timeout: 30_000 }).toBe(false);
    // the page follows the rerun as it happens: no reload
    await expect.poll(() => page.getByTestId('fa-fd-needs-rerun').innerText(), { timeout: 30_000 }).toBe('No');
    expect(await page.locator('#fa-fd-aggreg-force').isChecked()).toBe(false);
    expect(await page.getByTestId('fa-fd-aggregate-status').innerText()).toBe('Computed');
    await page.screenshot({ path: shot('aggregation-tab-after-rerun.png') });
    await fd.tab('Files');
    expect(await fd.files('Work papers').locator('tbody tr').count()).toBe(1);
    expect(pageErrors).toEqual([]);
  });

  it("shows 'Too large' in the Aggregation tab and the Dashboard once the aggregate is over the row limit", async () => {
    // restart on the same data directory with a limit below the children's 1,740 positions
    await server.stop({ keepDataDir: true });
    writeFileSync(join(server.dataDir, 'config.json'), JSON.stringify({ aggregation: true, aggregationMaxRows: 1000 }));
    server = await startServer({ dataDir: server.dataDir });
    // the privacy notice was accepted at the first sign-in: the link alone signs in again
    await new SignInPage(page).open(server.signInLink);
    await page.waitForURL((u) => !u.href.includes('redeemToken'));
    await page.goto(`${server.url}/fund/${ids.parent}`);
    await expect.poll(() => fd.heading.innerText()).toBe(PARENT);
    await fd.tab('Aggregation');
    await page.locator('.p-inputswitch:has(#fa-fd-aggreg-force)').click();
    await fd.toast('The aggregation will run again').waitFor();
    // the rerun's outcome first (its time depends on the machine), then what the tab shows of it
    const oversized = async () => (await api<{ calculationFiles: Array<{ aggDataOversized: boolean }> }>('GET', `/fund/${ids.parent}`)).calculationFiles;
    await expect.poll(async () => (await oversized()).some((f) => f.aggDataOversized), { timeout: 90_000 }).toBe(true);
    await page.reload();
    await expect.poll(() => fd.heading.innerText()).toBe(PARENT);
    await fd.tab('Aggregation');
    await expect.poll(() => page.getByTestId('fa-fd-aggregate-status').innerText(), { timeout: 30_000 }).toBe('Too large');
    await page.screenshot({ path: shot('aggregation-tab-too-large.png') });
    const dashboard = new DashboardPage(page);
    await page.goto(`${server.url}/`);
    await dashboard.row(PARENT).waitFor();
    await expect.poll(() => dashboard.cell(PARENT, 'dataStatus')).toBe('Too large');
    expect(pageErrors).toEqual([]);
  });
});
