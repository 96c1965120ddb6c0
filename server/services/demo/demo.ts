/**
 * Demo mode (auditor spec 2.2 "Demo side widget", section 3 "Demo state", section 4 "Demo"): a
 * scripted three-step demonstration on the demo TPA `demo_test`: 1 create the demo fund request
 * (the Dupree Kentucky fund of fixtures/fund-requests/real-funds.csv), 2 deliver its input files
 * (fixtures/tpas/demo_test/inputs) through the real pipeline, 3 reset (delete the demo requests and
 * their files). The state is kept in settings so every user sees who started the demo.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { administrators, fundRequests, settings, unmatchedFiles } from '../../db/schema/index.js';
import { ConflictError, ValidationError } from '../../errors.js';
import { fixturesDir } from '../../paths.js';
import type { User } from '../auth/tokens.js';
import { saveBulkFunds } from '../bulk-upload/bulk-upload.js';
import { importFile } from '../imports/imports.js';

export const DEMO_TPA = 'demo_test';

export interface DemoState {
  step: 0 | 1 | 2 | 3;
  fundRequestDemo: Array<{ userId: number; email: string; start_date: string; fundRequestId: number }>;
  loading: boolean;
}

const KEY = 'demo';

export function demoState(ctx: AppContext): DemoState {
  const row = ctx.db.select().from(settings).where(eq(settings.key, KEY)).get();
  return (row?.value as DemoState | undefined) ?? { step: 1, fundRequestDemo: [], loading: false };
}

function save(ctx: AppContext, state: DemoState): DemoState {
  ctx.db
    .insert(settings)
    .values({ key: KEY, value: state })
    .onConflictDoUpdate({ target: settings.key, set: { value: state, updatedAt: new Date().toISOString() } })
    .run();
  return state;
}

function assertDemo(ctx: AppContext, codes: string[] | undefined): void {
  if (!ctx.config.demo) throw new ConflictError('Demo mode is off on this server');
  if (codes && codes.some((c) => c !== DEMO_TPA)) throw new ValidationError(`Only the demo TPA ${DEMO_TPA} can be used in demo mode`);
  if (!ctx.db.select().from(administrators).where(eq(administrators.code, DEMO_TPA)).get())
    throw new ValidationError(`The demo TPA ${DEMO_TPA} does not exist; start the server with demo data`);
}

/**
 * Step 1: creates the demo fund request from the shipped demo row (no overwrite of a live one).
 * @throws ValidationError when the step is not the current one
 */
export function demoFundRequest(ctx: AppContext, user: User, input: { codes?: string[] }): DemoState {
  assertDemo(ctx, input.codes);
  const state = demoState(ctx);
  if (state.step !== 1) throw new ValidationError('The demo fund request exists already: deliver its input files or reset the demo');
  const rows = parse(readFileSync(join(fixturesDir(), 'fund-requests', 'real-funds.csv')), { columns: true, bom: true }) as Array<Record<string, string>>;
  const row = rows.find((r) => r.tpa === DEMO_TPA);
  if (!row) throw new ValidationError('No demo fund request is shipped for the demo TPA');
  const existing = ctx.db
    .select({ id: fundRequests.id })
    .from(fundRequests)
    .innerJoin(administrators, eq(fundRequests.administratorId, administrators.id))
    .where(eq(administrators.code, DEMO_TPA))
    .all();
  if (existing.length)
    deleteDemoFunds(
      ctx,
      existing.map((e) => e.id),
    );
  const { saved, failed } = saveBulkFunds(ctx, user, { funds: [row] }, { overwrite: false, action: 'demo' });
  if (failed.length)
    throw new ValidationError(
      'The demo fund request could not be created',
      failed[0].errors.faults.map((f) => f.message),
    );
  return save(ctx, {
    step: 2,
    loading: false,
    fundRequestDemo: [{ userId: user.id, email: user.email, start_date: new Date().toISOString(), fundRequestId: saved[0].id }],
  });
}

/** Step 2: imports the demo TPA's input files; the pipeline takes them from there. */
export function demoFiles(ctx: AppContext, user: User, input: { codes?: string[]; tests?: string[] }): DemoState {
  assertDemo(ctx, input.codes);
  const state = demoState(ctx);
  if (state.step !== 2) throw new ValidationError('Create the demo fund request first');
  const dir = join(fixturesDir(), 'tpas', DEMO_TPA, 'inputs');
  const files = existsSync(dir) ? readdirSync(dir).sort() : [];
  if (!files.length) throw new ValidationError('No demo input files are shipped');
  for (const f of files) importFile(ctx, { administratorCode: DEMO_TPA, fileName: f, bytes: readFileSync(join(dir, f)), userId: user.id, source: 'demo' });
  return save(ctx, { ...state, step: 3, loading: false });
}

function deleteDemoFunds(ctx: AppContext, ids: number[]): void {
  if (ids.length) ctx.db.delete(fundRequests).where(inArray(fundRequests.id, ids)).run();
}

/** Step 3: deletes the demo fund requests (their files and jobs go with them) and starts over. */
export function demoReset(ctx: AppContext, _user: User, input: { codes?: string[] }): DemoState {
  assertDemo(ctx, input.codes);
  const ids = ctx.db
    .select({ id: fundRequests.id })
    .from(fundRequests)
    .innerJoin(administrators, eq(fundRequests.administratorId, administrators.id))
    .where(eq(administrators.code, DEMO_TPA))
    .all()
    .map((r) => r.id);
  ctx.db.transaction((tx) => {
    if (!ids.length) return;
    tx.delete(unmatchedFiles).where(inArray(unmatchedFiles.fundId, ids)).run();
    tx.delete(fundRequests).where(inArray(fundRequests.id, ids)).run();
  });
  return save(ctx, { step: 1, loading: false, fundRequestDemo: [] });
}
