/**
 * Delivery Fund details on the demo funds and data produced by the real pipeline (Meridian's
 * deliveries for the Goldman Sachs Bond Fund), on a server with aggregation and Db push enabled:
 * opened from the Dashboard by double-click; the four file grids with the server's statuses; a
 * work paper reviewed and the review in the Trail; processes and the log sub-tabs; the error
 * log's raw payload; More actions (review all work papers, Db push 'set'); a comment saved on a
 * fund whose rows are locked; a field and a fund code saved and still there after a reload; an
 * empty PM refused with 'You have validation errors'; the unsaved-changes question (sider, child
 * link); the administrator lock reasons; the Aggregation tab (forced rerun switch, 'Open parent')
 * and Mappings tab; not found; a new fund at /fund/create refused as a 'Duplicate Fund' with a
 * link, then created; 'Approved' shown as 'Open'; Delete with its confirmation back to /.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { screenshotPath } from './browser';
import { type ServerHandle } from './harness';
import { DashboardPage } from './pages/dashboard-page';
import { FundDetailsPage } from './pages/fund-details-page';
import { ShellPage } from './pages/shell-page';
import { pageApi } from './page-api';
import { openSignedIn } from './support/signed-in';
import { AST, GS, INPUTS, MFS } from './support/meridian-delivery';

describe('delivery fund details', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  let fd: FundDetailsPage;
  const pageErrors: string[] = [];
  const ids: Record<string, number> = {};

  let http: ReturnType<typeof pageApi>;
  const api = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => http.call<T>(method, path, body);

  beforeAll(async () => {
    // aggregation and Db push are off by default: this server turns them on
    ({ server, browser, page } = await openSignedIn({ config: { aggregation: true, isDbPushEnabled: true }, pageErrors }));
    fd = new FundDetailsPage(page);
    http = pageApi(page);
    Object.assign(ids, await http.fundIds());
    ids.gs = ids[`${GS}|meridian_fund_services`];
    ids.ast = ids[`${AST}|keystone_admin`];
    ids.kentucky = ids['Kentucky Tax-Free Short-to-Medium Series|keystone_admin'];
    await http.importFiles('meridian_fund_services', join(MFS, 'inputs'), INPUTS);
    await http.waitForWorkPaper(ids.gs);
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
    const wp = (await fd.files('Work papers').locator('tbody tr').first().getAttribute('data-file')) ?? '';
    expect(wp).toMatch(/work_papers\.xlsx$/);
    expect(await fd.fileStatus('Work papers', wp)).toBe('Not released');
    // the 8 securities held twice (warnings) and the FX test of the 32 CLP / TWD positions (no ECB rate), NOT PERFORMED
    expect(
      await fd
        .files('Work papers')
        .getByRole('button', { name: /QA validations of .*: 8 warnings, \d+ not performed$/ })
        .count(),
    ).toBe(1);
    await page.screenshot({ path: screenshotPath('delivery-fund-details-files.png'), fullPage: true });
  });

  it('reviews and releases the work paper, and shows the review in the trail', async () => {
    const wp = (await fd.files('Work papers').locator('tbody tr').first().getAttribute('data-file')) ?? '';
    await fd
      .files('Work papers')
      .getByRole('button', { name: `Review ${wp}` })
      .click();
    await fd.toast(`${wp} reviewed`).waitFor();
    await expect
      .poll(() =>
        fd
          .files('Work papers')
          .getByRole('button', { name: `Unreview ${wp}` })
          .count(),
      )
      .toBe(1);
    await page.getByRole('button', { name: 'Release all', exact: true }).click();
    await expect.poll(() => fd.fileStatus('Work papers', wp)).toBe('Released');
    await fd.tab('Trail');
    await expect.poll(async () => (await fd.table('Trail').innerText()).includes('file-review')).toBe(true);
  });

  it('follows a change made elsewhere through the live socket, without a reload', async () => {
    await page.evaluate(() => ((window as unknown as { faNoReload: boolean }).faNoReload = true));
    await fd.tab('Files');
    const wp = (await fd.files('Work papers').locator('tbody tr').first().getAttribute('data-file')) ?? '';
    const fund = await api<{ workPapers: Array<{ id: number }> }>('GET', `/fund/${ids.gs}`);
    // another user marks the work paper not reviewed
    await api('POST', '/file/review', { ids: [fund.workPapers[0].id], reviewed: false, fundRequestId: ids.gs });
    await expect
      .poll(() =>
        fd
          .files('Work papers')
          .getByRole('button', { name: `Review ${wp}` })
          .count(),
      )
      .toBe(1);
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
      await fd
        .table('Errors')
        .getByRole('button', { name: /Payload of entry/ })
        .first()
        .click();
      await page.getByRole('dialog', { name: 'Raw payload' }).locator('pre').waitFor();
      await page.keyboard.press('Escape');
    }
    await page.screenshot({ path: screenshotPath('delivery-fund-details-errors.png') });
  });

  it('reviews every work paper and pushes the data from More actions', async () => {
    await fd.tab('Files');
    const wp = (await fd.files('Work papers').locator('tbody tr').first().getAttribute('data-file')) ?? '';
    // the live-socket test left the work paper not reviewed
    await fd
      .files('Work papers')
      .getByRole('button', { name: `Review ${wp}` })
      .waitFor();
    await fd.moreAction('Review all work papers');
    await fd.toast('Every work paper is reviewed').waitFor();
    await expect
      .poll(() =>
        fd
          .files('Work papers')
          .getByRole('button', { name: `Unreview ${wp}` })
          .count(),
      )
      .toBe(1);
    // a second time there is nothing left to review: the server says so
    await fd.moreAction('Review all work papers');
    await fd.toast(/No work papers to review/).waitFor();
    await fd.button('More actions').click();
    await page.locator('#fa-fd-more').getByText('Db push').waitFor();
    await page.screenshot({ path: screenshotPath('delivery-fund-details-more-actions.png') });
    await page.locator('#fa-fd-more').getByRole('menuitem', { name: 'set', exact: true }).click();
    await fd.toast(`Db push of ${GS} done`).waitFor();
    await fd.tab('Trail');
    await expect.poll(async () => (await fd.table('Trail').innerText()).includes('db-push')).toBe(true);
  });

  it('saves a comment on a fund whose other fields are locked, still there after a reload', async () => {
    expect(await page.getByText(/only comments and recipients can change because/).count()).toBe(1);
    await fd.button('Edit').click();
    expect(await fd.button('Edit').isDisabled()).toBe(true);
    // the rows are locked (input files assigned): PM stays read-only, comments do not
    expect(await page.locator('#fa-fd-PM').count()).toBe(0);
    expect(await page.locator('#fa-fd-country').count()).toBe(0);
    await fd.tab('Comments');
    await page.getByLabel('Delivery team comments', { exact: true }).fill('Chased the TPA for the capital file');
    await fd.button('Save').click();
    await fd.toast('Fund request saved').waitFor();
    expect(await fd.button('Save').isDisabled()).toBe(true);
    await page.reload();
    await expect.poll(() => fd.heading.innerText()).toBe(GS);
    await fd.tab('Comments');
    expect(await fd.field('delivery_comments').innerText()).toBe('Chased the TPA for the capital file');
  });

  it('edits a field and adds a fund code, both still there after a reload; the main code cannot be removed', async () => {
    await page.goto(`${server.url}/fund/${ids.ast}`);
    await expect.poll(() => fd.heading.innerText()).toBe(AST);
    expect(await fd.button('Save').isDisabled()).toBe(true);
    await fd.button('Edit').click();
    await page.getByLabel('Engagement code', { exact: true }).fill('E-20230630-AST');
    await fd.tab('Fund Codes');
    const rows = fd.table('Fund codes').locator('tbody tr');
    const before = await rows.allInnerTexts();
    expect(before[0]).toMatch(/^S000030880\s+Main/);
    // the main code has no remove button; every alternate has one
    expect(await rows.first().getByRole('button').count()).toBe(0);
    expect(
      await fd
        .table('Fund codes')
        .getByRole('button', { name: /^Remove code/ })
        .count(),
    ).toBe(before.length - 1);
    await page.getByRole('button', { name: 'Add fund code' }).click();
    await rows.last().getByRole('textbox').fill('AST-2022-ALT');
    // an added but empty code is dropped on save
    await page.getByRole('button', { name: 'Add fund code' }).click();
    await page.screenshot({ path: screenshotPath('delivery-fund-details-editing.png'), fullPage: true });
    await fd.button('Save').click();
    await fd.toast('Fund request saved').waitFor();
    await page.reload();
    await expect.poll(() => fd.heading.innerText()).toBe(AST);
    expect(await fd.field('engagement_code').innerText()).toBe('E-20230630-AST');
    await fd.tab('Fund Codes');
    const after = await rows.allInnerTexts();
    expect(after).toHaveLength(before.length + 1);
    expect(after[0]).toMatch(/^S000030880\s+Main/);
    expect(after.at(-1)).toMatch(/^AST-2022-ALT\s+Alternate/);
    await fd.button('Edit').click();
    await fd.table('Fund codes').getByRole('button', { name: 'Remove code AST-2022-ALT' }).click();
    await fd.button('Save').click();
    await fd.toast('Fund request saved').waitFor();
    expect(await rows.count()).toBe(before.length);
  });

  it("refuses an empty PM with 'You have validation errors' and asks before leaving", async () => {
    await fd.button('Edit').click();
    await page.getByLabel('PM', { exact: true }).fill('');
    await fd.button('Save').click();
    await fd.validationErrors.waitFor();
    expect(await fd.validationErrors.innerText()).toMatch(/You have validation errors[\s\S]*PM is required/);
    await fd.toast('Action failed').waitFor();
    // the notification points to the list; it does not repeat it
    expect(await page.getByText('You have validation errors').count()).toBe(1);
    await page.screenshot({ path: screenshotPath('delivery-fund-details-validation.png') });
    // leaving through the sider asks first
    await new ShellPage(page).sider.getByRole('link', { name: 'Dashboard' }).click();
    const ask = fd.dialog('You have made changes');
    await ask.getByText('They will be lost if not saved').waitFor();
    await page.screenshot({ path: screenshotPath('delivery-fund-details-unsaved.png') });
    await ask.getByRole('button', { name: 'Keep editing' }).click();
    expect(await fd.heading.innerText()).toBe(AST);
    expect(await page.getByLabel('PM', { exact: true }).inputValue()).toBe('');
    await new ShellPage(page).sider.getByRole('link', { name: 'Dashboard' }).click();
    await fd.dialog('You have made changes').getByRole('button', { name: 'Discard changes' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    const saved = await api<{ PM: number | null }>('GET', `/fund/${ids.ast}`);
    expect(saved.PM).not.toBeNull();
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

  it('switches the forced aggregation rerun and opens the parent from the Aggregation tab', async () => {
    await fd.tab('Aggregation');
    const sw = page.locator('.p-inputswitch:has(#fa-fd-aggreg-force)');
    expect(await page.locator('#fa-fd-aggreg-force').isChecked()).toBe(false);
    await sw.click();
    await fd.toast('Aggregation will be forced to rerun').waitFor();
    await page.reload();
    await expect.poll(() => fd.heading.innerText()).toBe(AST);
    await fd.tab('Aggregation');
    await expect.poll(() => page.locator('#fa-fd-aggreg-force').isChecked()).toBe(true);
    await page.screenshot({ path: screenshotPath('delivery-fund-details-aggregation.png') });
    await page.getByRole('button', { name: 'Open parent' }).click();
    await expect.poll(() => fd.heading.innerText()).toBe('Kentucky Tax-Free Short-to-Medium Series');
    expect(page.url()).toMatch(new RegExp(`/fund/${ids.kentucky}$`));
  });

  it('shows why the administrator cannot change, and the mapping in use per type', async () => {
    expect(await fd.field('administrator').innerText()).toContain('Child Funds Exist');
    await page.goto(`${server.url}/fund/${ids.ast}`);
    await expect.poll(() => fd.heading.innerText()).toBe(AST);
    expect(await fd.field('administrator').innerText()).toContain('Parent Fund Exist');
    await page.goto(`${server.url}/fund/${ids.gs}`);
    await expect.poll(() => fd.heading.innerText()).toBe(GS);
    expect(await fd.field('administrator').innerText()).toContain('input files already attached');
    expect(await fd.tabNames()).toEqual([
      'Files',
      'Processes',
      'Logs',
      'Errors',
      'Trail',
      'Adjustments',
      'Chases',
      'Fund Codes',
      'Comments',
      'Recipients',
      'Aggregation',
      'Mappings',
    ]);
    await fd.tab('Mappings');
    await expect.poll(() => page.locator('.fa-fd-tabs .p-dropdown-label').count()).toBeGreaterThan(0);
    expect(await page.locator('.fa-fd-tabs .p-dropdown-label').first().innerText()).toMatch(/\(master\)$/);
  });

  it('answers an unknown fund with its message', async () => {
    await page.goto(`${server.url}/fund/987654`);
    await page.locator('.fa-error-banner[role="alert"]').filter({ hasText: 'No such fund request with id: 987654' }).waitFor();
    await page.screenshot({ path: screenshotPath('delivery-fund-details-not-found.png') });
    await page.goto(`${server.url}/fund/not-a-number`);
    await page.locator('.fa-error-banner[role="alert"]').filter({ hasText: 'No such fund request with id: not-a-number' }).waitFor();
  });

  it("starts a new fund in edit mode at /fund/create, refuses a 'Duplicate Fund' with its link, then creates it", async () => {
    const kentucky = await api<{ fund_code: string; period_end: string }>('GET', `/fund/${ids.kentucky}`);
    await page.goto(`${server.url}/fund/create`);
    await expect.poll(() => fd.heading.innerText()).toBe('New fund request');
    expect(await fd.button('Edit').isDisabled()).toBe(true);
    expect(await fd.tabNames()).toEqual(['Fund Codes', 'Comments', 'Recipients']);
    await fd.choose('fa-fd-administrator', 'Keystone');
    await page.getByLabel('Fund code', { exact: true }).fill(kentucky.fund_code);
    await page.getByLabel('Fund name', { exact: true }).fill('Kentucky Intermediate Series');
    await page.getByLabel('Client', { exact: true }).fill('Dupree Mutual Funds');
    await fd.choose('fa-fd-country', /^United States of America$/);
    await fd.choose('fa-fd-currency', /^US Dollar$/);
    await page.locator('#fa-fd-period_end').fill(kentucky.period_end);
    await page.getByLabel('PM', { exact: true }).fill('1');
    await page.getByLabel('TE', { exact: true }).fill('0.75');
    await page.getByLabel('SAD', { exact: true }).fill('0.05');
    await fd.button('Save').click();
    await fd.validationErrors.waitFor();
    expect(await fd.validationErrors.innerText()).toContain('Duplicate Fund');
    await page.screenshot({ path: screenshotPath('delivery-fund-details-duplicate.png'), fullPage: true });
    // the link opens the other fund, after asking about the new fund's unsaved values
    await fd.validationErrors.getByRole('button', { name: `Open fund ${ids.kentucky}` }).click();
    await fd.dialog('You have made changes').getByRole('button', { name: 'Keep editing' }).click();
    await page.getByLabel('Fund code', { exact: true }).fill('S000077001');
    await fd.button('Save').click();
    await expect.poll(() => fd.heading.innerText().catch(() => '')).toBe('Kentucky Intermediate Series');
    expect(page.url()).toMatch(/\/fund\/\d+$/);
    ids.created = Number(/\/fund\/(\d+)$/.exec(page.url())![1]);
    expect(await fd.status.innerText()).toBe('Pending');
    expect(await fd.field('client').innerText()).toBe('Dupree Mutual Funds');
    await page.screenshot({ path: screenshotPath('delivery-fund-details-created.png'), fullPage: true });
    // nothing locks a new fund's administrator: it can move to another TPA
    await fd.button('Edit').click();
    await fd.choose('fa-fd-administrator', 'Meridian');
    await fd.button('Save').click();
    await fd.toast('Fund request saved').waitFor();
    expect(await fd.field('administrator').innerText()).toContain('Meridian Fund Services');
  });

  it("shows an approved fund as 'Open', which can be rerun", async () => {
    expect(await fd.button('Rerun workpapers').isDisabled()).toBe(true);
    await api('POST', '/fund/approve', { ids: [ids.created], requestedBy: 'e2e' });
    await page.getByRole('button', { name: 'Reload the fund' }).click();
    await expect.poll(() => fd.status.innerText()).toBe('Open');
    expect(await fd.button('Rerun workpapers').isDisabled()).toBe(false);
  });

  it('deletes the fund after the confirmation and goes back to the Dashboard', async () => {
    await fd.button('Delete').click();
    const confirm = fd.dialog('Delete fund request');
    await confirm.getByText('This will permanently remove this fund request, are you REALLY sure?').waitFor();
    await page.screenshot({ path: screenshotPath('delivery-fund-details-delete.png') });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    expect((await api<{ status: string }>('GET', `/fund/${ids.created}`)).status).toBe('Deleted');
    expect(pageErrors).toEqual([]);
  });
});
