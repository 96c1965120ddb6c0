/**
 * Scorecards in Chromium, on a server with two years of delivery history (the benchmark's
 * generator, written through a second connection): the page from the delivery sider with the
 * figures the API answers, a trend chart per measure and the ranking worst first; a row of the
 * ranking opens that TPA's scorecard; a figure leads to the fund requests behind it and on to a
 * fund's details; an empty range and an unknown TPA say so; a Client linked to their client sees
 * that client's figures alone, from the auditor tabs.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedScorecardHistory } from '../../bench/scorecards-data';
import { launchBrowser, screenshotPath } from './browser';
import { addUserWithLink, runCli, startServer, type ServerHandle } from './harness';
import { ShellPage } from './pages/shell-page';
import { SignInPage } from './pages/sign-in-page';

interface Card {
  figures: { requests: number; onTimeRate: number | null };
  ranking: Array<{ key: string; name: string; figures: { onTimeRate: number | null } }>;
  scope: { client: string | null };
}

describe('scorecards', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startServer();
    const db = new Database(join(server.dataDir, 'fund-audit.sqlite'));
    db.pragma('busy_timeout = 10000');
    seedScorecardHistory(db, 600, Date.now());
    db.close();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await new SignInPage(page).signIn(server.signInLink);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** The scorecard the API answers to the page's user. */
  async function apiCard(p: Page, query: string): Promise<Card> {
    const token = await p.evaluate(() => sessionStorage.getItem('fa.token'));
    const res = await fetch(`${server.url}/api/v2.0/scorecards/${query}`, { headers: { 'x-access-token': token ?? '' } });
    expect(res.status).toBe(200);
    // answers come in the API's envelope
    return ((await res.json()) as { payload: Card }).payload;
  }

  const figure = (p: Page, measure: string) => p.locator(`.fa-scorecard-figure[data-measure="${measure}"] .fa-scorecard-figure-value`);

  it('shows every TPA over the last 12 months: the figures, a trend per measure, the ranking worst first', async () => {
    await new ShellPage(page).sider.getByRole('link', { name: 'Scorecards' }).click();
    await page.getByRole('heading', { name: /^All TPAs · / }).waitFor();
    expect(await page.locator('.fa-scorecards-key').innerText()).toContain('All TPAs');
    const card = await apiCard(page, 'tpa');
    expect(card.figures.requests).toBeGreaterThan(100);
    expect(await figure(page, 'requests').innerText()).toBe(card.figures.requests.toLocaleString('en'));
    expect(await figure(page, 'onTimeRate').innerText()).toBe(`${card.figures.onTimeRate?.toFixed(1)}%`);
    // one chart per measure, drawn
    await page.locator('.fa-scorecard-trend canvas').nth(8).waitFor();
    expect(await page.locator('.fa-scorecard-trend canvas').count()).toBe(9);
    // the ranking in the server's order, worst on-time rate first
    const table = page.getByRole('table');
    const names = await table.locator('tbody tr td:nth-child(2)').allInnerTexts();
    expect(names.map((n) => n.trim())).toEqual(card.ranking.map((r) => r.name));
    const rates = card.ranking.map((r) => r.figures.onTimeRate ?? 101);
    expect(rates).toEqual([...rates].sort((a, b) => a - b));
    await page.screenshot({ path: screenshotPath('scorecards-all-tpas.png'), fullPage: true });
  });

  it("opens a TPA's scorecard from the ranking, and the fund requests behind a figure", async () => {
    const worst = (await apiCard(page, 'tpa')).ranking[0]!;
    await page.getByRole('table').getByRole('button', { name: worst.name, exact: true }).click();
    await page.getByRole('heading', { name: new RegExp(`^${worst.name} · `) }).waitFor();
    expect(new URL(page.url()).searchParams.get('key')).toBe(worst.key);
    const card = await apiCard(page, `tpa?key=${encodeURIComponent(worst.key)}`);
    expect(await figure(page, 'requests').innerText()).toBe(String(card.figures.requests));

    await page.getByRole('button', { name: 'Fund requests behind on-time rate' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('row').nth(1).waitFor();
    expect(await dialog.locator('.p-dialog-title').innerText()).toMatch(/^Late · /);
    const onTime = await dialog.locator('tbody tr td:nth-child(6)').allInnerTexts();
    expect(onTime.length).toBeGreaterThan(0);
    expect(new Set(onTime.map((t) => t.trim()))).toEqual(new Set(['Late']));
    await page.screenshot({ path: screenshotPath('scorecards-drill-down.png') });
    // a fund's name opens its details in the delivery portal
    const fundLink = dialog.locator('tbody tr td:nth-child(2) a').first();
    const fundName = (await fundLink.innerText()).trim();
    await fundLink.click();
    await page.waitForURL(/\/fund\/\d+$/);
    await page.getByText(fundName).first().waitFor();
  });

  it('says when a range has no requests, and when a TPA is unknown', async () => {
    await page.goto(`${server.url}/scorecards?kind=tpa&from=2001-01&to=2001-06`);
    await page.getByTestId('scorecard-empty').waitFor();
    expect(await page.getByTestId('scorecard-empty').innerText()).toContain('No fund requests have a data due date from 2001-01 to 2001-06');
    await page.screenshot({ path: screenshotPath('scorecards-empty.png') });
    await page.goto(`${server.url}/scorecards?kind=tpa&key=no-such-tpa`);
    const alert = page.getByRole('alert').filter({ hasText: 'The scorecard could not be loaded' });
    await alert.waitFor();
    expect(await alert.innerText()).toContain('no-such-tpa');
    expect(pageErrors).toEqual([]);
  });

  it("shows a Client their own client's figures only, from the auditor tabs", async () => {
    const link = addUserWithLink(server, { email: 'hana@helix.example', name: 'Hana Helix', role: 'Client' });
    runCli(server, ['users', 'client', 'hana@helix.example', 'Helix Partners']);
    const client = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
    await new SignInPage(client).signIn(link);
    await new ShellPage(client).auditorTabs.getByRole('link', { name: 'Scorecards' }).click();
    await client.getByRole('button', { name: 'Clients' }).click();
    await client.getByRole('heading', { name: /^All clients · / }).waitFor();
    expect(await client.getByTestId('scorecard-scope').innerText()).toContain('Figures of the fund requests of Helix Partners only');
    const card = await apiCard(client, 'client');
    expect(card.scope.client).toBe('Helix Partners');
    expect(card.ranking.map((r) => r.name)).toEqual(['Helix Partners']);
    const names = await client.getByRole('table').locator('tbody tr td:nth-child(2)').allInnerTexts();
    expect(names.map((n) => n.trim())).toEqual(['Helix Partners']);
    expect(await figure(client, 'requests').innerText()).toBe(card.figures.requests.toLocaleString('en'));
    await client.screenshot({ path: screenshotPath('scorecards-client.png'), fullPage: true });
  });
});
