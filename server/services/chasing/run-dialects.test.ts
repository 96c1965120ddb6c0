import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { storeOf } from '../../db/dialect.js';
import { describeEachDialect } from '../../testing/dialects.js';
import { createTestContext, type TestContext } from '../../testing/context.js';
import { insertAdministrator, insertFund, insertFundFile } from '../../testing/fund-factory.js';
import { createContact } from './contacts.js';
import { chaseEvents } from './history.js';
import { sendDueMails } from './outbox.js';
import { runChase } from './run.js';
import { startTestSmtp, type TestSmtp } from '../../testing/smtp.js';

describeEachDialect('chasing missing files', (dialect) => {
  let ctx: TestContext;
  let smtp: TestSmtp;
  let fundId: number;
  const allChases = () => storeOf(ctx).db.select().from(storeOf(ctx).tables.chases);

  const attachmentsOf = (m: TestSmtp['mails'][number]) => m.attachments.map((a) => [a.filename, a.content.toString('utf8')] as const);
  async function deliverAll() {
    for (let i = 0; i < 20; i++) {
      const pass = await sendDueMails(ctx);
      if (pass.nextAttemptAt === null) return;
      await new Promise((r) => setTimeout(r, 30));
    }
  }

  beforeAll(async () => {
    smtp = await startTestSmtp();
    ctx = await createTestContext({
      dialect,
      seedDemoData: false,
      smtpUrl: smtp.url,
      mailRetryBaseMs: 20,
      mailFrom: 'Fund Audit <audit@example.com>',
      mailReplyTo: 'delivery@example.com',
      publicUrl: 'https://audit.example.com',
    });
    const admin = await insertAdministrator(ctx, 'chase_tpa', 'Chase Fund Services');
    await createContact(ctx, null, {
      administratorId: admin,
      full_name: 'Dana Data',
      email: 'dana@tpa.example.com',
      role: 'data',
      time_zone: 'Europe/Luxembourg',
    });
    await createContact(ctx, null, { administratorId: admin, full_name: 'Erin Escalation', email: 'erin@tpa.example.com', role: 'escalation' });
    const fund = await insertFund(ctx, {
      administratorId: admin,
      name: 'Alpine Growth Fund',
      client: 'Alpine AM',
      dueDate: '2026-03-10',
      status: 'Approved',
      fundCode: 'ALP01',
    });
    fundId = fund.id;
  });
  afterAll(async () => {
    await ctx.dispose();
    await smtp.close();
  });

  it('does nothing before the first reminder day', async () => {
    const r = await runChase(ctx, { today: '2026-03-06' });
    expect(r.counts.opened).toBe(0);
    expect(r.mails).toEqual([]);
  });

  it('a dry run says what would go out and writes nothing', async () => {
    const r = await runChase(ctx, { today: '2026-03-07', dryRun: true });
    expect(r.runId).toBeNull();
    expect(r.mails.map((m) => m.to)).toEqual(['dana@tpa.example.com']);
    expect(r.mails[0]!.text).toContain('Please deliver: trial balance, holdings, transactions, share capital.');
    expect(await allChases()).toEqual([]);
  });

  it('opens a chase 3 days before the due date and mails one digest, retried until the SMTP server accepts it, never twice', async () => {
    const r = await runChase(ctx, { today: '2026-03-07' });
    expect(r.counts).toMatchObject({ opened: 1, mails: 1 });
    smtp.refuse = true;
    const first = await sendDueMails(ctx);
    expect(first).toMatchObject({ sent: 0, retried: 1 });
    expect(smtp.refused).toBe(1);
    smtp.refuse = false;
    await deliverAll();
    expect(smtp.mails).toHaveLength(1);
    const mail = smtp.mails[0]!;
    expect(mail.to && 'value' in mail.to ? mail.to.value[0]!.address : null).toBe('dana@tpa.example.com');
    expect(mail.replyTo?.value[0]!.address).toBe('delivery@example.com');
    expect(mail.subject).toBe('Fund Audit: Files missing - Alpine Growth Fund');
    expect(mail.text).toContain('reminder 1 of 4 (3 days before the due date)');
    expect(mail.text).toContain('https://audit.example.com/chases?fund=');
    expect(mail.html).toContain('Alpine Growth Fund (ALP01)');
    // the time in the contact's zone (Luxembourg is CET in March)
    expect(mail.text).toMatch(/Sent \d+ \w+ \d{4}, \d\d:\d\d CET/);
    const [chase] = await allChases();
    expect(chase).toMatchObject({ state: 'sent', reason: 'missing_files', remindersSent: 1, nextReminderOn: '2026-03-10' });
    expect((await chaseEvents(ctx, { chaseIds: [chase!.id] })).map((e) => e.state)).toEqual(['scheduled', 'sent']);
    // a second pass and a second run the same day send nothing more
    await sendDueMails(ctx);
    expect((await runChase(ctx, { today: '2026-03-07' })).counts.mails).toBe(0);
    await deliverAll();
    expect(smtp.mails).toHaveLength(1);
    const { db, tables: t } = storeOf(ctx);
    expect((await db.select().from(t.chaseMails)).map((m) => [m.status, m.attempts])).toEqual([['sent', 2]]);
  });

  it('copies in the escalation contacts from the second late reminder on', async () => {
    await runChase(ctx, { today: '2026-03-13' });
    await deliverAll();
    expect(smtp.mails.slice(1).map((m) => m.subject)).toHaveLength(1);
    expect(smtp.mails[1]!.text).toContain('reminder 3 of 4 (3 days after the due date)');
    await runChase(ctx, { today: '2026-03-17' });
    await deliverAll();
    const to = smtp.mails.slice(2).map((m) => (m.to && 'value' in m.to ? m.to.value[0]!.address : ''));
    expect(to.sort()).toEqual(['dana@tpa.example.com', 'erin@tpa.example.com']);
  });

  it('a review after a delivery brings the missing types up to date at once, and mails nothing', async () => {
    await insertFundFile(ctx, fundId, { fileType: 'trial_balance' });
    const before = smtp.mails.length;
    const r = await runChase(ctx, { today: '2026-03-17', fundIds: [fundId], mail: false, trigger: 'review' });
    expect(r.counts).toMatchObject({ opened: 0, reminded: 0, mails: 0 });
    const [chase] = await allChases();
    expect(chase).toMatchObject({ evidence: { missingTypes: ['holdings', 'transactions', 'share_capital'] }, remindersSent: 4 });
    expect(chase!.message).toBe('Missing: holdings, transactions, share_capital (data due 2026-03-10)');
    await deliverAll();
    expect(smtp.mails.length).toBe(before);
  });

  it('chases a failed check with the figures and the failing rows as CSV, one digest per recipient, and resolves by itself', async () => {
    const calc = await insertFundFile(ctx, fundId, {
      kind: 'calculation',
      fileType: 'calculations',
      validation: {
        QA_Rec: [
          {
            check: 'tb_balance',
            name: 'Trial balance sums to zero',
            status: 'fail',
            diff: 1204.17,
            threshold: 500,
            message: 'TB does not balance: debits 10,000.00 - credits 8,795.83 = 1,204.17 EUR, above SAD 500.00',
          },
        ],
      },
    });
    const before = smtp.mails.length;
    const r = await runChase(ctx, { today: '2026-03-18' });
    expect(r.counts.opened).toBe(1);
    await deliverAll();
    const mails = smtp.mails.slice(before);
    // dana gets one mail holding both open chases: the failed check due, the missing files still open
    const dana = mails.filter((m) => m.to && 'value' in m.to && m.to.value[0]!.address === 'dana@tpa.example.com');
    expect(dana).toHaveLength(1);
    expect(dana[0]!.subject).toBe('Fund Audit: Trial balance out of balance - Alpine Growth Fund');
    expect(dana[0]!.text).toMatch(/Trial balance sums to zero\s+0\.00 EUR\s+1,204\.17 EUR\s+1,204\.17 EUR/);
    expect(dana[0]!.text).toContain('Still open');
    const [[name, csv]] = attachmentsOf(dana[0]!);
    expect(name).toMatch(/^chase-\d+-tb_balance\.csv$/);
    expect(csv.split('\n')[0]).toBe('check,item,status,file,line,difference,threshold,message');
    expect(csv).toContain('tb_balance,Trial balance sums to zero,fail,,,1204.17,500');
    // the next delivery passes: the chase resolves on the next run
    const { db, tables: t } = storeOf(ctx);
    await db
      .update(t.fundFiles)
      .set({ validation: { QA_Rec: [{ check: 'tb_balance', name: 'Trial balance sums to zero', status: 'pass', diff: 0, threshold: 500, message: 'ok' }] } })
      .where(eq(t.fundFiles.id, calc));
    const after = await runChase(ctx, { today: '2026-03-19' });
    expect(after.counts.resolved).toBe(1);
    const failed = (await allChases()).find((c) => c.reason === 'failed_check')!;
    expect(failed.state).toBe('resolved');
    expect((await chaseEvents(ctx, { chaseIds: [failed.id] })).map((e) => e.state)).toEqual(['scheduled', 'sent', 'resolved']);
  });

  it('resolves the missing-files chase once the files arrive', async () => {
    for (const type of ['trial_balance', 'holdings', 'transactions', 'share_capital']) await insertFundFile(ctx, fundId, { fileType: type });
    const r = await runChase(ctx, { today: '2026-03-20' });
    expect(r.counts.resolved).toBe(1);
    expect((await allChases()).every((c) => c.state === 'resolved')).toBe(true);
  });
});
