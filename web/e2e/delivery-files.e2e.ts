/**
 * Delivery file pages on the demo data: Export files (empty state, a 'Download all' from the
 * Dashboard context menu that appears, turns done live and downloads; the delete-old confirmation
 * and its failure), Import files (administrator first, uploads whose rows turn Success or Error
 * without a reload, the error tooltip, the size-limit toast) and Input files (the wrong-layout
 * file under Unidentified with its missing columns; assign, action, remove; empty tabs).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, WebSocketRoute } from 'playwright-core';
import { launchBrowser, newContext, screenshotPath } from './browser';
import { repoRoot, startServer, type ServerHandle } from './harness';
import { DashboardPage } from './pages/dashboard-page';
import { ExportFilesPage, ImportFilesPage, InputFilesPage } from './pages/file-pages';
import { ShellPage } from './pages/shell-page';
import { SignInPage } from './pages/sign-in-page';

const MFS = join(repoRoot, 'fixtures/tpas/meridian_fund_services');
const TB_FILE = 'MFS_TB_S000013795_20230331.csv';
const WRONG_LAYOUT = 'MFS_HOLDINGS_wrong_layout.csv';

describe('delivery file pages', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  let shell: ShellPage;
  const pageErrors: string[] = [];
  let socket: WebSocketRoute | null = null;

  /** Pushes a socket event to the page as if the server had sent it. */
  const pushEvent = (event: string, data: unknown) => {
    if (!socket) throw new Error('the page has no socket');
    socket.send(JSON.stringify({ event, data }));
  };

  /** Calls the API with the page's session token. */
  const apiPost = <T>(path: string, body: unknown) =>
    page.evaluate(
      async ({ path, body }) => {
        const res = await fetch(`/api/v2.0${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-access-token': sessionStorage.getItem('fa.token') ?? '' },
          body: JSON.stringify(body),
        });
        return ((await res.json()) as { payload: unknown }).payload;
      },
      { path, body },
    ) as Promise<T>;

  /** Navigates with the sider (no page load). */
  const go = async (entry: string, title: string) => {
    await shell.sider.getByRole('link', { name: entry }).click();
    await expect.poll(() => shell.pageTitle.innerText()).toBe(title);
  };
  const toast = (text: string | RegExp) => page.locator('.p-toast-message').filter({ hasText: text });

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    page = await (await newContext(browser)).newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    shell = new ShellPage(page);
    // the socket passes through unchanged; the tests may push extra events to the page
    await page.routeWebSocket(/\/ws\?token=/, (ws) => {
      ws.connectToServer();
      socket = ws;
    });
    await new SignInPage(page).signIn(server.signInLink);
    // a marker that a full page load would wipe: live updates must come without one
    await page.evaluate(() => ((window as unknown as { faNoReload: boolean }).faNoReload = true));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const notReloaded = () => page.evaluate(() => (window as unknown as { faNoReload?: boolean }).faNoReload === true);

  it('shows an empty export queue', async () => {
    await go('Export files', 'Export files');
    const exports = new ExportFilesPage(page);
    await exports.grid.getByText('No downloads requested').waitFor();
  });

  it('needs an administrator before files can be imported', async () => {
    await go('Import files', 'Import files');
    const imports = new ImportFilesPage(page);
    await imports.grid.waitFor();
    expect(await imports.fileInput.isDisabled()).toBe(true);
    expect(await page.locator('.fa-upload').innerText()).toContain('Choose an administrator first.');
    await imports.chooseAdministrator('Meridian Fund Services');
    expect(await imports.fileInput.isDisabled()).toBe(false);
  });

  it('imports a trial balance that turns Success without a reload', async () => {
    const imports = new ImportFilesPage(page);
    await imports.upload(join(MFS, 'inputs', TB_FILE));
    await toast(`${TB_FILE} uploaded`).waitFor();
    await imports.row(TB_FILE).waitFor();
    await expect.poll(() => imports.status(TB_FILE), { timeout: 30_000 }).toBe('Success');
    const cells = await imports.cells(TB_FILE);
    expect(cells[0]).toBe('Meridian Fund Services');
    expect(cells[1]).toBe(TB_FILE);
    expect(cells[5]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
    expect(await notReloaded()).toBe(true);
  });

  it('follows import-file socket events live', async () => {
    const imports = new ImportFilesPage(page);
    const { rows } = await apiPost<{ rows: Array<{ id: number; fileName: string }> }>('/import/list', {});
    const id = rows.find((r) => r.fileName === TB_FILE)!.id;
    // the event patches the row at once; the quiet reload that follows brings the stored status back
    pushEvent('import-file', { id, fileName: TB_FILE, status: 'Processing' });
    await expect.poll(() => imports.status(TB_FILE), { interval: 50 }).toBe('Processing');
    await expect.poll(() => imports.status(TB_FILE)).toBe('Success');
  });

  it('shows in the grid that a file delivered again was already imported', async () => {
    const imports = new ImportFilesPage(page);
    await imports.upload(join(MFS, 'inputs', TB_FILE));
    await expect.poll(() => imports.rows.filter({ hasText: TB_FILE }).count(), { timeout: 30_000 }).toBe(2);
    // newest first: the second delivery is Finished, with the duplicate warning visible in the cell
    expect(await imports.status(TB_FILE)).toBe('Finished');
    expect((await imports.row(TB_FILE).locator('.fa-import-warning').innerText()).trim()).toMatch(/^Duplicate of import \d+: not processed again$/);
    const tip = await imports.statusTooltip(TB_FILE);
    expect(tip).toContain('Import file warning');
    expect(tip).toContain(`The same file was already imported as ${TB_FILE}`);
    await page.mouse.move(0, 0);
  });

  it('imports a file of the wrong layout that turns Error with the tooltip', async () => {
    const imports = new ImportFilesPage(page);
    await imports.upload(join(MFS, 'broken', WRONG_LAYOUT));
    await imports.row(WRONG_LAYOUT).waitFor();
    await expect.poll(() => imports.status(WRONG_LAYOUT), { timeout: 30_000 }).toBe('Error');
    const tip = await imports.statusTooltip(WRONG_LAYOUT);
    expect(tip).toContain('Import file error');
    expect(tip).toContain(`${WRONG_LAYOUT} could not be identified`);
    // newest first
    expect(await imports.rows.first().innerText()).toContain(WRONG_LAYOUT);
    expect(await notReloaded()).toBe(true);
    await page.screenshot({ path: screenshotPath('delivery-import.png') });
    await page.mouse.move(0, 0);
  });

  it('says when an upload is over the size limit', async () => {
    const imports = new ImportFilesPage(page);
    await page.route('**/api/v2.0/import/files', (route) =>
      route.fulfill({
        status: 413,
        contentType: 'application/json',
        body: JSON.stringify({
          success: false,
          payload: null,
          errors: ['File is larger than the limit of 1024 bytes'],
          message: 'File upload failed. File size limit has been reached 1024B',
        }),
      }),
    );
    await imports.upload(join(MFS, 'inputs', 'MFS_CAPITAL_S000013795_20230331.csv'));
    await toast('File upload failed. File size limit has been reached 1024B').waitFor();
    await page.unroute('**/api/v2.0/import/files');
    expect(await imports.rows.filter({ hasText: 'MFS_CAPITAL' }).count()).toBe(0);
  });

  it('sorts the imports on the server by a header click: descending, ascending, then back to newest first', async () => {
    const imports = new ImportFilesPage(page);
    const files = async () => (await imports.rows.allInnerTexts()).map((t) => (t.includes(WRONG_LAYOUT) ? WRONG_LAYOUT : TB_FILE));
    const header = imports.grid.locator('th[data-col="fileName"]');
    const sortButton = header.getByRole('button', { name: 'File' });
    await sortButton.click();
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('descending');
    await expect.poll(files).toEqual([TB_FILE, TB_FILE, WRONG_LAYOUT]);
    await sortButton.click();
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('ascending');
    await expect.poll(files).toEqual([WRONG_LAYOUT, TB_FILE, TB_FILE]);
    await sortButton.click();
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('none');
    // newest first again: the wrong-layout file was imported last (the trial balance twice before it)
    await expect.poll(files).toEqual([WRONG_LAYOUT, TB_FILE, TB_FILE]);
    await header.getByRole('button', { name: 'File' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('descending');
    await expect.poll(files).toEqual([TB_FILE, TB_FILE, WRONG_LAYOUT]);
  });

  it('lists the wrong-layout file under Unidentified with its missing columns', async () => {
    await go('Input Files', 'Input Files');
    const files = new InputFilesPage(page);
    await expect.poll(() => page.getByRole('tab').allInnerTexts()).toEqual(['Unidentified', 'Identified without match', 'MOVEit files']);
    await files.row(WRONG_LAYOUT).waitFor();
    expect(await files.sheetField(WRONG_LAYOUT, 'columns_missing')).toBe('Sec ID, Price');
    expect(await files.sheetField(WRONG_LAYOUT, 'column_match_percent')).toBe('75%');
    expect(await files.sheetField(WRONG_LAYOUT, 'closest_match')).not.toBe('');
    expect(await files.row(WRONG_LAYOUT).innerText()).toMatch(/\d{2}\/\d{2}\/\d{4}/);
    await page.screenshot({ path: screenshotPath('delivery-input-files.png') });
  });

  it('assigns the file, sets its action and removes it after confirmation', async () => {
    const files = new InputFilesPage(page);
    await files.select(WRONG_LAYOUT);
    await files.choose('fa-assignee-select', 'Fund Audit Administrator');
    await files.toolbar.getByRole('button', { name: 'Assign' }).click();
    await expect.poll(() => files.row(WRONG_LAYOUT).innerText()).toContain('Fund Audit Administrator');
    await files.choose('fa-action-select', 'Ignored');
    await files.toolbar.getByRole('button', { name: 'Set action' }).click();
    await expect.poll(() => files.row(WRONG_LAYOUT).innerText()).toContain('Ignored');

    await files.toolbar.getByRole('button', { name: 'Remove' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove files' });
    await dialog.getByText('Remove this file from the list? The imported file is kept.').waitFor();
    await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
    await files.grid.getByText('No files available').waitFor();
  });

  it('shows the empty state on the other tabs', async () => {
    const files = new InputFilesPage(page);
    await files.tab('Identified without match').click();
    await files.grid.getByText('No files available').waitFor();
    await files.tab('MOVEit files').click();
    await files.grid.getByText('No files available').waitFor();
  });

  it('queues Download all from the Dashboard and downloads the export when done', async () => {
    await go('Dashboard', 'Dashboard');
    const dash = new DashboardPage(page);
    await dash.row('Goldman Sachs Bond Fund').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Download all' }).click();
    await toast('Successfully added to Queue.').waitFor();

    await go('Export files', 'Export files');
    const exports = new ExportFilesPage(page);
    const row = exports.row('Goldman Sachs Bond Fund');
    await row.waitFor();
    expect(await row.innerText()).toContain('Meridian Fund Services');
    expect(await row.innerText()).toContain('Fund Audit Administrator');
    await expect.poll(() => exports.status('Goldman Sachs Bond Fund'), { timeout: 30_000 }).toBe('Done');
    expect(await notReloaded()).toBe(true);
    // export socket events change the row live (the download shows only when done)
    const { rows } = await apiPost<{ rows: Array<{ id: number }> }>('/export/files/list', {});
    pushEvent('export', { id: rows[0].id, status: 'running' });
    await expect.poll(() => exports.status('Goldman Sachs Bond Fund'), { interval: 50 }).toBe('Running');
    expect(await exports.downloadButton('Goldman Sachs Bond Fund').count()).toBe(0);
    await expect.poll(() => exports.status('Goldman Sachs Bond Fund')).toBe('Done');
    const download = page.waitForEvent('download');
    await exports.downloadButton('Goldman Sachs Bond Fund').click();
    expect((await download).suggestedFilename()).toMatch(/^fund_export_\d+_\d{8}\.zip$/);
    await page.screenshot({ path: screenshotPath('delivery-export.png') });
  });

  it('deletes old exports after confirmation and reports a failure', async () => {
    const exports = new ExportFilesPage(page);
    await exports.deleteOldButton.click();
    let dialog = page.getByRole('dialog', { name: 'Delete old export files' });
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await toast('0 export files older than 90 days deleted').waitFor();
    // the recent export is kept
    expect(await exports.rows.count()).toBe(1);

    await page.route('**/api/v2.0/export/files/delete-old', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ success: false, payload: null, errors: ['An error occurred'] }) }),
    );
    await exports.deleteOldButton.click();
    dialog = page.getByRole('dialog', { name: 'Delete old export files' });
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    const failed = toast('Failed request');
    await failed.waitFor();
    expect(await failed.innerText()).toContain('Delete export files older than 90 days failed.');
    await page.unroute('**/api/v2.0/export/files/delete-old');

    // a list that cannot be loaded says why once, in place of the grid (no notification repeating it)
    await page.route('**/api/v2.0/export/files/list', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ success: false, payload: null, errors: ['export store unavailable'] }),
      }),
    );
    await page.reload();
    await page.getByRole('alert').filter({ hasText: 'The list could not be loaded: export store unavailable' }).waitFor();
    expect(await page.getByText('export store unavailable').count()).toBe(1);
    expect(await page.locator('.p-toast-message').filter({ hasText: 'export store unavailable' }).count()).toBe(0);
    await page.unroute('**/api/v2.0/export/files/list');
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => exports.rows.count()).toBe(1);
    expect(pageErrors).toEqual([]);
  });
});
