/**
 * Chasing's jobs on the job queue (docs/chasing.md "Runs"): `chaseRun` (a chase run; queues the
 * outbox when it wrote mails), `chaseReview` (after a fund's checks ran: resolves what the new
 * delivery fixed and opens what it failed, without mail), and `chaseOutbox` (sends due mails,
 * waiting in the job for retries due within a minute; later ones are picked up by the next
 * outbox job the server's schedule queues). The periodic schedule (`chaseSchedule`, croner)
 * only queues jobs, so a run happens once however many nodes serve.
 */
import { Cron } from 'croner';
import { and, eq, lte, sql } from 'drizzle-orm';
import { ConfigError } from '../../config.js';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { enqueue } from '../../queue/enqueue.js';
import type { StageHandler } from '../../queue/queue.js';
import { sendDueMails } from './outbox.js';
import { runChase } from './run.js';

/** Longest wait inside one outbox job for a retry (ms). */
const WAIT_IN_JOB_MS = 60_000;

export const chaseRunJob: StageHandler = async (ctx, job) => {
  const payload = (job.payload ?? {}) as { today?: string; trigger?: string };
  const result = await runChase(ctx, { today: payload.today, trigger: payload.trigger ?? 'schedule' });
  return { result: { runId: result.runId, counts: result.counts }, next: result.counts.mails ? [{ stage: 'chaseOutbox', fundRequestId: null }] : [] };
};

export const chaseReviewJob: StageHandler = async (ctx, job) => {
  if (job.fundRequestId === null) return { result: {} };
  const result = await runChase(ctx, { fundIds: [job.fundRequestId], mail: false, trigger: 'review' });
  return { result: { counts: result.counts } };
};

export const chaseOutboxJob: StageHandler = async (ctx, _job, signal) => {
  const total = { sent: 0, retried: 0, failed: 0 };
  for (;;) {
    const pass = await sendDueMails(ctx);
    total.sent += pass.sent;
    total.retried += pass.retried;
    total.failed += pass.failed;
    if (pass.held) return { result: { ...total, held: pass.held } };
    const wait = pass.nextAttemptAt === null ? null : pass.nextAttemptAt - Date.now();
    if (wait === null || wait > WAIT_IN_JOB_MS || signal.aborted) return { result: { ...total, nextAttemptAt: pass.nextAttemptAt } };
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.max(0, wait));
      signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
  }
};

/** Chasing's job handlers, by job kind. */
export const chasingJobs = { chaseRun: chaseRunJob, chaseReview: chaseReviewJob, chaseOutbox: chaseOutboxJob };

/** Queues a chase run now. @returns the process row (a pending run is reused) */
export function queueChaseRun(ctx: AppContext, opts: { trigger: string; today?: string; createdById?: number | null }) {
  return enqueue(ctx, {
    stage: 'chaseRun',
    fundRequestId: null,
    payload: { trigger: opts.trigger, ...(opts.today ? { today: opts.today } : {}) },
    createdById: opts.createdById ?? null,
  });
}

/** Queues an outbox job when a mail is due and none is queued. */
export async function queueDueOutbox(ctx: AppContext): Promise<boolean> {
  const { db, tables: t } = storeOf(ctx);
  const [due] = await db
    .select({ n: sql<number>`count(*)` })
    .from(t.chaseMails)
    .where(and(eq(t.chaseMails.status, 'pending'), lte(t.chaseMails.nextAttemptAt, Date.now())));
  if (!Number(due?.n)) return false;
  await enqueue(ctx, { stage: 'chaseOutbox', fundRequestId: null });
  return true;
}

/**
 * Starts the periodic chase run (`chaseSchedule`; 'off': none) and a check every 30 s that queues
 * the outbox for mails whose retry is due.
 * @returns a stop function
 * @throws ConfigError when the cron expression is not valid
 */
export function startChaseSchedule(ctx: AppContext): () => void {
  const pattern = ctx.config.chaseSchedule;
  let cron: Cron | null = null;
  if (pattern !== 'off') {
    try {
      cron = new Cron(pattern, { protect: true }, () => {
        queueChaseRun(ctx, { trigger: 'schedule' }).catch((err) => ctx.log.error({ err }, 'the chase run could not be queued'));
      });
    } catch (err) {
      throw new ConfigError(`chaseSchedule: '${pattern}' is not a cron expression (${(err as Error).message})`);
    }
    ctx.log.info({ schedule: pattern, next: cron.nextRun()?.toISOString() }, 'chase runs scheduled');
  }
  const timer = setInterval(() => {
    queueDueOutbox(ctx).catch((err) => ctx.log.error({ err }, 'the chase outbox could not be queued'));
  }, 30_000);
  timer.unref();
  return () => {
    cron?.stop();
    clearInterval(timer);
  };
}
