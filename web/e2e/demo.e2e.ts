/**
 * Demo mode end to end: the widget's three steps over the real demo calls. Step 1 creates the
 * demo fund request, step 2 delivers its input files through the pipeline (the fund gets its work
 * paper), step 3 resets; the tooltip names who started the demo. Steps 1 and 3 ask first, naming
 * what goes and what stays, and say afterwards what they removed: a user's paused fund request of
 * the demo TPA and a demo request a TPA delivered a file to survive both. The widget sits beside
 * the page and never covers its content (the Live mappings download buttons included).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, newContext, screenshotPath } from './browser';
import { repoRoot, startServer, type ServerHandle } from './harness';
import { SignInPage } from './pages/sign-in-page';

const KENTUCKY = 'Kentucky Tax-Free Short-to-Medium Series';
const realFunds = readFileSync(join(repoRoot, 'fixtures/fund-requests/real-funds.csv'), 'utf8');
const demoHoldings = readFileSync(join(repoRoot, 'fixtures/tpas/demo_test/inputs/demo_holdings.csv'), 'utf8');

describe('demo mode', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  const api = (method: string, path: string, body?: unknown) =>
    page.evaluate(
      async ({ method, path, body }) => {
        const res = await fetch(`/api/v2.0${path}`, {
          method,
          headers: { 'x-access-token': sessionStorage.getItem('fa.token') ?? '', 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return (await res.json()).payload;
      },
      { method, path, body },
    );
  /** Uploads a file through a multipart call of the API, as the page's own uploads do. */
  const upload = (path: string, fields: Record<string, string>, name: string, text: string) =>
    page.evaluate(
      async ({ path, fields, name, text }) => {
        const form = new FormData();
        for (const [k, v] of Object.entries(fields)) form.append(k, v);
        form.append('upload', new Blob([text]), name);
        const res = await fetch(`/api/v2.0${path}`, { method: 'POST', headers: { 'x-access-token': sessionStorage.getItem('fa.token') ?? '' }, body: form });
        return (await res.json()).payload;
      },
      { path, fields, name, text },
    );
  const fund = (id: number) => api('GET', `/fund/${id}`);
  const widget = () => page.getByRole('complementary', { name: 'Live demo' });
  const step = (n: number) => widget().getByRole('button', { name: new RegExp(`^${n} `) });
  const question = () => page.getByRole('dialog', { name: /^(Create the demo fund request\?|Reset demo data\?)$/ });
  const notice = () => page.locator('.p-toast-message-success').last();
  const textOf = async (l: Locator) => (await l.innerText()).replace(/\s+/g, ' ').trim();

  beforeAll(async () => {
    server = await startServer(['--demo']);
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await new SignInPage(page).signIn(server.signInLink);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  let usersFund: number;

  it("creates, delivers and resets after naming what goes, leaving a user's paused fund request of the demo TPA", async () => {
    // a user's own request of the demo TPA: the real AST Bond Portfolio row, uploaded for demo_test, opened then paused
    const [header, ...rows] = realFunds.trim().split('\n');
    const ast = rows.find((r) => r.startsWith('AST Bond Portfolio 2022,'))!.replace(',keystone_admin,', ',demo_test,');
    usersFund = (await upload('/fund-request/bulk', {}, 'my-funds.csv', `${header}\n${ast}\n`)).saved[0].id;
    await api('POST', '/fund/approve', { ids: [usersFund], requestedBy: 'Auditor' });
    await api('POST', '/fund/pause', { ids: [usersFund], requestedBy: 'Auditor' });

    await widget().waitFor();
    await expect.poll(() => step(1).getAttribute('aria-current')).toBe('step');
    await step(1).click();
    // the demo data's own request of the demo TPA goes; the user's stays
    await question().waitFor();
    expect(await textOf(question())).toContain(
      `This removes the demo's fund request ${KENTUCKY} (S000012000, id 3), left from an earlier demo, then creates the demo fund request again.`,
    );
    expect(await textOf(question())).toContain("The 1 other fund request of the demo TPA is not the demo's and stays.");
    await page.locator('.p-dialog-enter-done').waitFor();
    await page.screenshot({ path: screenshotPath('demo-step1-confirmation.png') });
    await question().getByRole('button', { name: 'Remove and create' }).click();
    await expect.poll(() => step(2).getAttribute('aria-current')).toBe('step');
    await expect.poll(() => textOf(notice())).toContain(`Demo fund request created; removed the demo's fund request ${KENTUCKY} (S000012000, id 3).`);
    await expect.poll(() => widget().getAttribute('title')).toMatch(/Live demo in progress \(started by admin@fund-audit\.local on /);
    const state = await api('POST', '/demo/step', {});
    expect(state.fundRequestDemo).toHaveLength(1);
    const fundId = state.fundRequestDemo[0].fundRequestId;

    await step(2).click();
    await expect.poll(() => step(3).getAttribute('aria-current')).toBe('step');
    // the real pipeline turns the three demo files into the fund's work paper
    await expect.poll(async () => (await fund(fundId)).workPapers.length, { timeout: 30_000 }).toBe(1);
    await page.screenshot({ path: screenshotPath('demo-mode.png') });

    await step(3).click();
    await question().waitFor();
    expect(await textOf(question())).toContain(
      `This permanently removes the demo's fund request ${KENTUCKY} (S000012000, id ${fundId}) and 3 demo input files (demo_holdings.csv, demo_share_capital.csv and demo_trial_balance.csv).`,
    );
    // Cancel leaves everything as it is
    await question().getByRole('button', { name: 'Cancel' }).click();
    expect((await fund(fundId)).name).toBe(KENTUCKY);
    await step(3).click();
    await question().getByRole('button', { name: 'Remove demo data' }).click();
    await expect.poll(() => step(1).getAttribute('aria-current')).toBe('step');
    await expect
      .poll(() => textOf(notice()))
      .toContain(`Demo data reset: removed the demo's fund request ${KENTUCKY} (S000012000, id ${fundId}) and 3 demo input files`);
    await question().waitFor({ state: 'detached' });
    await page.screenshot({ path: screenshotPath('demo-reset-outcome.png') });
    expect((await api('POST', '/demo/step', {})).fundRequestDemo).toEqual([]);
    expect(await fund(fundId)).toBeNull();
    expect(await fund(usersFund)).toMatchObject({ name: 'AST Bond Portfolio 2022', status: 'Paused' });
  });

  it('keeps a demo request a TPA delivered a file to, says so, and then cannot make a second one beside it', async () => {
    await step(1).click();
    await expect.poll(() => step(2).getAttribute('aria-current')).toBe('step');
    const fundId = (await api('POST', '/demo/step', {})).fundRequestDemo[0].fundRequestId;
    // the TPA delivers the holdings for the demo's request through the Import page's call
    await upload('/import/files', { administrator: 'demo_test' }, 'holdings_2022-12-31.csv', demoHoldings);
    await expect.poll(async () => (await fund(fundId)).inputFiles.length, { timeout: 30_000 }).toBe(1);

    await step(3).click();
    await question().waitFor();
    const asked = await textOf(question());
    expect(asked).toContain('Nothing of the demo is left to remove.');
    expect(asked).toContain(`${KENTUCKY} (S000012000, id ${fundId}) stays: 1 input file not from the demo delivered to it.`);
    await page.locator('.p-dialog-enter-done').waitFor();
    await page.screenshot({ path: screenshotPath('demo-reset-keeps.png') });
    await question().getByRole('button', { name: 'Remove demo data' }).click();
    await expect.poll(() => textOf(notice())).toContain('Demo data reset: nothing was removed.');
    expect((await fund(fundId)).inputFiles.map((f: { filename: string }) => f.filename)).toEqual(['holdings_2022-12-31.csv']);
    expect((await fund(usersFund)).status).toBe('Paused');

    // step 1 says why it cannot make its request, and removes nothing
    await step(1).click();
    await question().getByRole('button', { name: 'Create' }).click();
    await page.getByText(`The demo fund request cannot be created: ${KENTUCKY} (S000012000, id ${fundId}) has the same fund code and period end`).waitFor();
    expect(await page.getByText('The demo fund request cannot be created').count()).toBe(1);
    expect((await fund(fundId)).inputFiles).toHaveLength(1);
    await expect.poll(() => step(1).getAttribute('aria-current')).toBe('step');
  });

  it('keeps the widget beside the page content, never over it', async () => {
    for (const path of ['/', '/mappings']) {
      await page.goto(`${server.url}${path}`);
      await widget().waitFor();
      const main = (await page.locator('main#fa-main').boundingBox())!;
      const box = (await widget().boundingBox())!;
      expect(box.x, path).toBeGreaterThanOrEqual(main.x + main.width - 0.5);
    }
    // the download buttons of the demo TPA's mappings stay clickable
    const download = page.getByRole('button', { name: /^Download (?!report)/ }).last();
    await download.waitFor();
    await download.click({ trial: true, timeout: 5000 });
    await page.screenshot({ path: screenshotPath('demo-widget-beside-content.png') });
  });

  it('refuses a step out of order with the server message', async () => {
    await step(2).click();
    await page.getByText('Create the demo fund request first').waitFor();
  });
});
