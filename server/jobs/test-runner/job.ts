/**
 * The `testRun` job (spec delivery "Test run"): a run scheduled by the test runner's service
 * (server/services/test-runner/test-runner.ts) is run here, in a job worker thread, case by case
 * (run-suites.ts), its results written as they come.
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { eq } from 'drizzle-orm';
import { storeOf } from '../../db/dialect.js';
import { ShuttingDown, type StageHandler } from '../../queue/queue.js';
import { hasFailures, planRun } from '../../services/test-runner/plan.js';
import { defaultSuitesDir, loadSuites } from '../../services/test-runner/suites.js';
import { findRun, now, updateRun, type TestRunPayload } from '../../services/test-runner/test-runner.js';
import { runPlan } from './run-suites.js';

/**
 * The `testRun` job: runs the suites of a scheduled run, case by case, writing results as they
 * come; stops at the next step when the job is cancelled (the run was stopped).
 */
export const testRunJob: StageHandler = async (ctx, job, signal) => {
  const { testRunId: id, mappings = 'production', suitesDir } = (job.payload ?? {}) as unknown as TestRunPayload;
  const { run } = await findRun(ctx, id);
  if (run.status !== 'pending' && run.status !== 'running') return { result: { testRunId: id, skipped: run.status } };
  try {
    const plan = planRun(loadSuites(suitesDir ?? defaultSuitesDir()), run.administratorCodes, run.testIds);
    // a run stopped since the job was claimed is left stopped
    const started = await updateRun(ctx, id, { status: 'running', results: { stats: { startedAt: now(), finishedAt: null, totalTime: null }, reports: {} } }, [
      'pending',
      'running',
    ]);
    if (!started) return { result: { testRunId: id, skipped: 'suspended' } };
    // progress is written in order, one write after the other; the run waits for the last one
    let progress: Promise<unknown> = Promise.resolve();
    const { results, cancelled } = await runPlan(plan, {
      mappings: mappings === 'production' ? { kind: 'production', ctx } : { kind: 'fixtures' },
      signal,
      maxFileBytes: ctx.config.maxUploadBytes,
      onProgress: (p, partial) => {
        if (p.type === 'case-done' && !signal.aborted)
          progress = progress.then(() => updateRun(ctx, id, { results: partial, hasErrors: hasFailures(partial) }, ['running']));
      },
    });
    await progress;
    // the server shuts down: the run stays running with the cases it finished, and is run again
    // by whichever node takes its job over
    if (signal.reason instanceof ShuttingDown) return { result: { testRunId: id, interrupted: signal.reason.message } };
    const status = cancelled || signal.aborted ? 'suspended' : 'done';
    // a run stopped while its last case ended is suspended, with the results it has
    (await updateRun(ctx, id, { status, results, hasErrors: hasFailures(results) }, ['running'])) ??
      (await updateRun(ctx, id, { results, hasErrors: hasFailures(results) }, ['suspended']));
    return { result: { testRunId: id, cancelled: cancelled || signal.aborted } };
  } catch (err) {
    ctx.log.error({ err, testRunId: id }, 'test run failed');
    const { db, tables: t } = storeOf(ctx);
    const [row] = await db.select().from(t.testRuns).where(eq(t.testRuns.id, id));
    await updateRun(ctx, id, { status: 'error', results: { ...((row?.results ?? {}) as object), error: (err as Error).message }, hasErrors: true }, [
      'pending',
      'running',
    ]);
    return { result: { testRunId: id, error: (err as Error).message } };
  }
};
