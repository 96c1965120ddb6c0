/**
 * Delivery Fund details on data produced by the real pipeline (Meridian's deliveries for the
 * Goldman Sachs Bond Fund): opened from the Dashboard by double-click; the four file grids with
 * the server's statuses; a work paper reviewed and the review in the Trail; processes and the log
 * sub-tabs; the error log's raw payload; a comment saved and still there after a reload; an empty
 * PM refused with 'You have validation errors'; the unsaved-changes question before following a
 * child's link; a new fund created at /fund/create; Delete with its confirmation back to /.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newContext, screenshotPath } from './browser';
import { repoRoot, startServer, type ServerHandle } from './harness';
import { DashboardPage } from './pages/dashboard-page';
import { FundDetailsPage } from './pages/fund-details-page';
import { ShellPage } from './pages/shell-page';
import { SignInPage } from './pages/sign-in-page';

const MFS = join(repoRoot, 'fixtures/tpas/meridian_fund_services');
const INPUTS = ['MFS_TB_S000013795_20230331.csv', 'MFS_HOLDINGS_S000013795_20230331.csv', 'MFS_PRICES_S000013795_20230331.csv', 'MFS_CAPITAL_S000013795_20230331.csv'];
const GS = 'Goldman Sachs Bond Fund';
const AST = 'AST Bond Portfolio 2022';

describe('delivery fund details', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  let fd: FundDetailsPage;
  const pageErrors: string[] = [];
  const ids: Record<string, number> = {};

  const api = <T>(method: 'GET' | 'POST', path: string, body?: unknown) =>
    page.evaluate(
      async ({ method, path, body }) => {
        const res = await fetch(`/api/v2.0${path}`, { method, headers: { 'content-type': 'application/json', 'x-access-token': sessionStorage.getItem('fa.token') ?? '' }, body: body === undefined ? undefined : JSON.stringify(body) });
        const json = (await res.json()) as { payload: unknown; errors?: unknown };
        if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json.errors)}`);
        return json.payload;
      },
      { method, path, body },
    ) as Promise<T>;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    page = await (await newContext(browser)).newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    fd = new FundDetailsPage(page);
    await new SignInPage(page).signIn(server.signInLink);
    const listing = await api<{ rows: Array<{ id: number; name: string; administratorCode: string }> }>('POST', '/funds/listing', { pagination: { limit: 50 } });
    for (const r of listing.rows) ids[`${r.name}|${r.administratorCode}`] = r.id;
    ids.gs = listing.rows.find((r) => r.name === GS)!.id;
    ids.ast = listing.rows.find((r) => r.name === AST)!.id;
    ids.kentucky = ids['Kentucky Tax-Free Short-to-Medium Series|keystone_admin'];
    await page.evaluate(
      async ({ files }) => {
        const form = new FormData();
        form.append('administrator', 'meridian_fund_services');
        for (const f of files) form.append('upload', new Blob([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))]), f.name);
        await fetch('/api/v2.0/import/files', { method: 'POST', headers: { 'x-access-token': sessionStorage.getItem('fa.token') ?? '' }, body: form });
      },
      { files: INPUTS.map((name) => ({ name, b64: readFileSync(join(MFS, 'inputs', name)).toString('base64') })) },
    );
    await vi.waitFor(async () => {
      const f = await api<{ workPapers: unknown[] }>('GET', `/fund/${ids.gs}`);
      if (f.workPapers.length !== 1) throw new Error('no work paper yet');
    }, { timeout: 90_000, interval: 1000 });
    // AST becomes a child of the Keystone Kentucky fund
    await api('POST', '/fund', { id: ids.ast, fund: { parentId: ids.kentucky } });
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('opens from the Dashboard by double-click and lists the files the pipeline produced', async () => {
    await new DashboardPage(page).row(GS).locator('td').nth(3).dblclick();
    await expect.poll(() => fd.heading.innerText()).toBe(GS);
    expect(page.url()).toMatch(new RegExp(`/fund/${ids.gs}$`));
    expect(await fd.status.innerText()).toBe('Pending');
    expect(await fd.files('Input files').locator('tbody tr').count()).toBe(4);
    expect(await fd.files('Standardization files').locator('tbody tr').count()).toBe(4);
    expect(await fd.files('Calculation files').locator('tbody tr').count()).toBe(1);
    const wp = (await fd.files('Work papers').locator('tbody tr td').first().innerText()).trim();
    expect(wp).toMatch(/work_papers\.xlsx$/);
    expect(await fd.fileStatus('Work papers', wp)).toBe('Not released');
    expect(await fd.files('Work papers').getByRole('button', { name: /QA validations of .*: 8 warnings/ }).count()).toBe(1);
    await page.screenshot({ path: screenshotPath('delivery-fund-details-files.png'), fullPage: true });
  });

  it('reviews and releases the work paper, and shows the review in the trail', async () => {
    const wp = (await fd.files('Work papers').locator('tbody tr td').first().innerText()).trim();
    await fd.files('Work papers').getByRole('button', { name: `Review ${wp}` }).click();
    await fd.toast(`${wp} reviewed`).waitFor();
    await expect.poll(() => fd.files('Work papers').getByRole('button', { name: `Unreview ${wp}` }).count()).toBe(1);
    await page.getByRole('button', { name: 'Release all', exact: true }).click();
    await expect.poll(() => fd.fileStatus('Work papers', wp)).toBe('Released');
    await fd.tab('Trail');
    await expect.poll(async () => (await fd.table('Trail').innerText()).includes('file-review')).toBe(true);
  });

  it('follows a change made elsewhere through the live socket, without a reload', async () => {
    await page.evaluate(() => ((window as unknown as { faNoReload: boolean }).faNoReload = true));
    await fd.tab('Files');
    const wp = (await fd.files('Work papers').locator('tbody tr td').first().innerText()).trim();
    const fund = await api<{ workPapers: Array<{ id: number }> }>('GET', `/fund/${ids.gs}`);
    // another user marks the work paper not reviewed
    await api('POST', '/file/review', { ids: [fund.workPapers[0].id], reviewed: false, fundRequestId: ids.gs });
    await expect.poll(() => fd.files('Work papers').getByRole('button', { name: `Review ${wp}` }).count()).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { faNoReload?: boolean }).faNoReload)).toBe(true);
  });

  it('lists the processes and the log sub-tabs, and shows a raw payload', async () => {
    await fd.tab('Processes');
    const processes = fd.table('Processes');
    await processes.waitFor();
    const stages = await processes.locator('tbody tr td:first-child').allInnerTexts();
    expect(stages).toEqual(expect.arrayContaining(['standardization', 'calculations', 'visualization']));
    await fd.tab('Logs');
    await page.getByRole('tab', { name: 'Orchestration logs' }).click();
    await expect.poll(() => fd.table('Orchestration logs').locator('tbody tr').count()).toBeGreaterThan(0);
    await fd.tab('Errors');
    const errors = page.locator('.fa-fd-tabs');
    await expect.poll(async () => (await fd.table('Errors').count()) + (await errors.getByText('No errors').count())).toBe(1);
    if (await fd.table('Errors').count()) {
      await fd.table('Errors').getByRole('button', { name: /Payload of entry/ }).first().click();
      await page.getByRole('dialog', { name: 'Raw payload' }).locator('pre').waitFor();
      await page.keyboard.press('Escape');
    }
    await page.screenshot({ path: screenshotPath('delivery-fund-details-errors.png') });
  });

  it('saves a comment that is still there after a reload', async () => {
    await fd.button('Edit').click();
    await fd.tab('Comments');
    await page.getByLabel('Delivery comments', { exact: true }).fill('Chased the TPA for the capital file');
    await fd.button('Save').click();
    await fd.toast('Fund request saved').waitFor();
    await page.reload();
    await expect.poll(() => fd.heading.innerText()).toBe(GS);
    await fd.tab('Comments');
    expect(await page.locator('[data-field="delivery_comments"]').innerText()).toBe('Chased the TPA for the capital file');
  });

  it("refuses an empty PM with 'You have validation errors'", async () => {
    await page.goto(`${server.url}/fund/${ids.ast}`);
    await expect.poll(() => fd.heading.innerText()).toBe(AST);
    await fd.button('Edit').click();
    await page.getByLabel('PM', { exact: true }).fill('');
    await fd.button('Save').click();
    const errors = page.getByTestId('validation-errors');
    await errors.waitFor();
    expect(await errors.innerText()).toMatch(/You have validation errors[\s\S]*PM is required/);
    await page.screenshot({ path: screenshotPath('delivery-fund-details-validation.png') });
    // leaving through the sider asks first
    await new ShellPage(page).sider.getByRole('link', { name: 'Dashboard' }).click();
    const ask = fd.dialog('You have made changes');
    await ask.getByRole('button', { name: 'Keep editing' }).click();
    expect(await fd.heading.innerText()).toBe(AST);
    await fd.button('Discard').click();
  });

  it('asks before leaving unsaved changes for a child fund', async () => {
    await page.goto(`${server.url}/fund/${ids.kentucky}`);
    await expect.poll(() => fd.heading.innerText()).toBe('Kentucky Tax-Free Short-to-Medium Series');
    await fd.button('Edit').click();
    await fd.tab('Comments');
    await page.getByLabel('Audit comments', { exact: true }).fill('Not saved');
    await fd.tab('Children (1)');
    await page.getByRole('button', { name: `S000030880 - ${AST}` }).click();
    const ask = fd.dialog('You have made changes');
    await ask.getByText('They will be lost if not saved').waitFor();
    await ask.getByRole('button', { name: 'Keep editing' }).click();
    expect(await fd.heading.innerText()).toBe('Kentucky Tax-Free Short-to-Medium Series');
    await page.getByRole('button', { name: `S000030880 - ${AST}` }).click();
    await fd.dialog('You have made changes').getByRole('button', { name: 'Discard changes' }).click();
    await expect.poll(() => fd.heading.innerText()).toBe(AST);
  });

  it('shows why the administrator cannot change', async () => {
    await page.goto(`${server.url}/fund/${ids.gs}`);
    await expect.poll(() => fd.heading.innerText()).toBe(GS);
    expect(await page.locator('[data-field="administrator"]').innerText()).toContain('input files already attached');
    await page.goto(`${server.url}/fund/${ids.kentucky}`);
    await expect.poll(() => fd.heading.innerText()).toBe('Kentucky Tax-Free Short-to-Medium Series');
    expect(await page.locator('[data-field="administrator"]').innerText()).toContain('Child Funds Exist');
  });

  it('creates a new fund request at /fund/create', async () => {
    await page.goto(`${server.url}/fund/create`);
    const form = page.getByRole('form', { name: 'New fund request' });
    await form.waitFor();
    await page.locator('.p-dropdown:has(#fa-new-administrator)').click();
    await page.locator('.p-dropdown-item', { hasText: 'Keystone' }).first().click();
    await form.getByLabel('Fund code').fill('S000077001');
    await form.getByLabel('Fund name').fill('Kentucky Intermediate Series');
    await form.getByLabel('Client').fill('Dupree Mutual Funds');
    for (const [label, option] of [['Country', /^United States of America$/], ['Currency', /^US Dollar$/]] as const) {
      await page.locator(`.p-dropdown:has(#fa-fd-${label.toLowerCase()})`).click();
      await page.locator('.p-dropdown-item', { hasText: option }).first().click();
    }
    await form.locator('#fa-fd-period_end').fill('2023-06-30');
    await form.getByLabel('PM', { exact: true }).fill('1');
    await form.getByLabel('TE', { exact: true }).fill('0.75');
    await form.getByLabel('SAD', { exact: true }).fill('0.05');
    await form.getByRole('button', { name: 'Create fund request' }).click();
    await expect.poll(() => fd.heading.innerText().catch(() => '')).toBe('Kentucky Intermediate Series');
    expect(page.url()).toMatch(/\/fund\/\d+$/);
    // nothing locks a new fund's administrator: it can move to another TPA
    await fd.button('Edit').click();
    await page.locator('.p-dropdown:has(#fa-fd-administrator)').click();
    await page.locator('.p-dropdown-item', { hasText: 'Meridian' }).first().click();
    await fd.button('Save').click();
    await fd.toast('Fund request saved').waitFor();
    expect(await page.locator('[data-field="administrator"]').innerText()).toContain('Meridian Fund Services');
  });

  it('deletes the fund after the confirmation and goes back to the Dashboard', async () => {
    await fd.button('Delete').click();
    const confirm = fd.dialog('Delete fund request');
    await confirm.getByText(/Delete Kentucky Intermediate Series\?/).waitFor();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    expect(pageErrors).toEqual([]);
  });
});
