/**
 * The Adjustments tab of delivery Fund details on a demo fund (Goldman Sachs Bond Fund): 'New
 * adjustment' opens the menu of types; the Main adjustment dialog, used from the keyboard, refuses
 * an unbalanced journal under its lines, then adds the balanced one, which is listed line by line;
 * 'Rerun adjustments' asks, then queues the calculations; Delete asks first; every change is in the
 * fund's trail; the Bond adjustment dialog starts with a position line, names every field in
 * error under it, and closes with Escape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { screenshotPath } from './browser';
import { type ServerHandle } from './harness';
import { FundDetailsPage } from './pages/fund-details-page';
import { pageApi } from './page-api';
import { openSignedIn } from './support/signed-in';

const GS = 'Goldman Sachs Bond Fund|meridian_fund_services';

/** The Target cell of a line of the dialog (a dropdown where the type allows two targets). */
const targetOf = (dialog: ReturnType<Page['locator']>, i: number) => dialog.locator('tbody tr').nth(i).locator('td').first().innerText();

/** A confirmation (PrimeReact's ConfirmDialog) by its header. */
const confirmation = (page: Page, name: string) => page.getByRole('alertdialog', { name }).or(page.getByRole('dialog', { name }));

/** Saves a screenshot (of the page, or of one part of it) under web/e2e/screenshots. */
const shot = (page: Page, name: string, target?: ReturnType<Page['locator']>) => (target ?? page).screenshot({ path: screenshotPath(name) });

describe('delivery fund details: adjustments', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  let fd: FundDetailsPage;
  let fundId: number;
  let http: ReturnType<typeof pageApi>;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    ({ server, browser, page } = await openSignedIn({ pageErrors }));
    fd = new FundDetailsPage(page);
    http = pageApi(page);
    fundId = (await http.fundIds())[GS];
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('adds a Main adjustment through its dialog, checked like the server checks it, and lists its lines', async () => {
    await page.goto(`${server.url}/fund/${fundId}`);
    await expect.poll(() => fd.heading.innerText()).toBe('Goldman Sachs Bond Fund');
    await fd.tab('Adjustments');
    await expect.poll(() => page.getByText("No adjustments: add one with 'New adjustment'").isVisible()).toBe(true);
    await page.getByRole('button', { name: 'New adjustment', exact: true }).click();
    const menu = page.locator('#fa-adj-new');
    expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual([
      'Bond adjustment (pre-calc)',
      'UK apportionment (post-calc)',
      'Main adjustment (pre-calc)',
      'HMRC adjustment (post-calc)',
      'Distributions (pre-calc)',
      'Target funds (preview) (post-calc)',
      'UK distributions (post-calc)',
      'Flexible (pre-calc)',
      'Derivatives (pre-calc)',
    ]);
    await menu.getByRole('menuitem', { name: 'Main adjustment (pre-calc)' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Main adjustment' });
    await dialog.waitFor();
    // the description has the focus: type, then move on with the keyboard
    await expect.poll(() => dialog.getByLabel('Description', { exact: true }).evaluate((e) => e === document.activeElement)).toBe(true);
    await page.keyboard.type('Audit fee accrual');
    await dialog.getByLabel('Line 1 account').fill('EXPENSE_OTHER');
    await dialog.getByLabel('Line 1 amount').fill('25,000.00');
    await dialog.getByLabel('Line 2 account').fill('20900');
    await dialog.getByLabel('Line 2 amount').fill('-2500');
    await expect.poll(() => dialog.getByTestId('adjustment-net').innerText()).toBe('Trial balance lines net to 22,500.00');
    await dialog.getByRole('button', { name: 'Add adjustment' }).click();
    await expect
      .poll(() => dialog.getByRole('alert').allInnerTexts())
      .toEqual(['Main adjustment is a double entry: its trial balance lines must net to zero, they net to 22,500.00']);
    await dialog.getByLabel('Line 2 amount').fill('-25000');
    await dialog.getByLabel('Line 2 amount').press('Tab');
    await expect.poll(() => dialog.getByTestId('adjustment-net').innerText()).toBe('Trial balance lines net to 0.00');
    await shot(page, 'adjustment-dialog.png', dialog);
    // Enter in a field saves
    await dialog.getByLabel('Line 2 amount').press('Enter');
    await dialog.waitFor({ state: 'hidden' });

    const table = page.getByRole('table', { name: 'Adjustments' });
    await table.waitFor();
    const lines = await table.locator('tbody tr').allInnerTexts();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^#\d+ Main adjustment\s+pre-calc\s+No\s+EXPENSE_OTHER\s+TB balance\s+25,000\.00\s+Audit fee accrual\s+Fund Audit Administrator, /,
    );
    expect(lines[0]).toContain('Size 25,000.00');
    expect(lines[1]).toMatch(/^20900\s+TB balance\s+-25,000\.00$/);
    await shot(page, 'adjustments-section.png', page.locator('.fa-fd-tabs'));
    const stored = await http.get<Array<{ id: number; lines: unknown[] }>>(`/fund/${fundId}/adjustments`);
    expect(stored.map((a) => a.lines)).toEqual([
      [
        { account: 'EXPENSE_OTHER', target: 'tb_balance', amount: 25_000 },
        { account: '20900', target: 'tb_balance', amount: -25_000 },
      ],
    ]);
    expect(pageErrors).toEqual([]);
  });

  it('Rerun adjustments asks first, then queues the calculations; Delete asks first; the trail has every change', async () => {
    await page.getByRole('button', { name: 'Rerun adjustments', exact: true }).click();
    const confirm = confirmation(page, 'Rerun adjustments');
    await confirm.waitFor();
    await shot(page, 'adjustments-rerun-confirmation.png', confirm);
    await confirm.getByRole('button', { name: 'Rerun' }).click();
    await expect.poll(() => page.getByText('Rerun adjustments: calculations and work paper queued').isVisible()).toBe(true);

    const id = (await http.get<Array<{ id: number }>>(`/fund/${fundId}/adjustments`))[0].id;
    await page.getByRole('button', { name: `Delete adjustment ${id}` }).click();
    const ask = confirmation(page, 'Delete adjustment');
    await ask.waitFor();
    expect(await ask.innerText()).toContain(`Delete adjustment #${id} (Main adjustment: Audit fee accrual)?`);
    await ask.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByText("No adjustments: add one with 'New adjustment'").isVisible()).toBe(true);

    const trail = await http.post<{ rows: Array<{ action: string }> }>('/logs/trail', { id: fundId });
    expect(trail.rows.map((r) => r.action).filter((a) => /adjustment/.test(a))).toEqual(['adjustment-delete', 'rerun-adjustments', 'adjustment-create']);
    expect(pageErrors).toEqual([]);
  });

  it('the Bond adjustment dialog starts with the position and its two ledger lines, and Escape closes it', async () => {
    await page.getByRole('button', { name: 'New adjustment', exact: true }).click();
    await page.locator('#fa-adj-new').getByRole('menuitem', { name: 'Bond adjustment (pre-calc)' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Bond adjustment' });
    await dialog.waitFor();
    expect(await targetOf(dialog, 0)).toContain('Market value');
    expect(await dialog.getByLabel('Line 1 security id').count()).toBe(1);
    expect(await targetOf(dialog, 2)).toContain('TB balance');
    await dialog.getByLabel('Line 1 account').fill('11000');
    await dialog.getByLabel('Line 1 amount').fill('-1000000');
    await dialog.getByRole('button', { name: 'Add adjustment' }).click();
    // every field in error is named under it
    await expect
      .poll(() => dialog.getByRole('alert').allInnerTexts())
      .toEqual([
        'Description is required',
        'Line 1: security id is required for a holdings line',
        'Line 2: account is required',
        'Line 2: amount must be a number',
        'Line 3: account is required',
        'Line 3: amount must be a number',
      ]);
    await shot(page, 'adjustment-bond-dialog.png', dialog);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(pageErrors).toEqual([]);
  });
});
