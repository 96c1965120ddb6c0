/**
 * Chasing in the demo data of a first start: each demo TPA gets an escalation contact beside the
 * data contacts its fund requests' mailboxes gave (bulk upload); the demo data names no person,
 * so these contacts have no name (the UI and the mails show the address), and every demo fund request whose
 * required files have not arrived gets an open missing-files chase, reminded on each day of the
 * install's schedule already (its due date has passed). The demo deliveries then resolve those
 * whose files arrive, and open failed-check chases where the checks fail (the pipeline's review).
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import { requiredInputTypes } from '../funds/derive.js';
import { recordChaseEvents } from './history.js';
import { installSchedule, isoDayAfter } from './schedule.js';

/**
 * Seeds the demo's contacts and open chases (once: only TPAs without an escalation contact, funds without a chase).
 * @param codes the demo TPAs' codes
 * @returns how many chases were opened
 */
export async function seedDemoChasing(ctx: AppContext, codes: string[]): Promise<number> {
  if (!codes.length) return 0;
  const schedule = installSchedule(ctx);
  return transaction(ctx, async (db) => {
    const { tables: t } = storeOf(ctx);
    const admins = await db.select().from(t.administrators).where(inArray(t.administrators.code, codes));
    for (const a of admins)
      await db.insert(t.contacts).values({
        administratorId: a.id,
        fullName: '',
        email: `escalations@${a.code.replace(/_/g, '-')}.example.com`,
        role: 'escalation',
        timeZone: a.region === 'AMER' ? 'America/New_York' : a.region === 'APAC' ? 'Asia/Singapore' : 'Europe/Luxembourg',
        source: 'demo',
      });
    const funds = await db
      .select()
      .from(t.fundRequests)
      .where(
        inArray(
          t.fundRequests.administratorId,
          admins.map((a) => a.id),
        ),
      );
    let opened = 0;
    for (const f of funds) {
      if (!f.dueDate || !['Pending', 'Approved'].includes(f.status)) continue;
      const have = new Set((await db.select({ type: t.fundFiles.fileType }).from(t.fundFiles).where(eq(t.fundFiles.fundRequestId, f.id))).map((r) => r.type));
      const missing = requiredInputTypes(f.jobType).filter((x) => !have.has(x));
      if (!missing.length) continue;
      const recipients = (await db.select().from(t.contacts).where(eq(t.contacts.administratorId, f.administratorId!))).map((c) => ({
        email: c.email,
        name: c.fullName,
        role: c.role,
        timeZone: c.timeZone,
        from: 'tpa' as const,
      }));
      const steps = schedule.offsets.map((o) => `${isoDayAfter(f.dueDate!, o)}T07:00:00.000Z`);
      const [chase] = await db
        .insert(t.chases)
        .values({
          fundRequestId: f.id,
          administratorId: f.administratorId,
          client: f.client,
          reason: 'missing_files',
          key: 'missing_files',
          state: 'sent',
          message: `Missing: ${missing.join(', ')} (data due ${f.dueDate})`,
          evidence: { missingTypes: missing },
          recipients,
          remindersSent: schedule.offsets.length,
          nextReminderOn: null,
          lastSentAt: steps.at(-1)!,
          createdAt: steps[0]!,
          updatedAt: steps.at(-1)!,
        })
        .returning();
      await recordChaseEvents(ctx, [
        { chase: chase!, state: 'scheduled', at: steps[0]!, note: `opened: ${chase!.message}` },
        ...steps.map((at, i) => ({ chase: chase!, state: 'sent' as const, at, note: `reminder ${i + 1} of ${steps.length}` })),
      ]);
      opened++;
    }
    return opened;
  });
}
