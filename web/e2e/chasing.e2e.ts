/**
 * Chasing in the browser, end to end, on a server that mails through a real SMTP server: a delivery
 * team member adds a contact to Meridian Fund Services (a bad address is refused under the field);
 * Meridian delivers the Goldman Sachs Bond Fund with the Cash line left out of its trial balance
 * (the real N-PORT balances otherwise), which the checks fail and the pipeline chases; the member
 * returns the holdings file with a reason; the chase run mails the new contact a digest linking to
 * the fund; signed out, the contact follows the link, signs in and lands on the fund's chases with
 * the figures and the failing rows, uploads the corrected trial balance against the chase, and sees
 * it answered, then resolved once the pipeline has run again.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSmtp, type TestSmtp } from '../../server/testing/smtp';
import { launchBrowser, screenshotPath } from './browser';
import { addUserWithLink, repoRoot, startServer, type ServerHandle } from './harness';
import { pageApi } from './page-api';
import { FundDetailsPage } from './pages/fund-details-page';
import { ShellPage } from './pages/shell-page';
import { SignInPage } from './pages/sign-in-page';

const MFS = join(repoRoot, 'fixtures/tpas/meridian_fund_services/inputs');
const TB = 'MFS_TB_S000013795_20230331.csv';
const HOLDINGS = 'MFS_HOLDINGS_S000013795_20230331.csv';
const OTHERS = [HOLDINGS, 'MFS_PRICES_S000013795_20230331.csv', 'MFS_CAPITAL_S000013795_20230331.csv'];
const GS = 'Goldman Sachs Bond Fund';
const OLIVIA = 'olivia.ops@meridian.example.com';
const VIEWPORT = { width: 1440, height: 900 };

/** A free TCP port (the mail links carry the server's port, so it is fixed before the start). */
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

describe('chasing a TPA and answering the chase', () => {
  let smtp: TestSmtp;
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  let fd: FundDetailsPage;
  let http: ReturnType<typeof pageApi>;
  let gsId: number;
  let oliviaLink: string;
  let mailLink: string;
  /** The delivery without its Cash line, and the corrected trial balance (the real one). */
  const broken = mkdtempSync(join(tmpdir(), 'fund-audit-e2e-tb-'));
  const pageErrors: string[] = [];

  beforeAll(async () => {
    smtp = await startTestSmtp();
    const dataDir = mkdtempSync(join(tmpdir(), 'fund-audit-e2e-'));
    writeFileSync(join(dataDir, 'config.json'), JSON.stringify({ smtpUrl: smtp.url, mailFrom: 'Fund Audit <audit@example.com>' }));
    server = await startServer({ dataDir, args: ['--port', String(await freePort()), '--host', '127.0.0.1'] });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: VIEWPORT })).newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    fd = new FundDetailsPage(page);
    await new SignInPage(page).signIn(server.signInLink);
    http = pageApi(page);
    gsId = (await http.fundIds())[`${GS}|meridian_fund_services`]!;
    const real = readFileSync(join(MFS, TB), 'utf8').split('\n');
    writeFileSync(join(broken, TB), real.filter((l) => !l.includes(';10100;Cash;')).join('\n'));
    oliviaLink = addUserWithLink(server, { email: OLIVIA, name: 'Olivia Ops', role: 'Client' });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  it('adds a contact to a TPA, refusing a bad address under the field', async () => {
    await new ShellPage(page).sider.getByRole('link', { name: 'Contacts' }).click();
    const owners = page.getByRole('navigation', { name: 'TPAs and clients' });
    await owners.getByRole('button', { name: /Meridian Fund Services/ }).click();
    await page.getByRole('heading', { name: 'Meridian Fund Services', level: 2 }).waitFor();
    const table = page.getByRole('table', { name: 'Contacts of Meridian Fund Services' });
    // the demo's contacts have no name (the demo data names no one, and none is made up from the address)
    const reports = table.locator('tr[data-contact="meridian.reports@example.com"] td');
    expect(await reports.nth(0).innerText()).toBe('-');
    expect(await reports.nth(4).innerText()).toBe('Bulk upload');
    expect(await page.getByTestId('schedule-days').innerText()).toBe('chased 3 days before, on the due date, 3 days after, 7 days after');

    await page.getByRole('button', { name: 'Add contact' }).click();
    const dialog = page.getByRole('dialog', { name: 'New contact of Meridian Fund Services' });
    await dialog.waitFor();
    // keyboard only: the name has the focus, Tab goes to the address, Enter saves
    const name = dialog.getByLabel('Name');
    await expect.poll(() => name.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('Olivia Ops');
    await page.keyboard.press('Tab');
    await page.keyboard.type('olivia.ops@meridian');
    await page.keyboard.press('Enter');
    const email = dialog.getByLabel('E-mail');
    const error = dialog.locator('#fa-contact-email-error');
    await error.waitFor();
    expect(await error.innerText()).toBe("'olivia.ops@meridian' has no Internet domain after the @ (e.g. example.com)");
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect(await email.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.screenshot({ path: screenshotPath('chasing-contact-bad-address.png') });

    await email.fill(OLIVIA);
    await dialog.getByRole('button', { name: 'Add contact' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = table.locator(`tr[data-contact="${OLIVIA}"] td`);
    await row.first().waitFor();
    expect((await row.allInnerTexts()).slice(0, 5)).toEqual(['Olivia Ops', OLIVIA, 'Data', 'UTC', 'Added by hand']);
    expect(await owners.getByRole('button', { name: /Meridian Fund Services/ }).innerText()).toContain('4 contacts');
    await page.screenshot({ path: screenshotPath('chasing-contacts.png') });
  });

  it("keeps a client's contacts: empty at first, added, edited, and removed after a confirmation", async () => {
    const owners = page.getByRole('navigation', { name: 'TPAs and clients' });
    await owners
      .getByRole('radio', { name: /Clients/ })
      .or(owners.getByRole('button', { name: /^Clients/ }))
      .first()
      .click();
    await owners.getByRole('button', { name: /GOLDMAN SACHS TRUST/ }).click();
    await page.getByRole('heading', { name: 'GOLDMAN SACHS TRUST', level: 2 }).waitFor();
    expect(new URL(page.url()).search).toBe('?client=GOLDMAN%20SACHS%20TRUST');
    const empty = page.getByTestId('contacts-empty');
    await empty.waitFor();
    await page.screenshot({ path: screenshotPath('chasing-client-no-contacts.png') });

    await page.getByRole('button', { name: 'Add contact' }).click();
    const dialog = page.getByRole('dialog', { name: 'New contact of GOLDMAN SACHS TRUST' });
    await dialog.getByLabel('E-mail').fill('fund.controller@gs-trust.example.com');
    await dialog.locator('label[for="fa-contact-role-escalation"]').click();
    await dialog.getByRole('button', { name: 'Add contact' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const table = page.getByRole('table', { name: 'Contacts of GOLDMAN SACHS TRUST' });
    const row = table.locator('tr[data-contact="fund.controller@gs-trust.example.com"]');
    expect((await row.locator('td').allInnerTexts()).slice(0, 3)).toEqual(['-', 'fund.controller@gs-trust.example.com', 'Escalation']);

    await row.getByRole('button', { name: 'Edit fund.controller@gs-trust.example.com' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit contact of GOLDMAN SACHS TRUST' });
    await edit.getByLabel('Name').fill('Sam Controller');
    await edit.getByRole('button', { name: 'Save contact' }).click();
    await edit.waitFor({ state: 'hidden' });
    await expect.poll(() => row.locator('td').first().innerText()).toBe('Sam Controller');

    await row.getByRole('button', { name: 'Remove Sam Controller' }).click();
    const confirm = fd.dialog('Remove contact');
    expect(await confirm.innerText()).toContain('Remove Sam Controller (fund.controller@gs-trust.example.com) from GOLDMAN SACHS TRUST?');
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await empty.waitFor();
  });

  it("overrides a TPA's reminder schedule, naming a bad day under the field, and goes back to the install's", async () => {
    await page.goto(`${server.url}/contacts?tpa=keystone_admin`);
    await page.getByRole('heading', { name: 'Keystone Administration', level: 2 }).waitFor();
    const card = page.getByRole('region', { name: 'Reminder schedule' });
    await card.getByRole('button', { name: 'Change' }).click();
    const days = card.getByLabel('Days from the due date');
    await days.fill('-5,0,x');
    await card.getByRole('button', { name: 'Save schedule' }).click();
    expect(await card.locator('#fa-schedule-offsets-error').innerText()).toBe("'x' is not a whole number of days");
    await days.fill('-5,0,5');
    await days.press('Enter');
    await expect.poll(() => page.getByTestId('schedule-days').innerText()).toBe('chased 5 days before, on the due date, 5 days after');
    expect(await page.getByTestId('schedule-source').innerText()).toBe("The TPA's own");
    await page.screenshot({ path: screenshotPath('chasing-tpa-schedule.png') });
    await card.getByRole('button', { name: "Use the install's schedule" }).click();
    await expect.poll(() => page.getByTestId('schedule-source').innerText()).toBe("The install's");
  });

  it("returns a file to the TPA with a reason, beside the pipeline's failed check", async () => {
    await http.importFiles('meridian_fund_services', broken, [TB]);
    await http.importFiles('meridian_fund_services', MFS, OTHERS);
    await http.waitForWorkPaper(gsId);
    await page.goto(`${server.url}/fund/${gsId}`);
    await fd.heading.waitFor();
    const inputs = fd.files('Input files');
    const holdings = inputs.locator(`tr[data-file="${HOLDINGS}"]`);
    await holdings.getByRole('button', { name: `Return ${HOLDINGS} to the TPA` }).click();
    const dialog = page.getByRole('dialog', { name: `Return ${HOLDINGS} to the TPA` });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Return to TPA' }).click();
    expect(await dialog.locator('#fa-return-reason-error').innerText()).toBe('The reason is required: say what the TPA must correct');
    await dialog.getByLabel('Reason (required)').fill('Prices are as of 30 March, not the period end (31 March 2023)');
    await page.screenshot({ path: screenshotPath('chasing-return-dialog.png') });
    await page.keyboard.press('Control+Enter');
    await fd.toast(/returned to the TPA \(chase \d+\)/).waitFor();
    // once returned, the file cannot be returned again until a new one arrives
    await expect.poll(() => holdings.getByRole('button', { name: `Return ${HOLDINGS} to the TPA` }).isDisabled()).toBe(true);

    await fd.tab('Chases');
    const chases = page.getByTestId('fund-chases');
    const returned = chases.locator('li.fa-chase', { hasText: 'Returned to TPA' });
    await returned.waitFor();
    expect(await returned.locator('.fa-chase-head .fa-chase-state').innerText()).toBe('Scheduled');
    expect(await returned.innerText()).toContain('Prices are as of 30 March, not the period end (31 March 2023)');
    const failed = chases.locator('li.fa-chase', { hasText: 'Failed check: Trial balance out of balance' });
    await failed.waitFor();
    const figures = failed.getByRole('table', { name: /Figures of chase/ });
    expect(await figures.locator('tbody tr').first().innerText()).toMatch(/0\.00 USD\s+-?8,897,774\.45 USD\s+-?8,897,774\.45 USD/);
    await page.screenshot({ path: screenshotPath('chasing-fund-chases.png'), fullPage: true });
  });

  it("mails the TPA's contacts a digest that links to the fund", async () => {
    await http.post('/chase/run', {});
    await expect
      .poll(() => smtp.mails.find((m) => m.to && 'value' in m.to && m.to.value.some((v) => v.address === OLIVIA)), { timeout: 60_000, interval: 500 })
      .toBeTruthy();
    const mail = smtp.mails.find((m) => m.to && 'value' in m.to && m.to.value.some((v) => v.address === OLIVIA))!;
    expect(mail.text).toContain('Trial balance out of balance');
    expect(mail.text).toContain('Prices are as of 30 March');
    mailLink = /(http:\/\/\S+\/chases\?fund=\d+)/.exec(mail.text ?? '')![1]!;
    expect(mailLink).toBe(`${server.url}/chases?fund=${gsId}`);
  });

  it("takes the signed-out contact from the mail's link through sign-in to the fund's chases, with the evidence", async () => {
    const tpa = await (await browser.newContext({ viewport: VIEWPORT, acceptDownloads: true })).newPage();
    tpa.on('pageerror', (e) => pageErrors.push(String(e)));
    await tpa.goto(mailLink);
    await tpa.waitForURL(/\/authenticate$/);
    await new SignInPage(tpa).signIn(oliviaLink);
    await tpa.waitForURL(`${server.url}/chases?fund=${gsId}`);
    await tpa.getByRole('heading', { name: `Chases of ${GS}` }).waitFor();
    expect(await new ShellPage(tpa).tabLabels()).toContain('Open chases');
    const failed = tpa.locator('li.fa-chase', { hasText: 'Trial balance out of balance' });
    await failed.waitFor();
    expect(
      await failed
        .getByRole('table', { name: /Figures of chase/ })
        .locator('thead')
        .innerText(),
    ).toMatch(/Check\s+Expected\s+Delivered\s+Difference/);
    const download = tpa.waitForEvent('download');
    await failed.getByRole('button', { name: 'Download failing rows (CSV)' }).click();
    const csv = readFileSync((await (await download).path())!, 'utf8');
    expect(csv.split('\n')[0]).toBe('check,item,status,file,line,difference,threshold,message');
    expect(csv).toContain('tb_balance,');
    expect(await tpa.locator('li.fa-chase', { hasText: 'Returned to TPA' }).innerText()).toContain(HOLDINGS);
    await tpa.screenshot({ path: screenshotPath('chasing-tpa-chases.png'), fullPage: true });

    // the corrected trial balance, uploaded against the chase
    await failed.getByRole('button', { name: 'Upload the file' }).click();
    await failed.locator('input[type="file"]').setInputFiles(join(MFS, TB));
    await failed.getByRole('button', { name: 'Upload', exact: true }).click();
    const answer = failed.getByTestId(/^chase-answer-/);
    await answer.waitFor();
    expect(await answer.innerText()).toContain(`${TB} uploaded by ${OLIVIA}`);
    expect(await failed.locator('.fa-chase-head .fa-chase-state').innerText()).toBe('Answered');
    await tpa.screenshot({ path: screenshotPath('chasing-tpa-answered.png'), fullPage: true });
    // the pipeline runs the new delivery's checks: the chase resolves by itself
    const closed = tpa.getByRole('list', { name: 'Closed chases' }).locator('li.fa-chase', { hasText: 'Trial balance out of balance' });
    await closed.waitFor({ timeout: 90_000 });
    expect(await closed.locator('.fa-chase-head .fa-chase-state').innerText()).toBe('Resolved');
    expect(await closed.getByTestId(/^chase-answer-/).innerText()).toContain('Resolved: the new delivery fixed it.');
    await tpa.screenshot({ path: screenshotPath('chasing-tpa-resolved.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
  }, 150_000);
});
