/**
 * The spec's file, process, log and listing rules on a fund run through the real pipeline
 * (Meridian's deliveries for the Goldman Sachs Bond Fund): the file grids offer Review and Not
 * required only where allowed (a reviewed file cannot be marked not required, a not-required one
 * cannot be reviewed, a calculation file neither) and show the validation cell; Reset and Cancel
 * only on pending and running processes; the Errors tab prints each warning once; on the
 * Dashboard, Work paper actions set the review status of the selected funds' work papers and
 * Delete is offered for an issued and a deleted fund together but not for issued funds only. Last,
 * on the same data restarted with no job threads, a file reset to pending offers neither action
 * and the standardization it queued can be cancelled (then nothing can be reset).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newContext, screenshotPath } from './browser';
import { startServer, type ServerHandle } from './harness';
import { DashboardPage } from './pages/dashboard-page';
import { FundDetailsPage } from './pages/fund-details-page';
import { SignInPage } from './pages/sign-in-page';
import { pageApi } from './page-api';
import { AST, GS, INPUTS, MFS } from './support/meridian-delivery';

const CELLS = ['Valid', 'Invalid', 'Not Received', 'Not Required'];

describe('delivery rules on files, processes, logs and the listing', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  let fd: FundDetailsPage;
  let dash: DashboardPage;
  let http: ReturnType<typeof pageApi>;
  const ids: Record<string, number> = {};
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    page = await (await newContext(browser)).newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    fd = new FundDetailsPage(page);
    dash = new DashboardPage(page);
    await new SignInPage(page).signIn(server.signInLink);
    http = pageApi(page);
    const all = await http.fundIds();
    ids.gs = all[`${GS}|meridian_fund_services`];
    ids.ast = all[`${AST}|keystone_admin`];
    await http.importFiles('meridian_fund_services', join(MFS, 'inputs'), INPUTS);
    await http.waitForWorkPaper(ids.gs);
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const grid = (title: 'Input files' | 'Calculation files' | 'Work papers') => fd.files(title);
  const buttons = async (title: 'Input files' | 'Calculation files' | 'Work papers', file: string) =>
    (await grid(title).locator(`tr[data-file="${file}"] td.fa-fd-actions button`).allInnerTexts()).map((t) => t.trim());
  const validation = async (title: 'Input files' | 'Work papers', file: string) =>
    (await grid(title).locator(`tr[data-file="${file}"] td[data-col="validation"]`).innerText()).trim();

  it('offers Review and Not required only where the rules allow, with the validation cell', async () => {
    await page.goto(`${server.url}/fund/${ids.gs}`);
    await expect.poll(() => fd.heading.innerText()).toBe(GS);
    expect(await grid('Input files').locator('thead th').allInnerTexts()).toContain('Validation');
    const inputs = await grid('Input files').locator('td[data-col="validation"]').allInnerTexts();
    expect(inputs.length).toBe(4);
    for (const cell of inputs) expect(CELLS).toContain(cell.trim());
    // a calculation file can be neither reviewed nor marked not required
    const calc = (await grid('Calculation files').locator('tbody tr').first().getAttribute('data-file')) ?? '';
    expect(await buttons('Calculation files', calc)).toEqual([]);

    const wp = (await grid('Work papers').locator('tbody tr').first().getAttribute('data-file')) ?? '';
    expect(await buttons('Work papers', wp)).toEqual(['Review', 'Not required']);
    // not required: Review is no longer offered, the cells say so
    await grid('Work papers')
      .getByRole('button', { name: `Mark not required ${wp}` })
      .click();
    await fd.toast(`${wp} marked not required`).waitFor();
    await expect.poll(() => buttons('Work papers', wp)).toEqual(['Required']);
    expect(await fd.fileStatus('Work papers', wp)).toBe('Not applicable');
    expect(await validation('Work papers', wp)).toBe('Not Required');
    await page.screenshot({ path: screenshotPath('delivery-file-rules-not-required.png'), fullPage: true });
    await grid('Work papers')
      .getByRole('button', { name: `Mark required ${wp}` })
      .click();
    await expect.poll(() => buttons('Work papers', wp)).toEqual(['Review', 'Not required']);
    // reviewed: Not required is no longer offered
    await grid('Work papers')
      .getByRole('button', { name: `Review ${wp}` })
      .click();
    await fd.toast(`${wp} reviewed`).waitFor();
    await expect.poll(() => buttons('Work papers', wp)).toEqual(['Unreview']);
    expect(CELLS).toContain(await validation('Work papers', wp));
    await page.screenshot({ path: screenshotPath('delivery-file-rules-reviewed.png'), fullPage: true });
  });

  it('offers Reset and Cancel only on pending and running processes', async () => {
    await fd.tab('Processes');
    const rows = fd.table('Processes').locator('tbody tr');
    await expect.poll(() => rows.count()).toBeGreaterThan(2);
    for (const row of await rows.all()) {
      const status = (await row.locator('td').nth(1).innerText()).trim().toLowerCase();
      const active = status === 'pending' || status === 'running';
      expect(await row.getByRole('button', { name: /^Reset / }).isEnabled()).toBe(active);
      expect(await row.getByRole('button', { name: /^Cancel / }).isEnabled()).toBe(active);
    }
  });

  it('prints each warning of an entry once on the Errors tab', async () => {
    await fd.tab('Errors');
    const table = fd.table('Errors');
    await table.waitFor();
    const messages = (await table.locator('tbody tr td:nth-child(4)').allInnerTexts()).map((t) => t.trim());
    expect(messages.length).toBeGreaterThan(0);
    for (const m of messages) {
      const parts = m.split('; ');
      expect(new Set(parts).size, m).toBe(parts.length);
    }
    await page.screenshot({ path: screenshotPath('delivery-errors-tab.png') });
  });

  it("sets the review status of the selected funds' work papers from Work paper actions", async () => {
    await page.goto(`${server.url}/`);
    await dash.title.waitFor();
    await dash.select(GS);
    let wp = await dash.openMenu('Work paper actions');
    expect(await dash.menuItemDisabled(wp, 'Mark not reviewed')).toBe(false);
    await wp.getByRole('menuitem', { name: 'Mark not reviewed', exact: true }).click();
    await dash.toast('1 work paper marked not reviewed').waitFor();
    await expect.poll(async () => (await http.get<{ workPapers: Array<{ reviewed: boolean }> }>(`/fund/${ids.gs}`)).workPapers[0].reviewed).toBe(false);
    wp = await dash.openMenu('Work paper actions');
    await wp.getByRole('menuitem', { name: 'Mark reviewed', exact: true }).click();
    await dash.toast('1 work paper marked reviewed').waitFor();
    await expect.poll(async () => (await http.get<{ workPapers: Array<{ reviewed: boolean }> }>(`/fund/${ids.gs}`)).workPapers[0].reviewed).toBe(true);
    await dash.clearSelection();
  });

  it('offers Delete for an issued and a deleted fund together, not for issued funds only', async () => {
    await http.post('/fund/approve', { ids: [ids.gs], requestedBy: 'Delivery' });
    await http.post('/fund/issue', { ids: [ids.gs], requestedBy: 'Delivery' });
    await http.post('/fund/remove', { ids: [ids.ast], requestedBy: 'Delivery' });
    await page.reload();
    await dash.title.waitFor();
    const form = await dash.openFilter('Status');
    await form.getByLabel('Issued', { exact: true }).check();
    await form.getByLabel('Deleted', { exact: true }).check();
    await form.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(async () => (await dash.fundNames()).sort()).toEqual([AST, GS]);
    const remove = dash.toolbar.getByRole('button', { name: 'Delete', exact: true });
    await dash.select(GS);
    expect(await remove.isDisabled()).toBe(true); // only an issued fund
    await dash.select(AST);
    await expect.poll(() => remove.isEnabled()).toBe(true); // issued + deleted
    await page.screenshot({ path: screenshotPath('delivery-delete-issued-deleted.png') });
    await dash.select(GS);
    await expect.poll(() => remove.isDisabled()).toBe(true); // only a deleted fund
    expect(pageErrors).toEqual([]);
  });

  it('offers neither Review nor Not required on a pending file', async () => {
    // the same data without job threads: a reset file stays pending
    const port = new URL(server.url).port;
    const dataDir = server.dataDir;
    await server.stop({ keepDataDir: true });
    server = await startServer({ dataDir, args: ['--port', port, '--workers', '0'] });
    await page.goto(`${server.url}/fund/${ids.gs}`);
    await expect.poll(() => fd.heading.innerText()).toBe(GS);
    await http.post('/fund/file/reset', { id: ids.gs, fileType: 'holdings', forceReset: true });
    await page.reload();
    const pending = grid('Input files').locator('tr', { has: page.locator('td[data-col="status"]', { hasText: /^Pending$/ }) });
    await expect.poll(() => pending.count()).toBe(1);
    const file = (await pending.getAttribute('data-file')) ?? '';
    // a pending file can still go back to the TPA: only its review and required flag wait
    expect(await buttons('Input files', file)).toEqual(['Remove', 'Return to TPA']);
    await page.screenshot({ path: screenshotPath('delivery-file-rules-pending.png'), fullPage: true });
    // the standardization the reset queued waits: it may be reset or cancelled, the done ones not
    await fd.tab('Processes');
    const waiting = fd
      .table('Processes')
      .locator('tbody tr', { hasText: /pending/i })
      .first();
    await waiting.waitFor();
    expect(await waiting.getByRole('button', { name: /^Reset / }).isEnabled()).toBe(true);
    await waiting.getByRole('button', { name: /^Cancel / }).click();
    await fd.toast(/cancelled$/).waitFor();
    await expect
      .poll(() =>
        fd
          .table('Processes')
          .locator('tbody tr', { hasText: /pending/i })
          .count(),
      )
      .toBe(0);
    for (const row of await fd.table('Processes').locator('tbody tr').all()) expect(await row.getByRole('button', { name: /^Reset / }).isDisabled()).toBe(true);
  });
});
