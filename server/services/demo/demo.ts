/**
 * Demo mode (auditor spec 2.2 "Demo side widget", section 3 "Demo state", section 4 "Demo"): a
 * scripted three-step demonstration on the demo TPA `demo_test`: 1 create the demo fund request
 * (the Dupree Kentucky fund of fixtures/fund-requests/real-funds.csv), 2 deliver its input files
 * (fixtures/tpas/demo_test/inputs) through the real pipeline, 3 reset (delete the demo requests and
 * their files). The state is kept in settings so every user sees who started the demo.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
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

/** The demo state (step 1, nobody, when the demo never ran). */
export async function demoState(ctx: AppContext): Promise<DemoState> {
  const { db, tables: t } = storeOf(ctx);
  const [row] = await db.select().from(t.settings).where(eq(t.settings.key, KEY)).limit(1);
  return (row?.value as DemoState | undefined) ?? { step: 1, fundRequestDemo: [], loading: false };
}

async function save(ctx: AppContext, state: DemoState): Promise<DemoState> {
  const { db, tables: t } = storeOf(ctx);
  await db
    .insert(t.settings)
    .values({ key: KEY, value: state })
    .onConflictDoUpdate({ target: t.settings.key, set: { value: state, updatedAt: new Date().toISOString() } });
  return state;
}

async function assertDemo(ctx: AppContext, codes: string[] | undefined): Promise<void> {
  if (!ctx.config.demo) throw new ConflictError('Demo mode is off on this server');
  if (codes && codes.some((c) => c !== DEMO_TPA)) throw new ValidationError(`Only the demo TPA ${DEMO_TPA} can be used in demo mode`);
  const { db, tables: t } = storeOf(ctx);
  const [tpa] = await db.select({ id: t.administrators.id }).from(t.administrators).where(eq(t.administrators.code, DEMO_TPA)).limit(1);
  if (!tpa) throw new ValidationError(`The demo TPA ${DEMO_TPA} does not exist; start the server with demo data`);
}

/**
 * Step 1: creates the demo fund request from the shipped demo row (no overwrite of a live one).
 * @throws ValidationError when the step is not the current one
 */
export async function demoFundRequest(ctx: AppContext, user: User, input: { codes?: string[] }): Promise<DemoState> {
  await assertDemo(ctx, input.codes);
  const state = await demoState(ctx);
  if (state.step !== 1) throw new ValidationError('The demo fund request exists already: deliver its input files or reset the demo');
  const rows = parse(readFileSync(join(fixturesDir(), 'fund-requests', 'real-funds.csv')), { columns: true, bom: true }) as Array<Record<string, string>>;
  const row = rows.find((r) => r.tpa === DEMO_TPA);
  if (!row) throw new ValidationError('No demo fund request is shipped for the demo TPA');
  await deleteDemoFunds(ctx, await demoFundIds(ctx));
  const { saved, failed } = await saveBulkFunds(ctx, user, { funds: [row] }, { overwrite: false, action: 'demo' });
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
export async function demoFiles(ctx: AppContext, user: User, input: { codes?: string[]; tests?: string[] }): Promise<DemoState> {
  await assertDemo(ctx, input.codes);
  const state = await demoState(ctx);
  if (state.step !== 2) throw new ValidationError('Create the demo fund request first');
  const dir = join(fixturesDir(), 'tpas', DEMO_TPA, 'inputs');
  const files = existsSync(dir) ? readdirSync(dir).sort() : [];
  if (!files.length) throw new ValidationError('No demo input files are shipped');
  for (const f of files)
    await importFile(ctx, { administratorCode: DEMO_TPA, fileName: f, bytes: readFileSync(join(dir, f)), userId: user.id, source: 'demo' });
  return save(ctx, { ...state, step: 3, loading: false });
}

/** Ids of the demo TPA's fund requests. */
async function demoFundIds(ctx: AppContext): Promise<number[]> {
  const { db, tables: t } = storeOf(ctx);
  const rows = await db
    .select({ id: t.fundRequests.id })
    .from(t.fundRequests)
    .innerJoin(t.administrators, eq(t.fundRequests.administratorId, t.administrators.id))
    .where(eq(t.administrators.code, DEMO_TPA));
  return rows.map((r) => r.id);
}

/** Deletes fund requests with their unmatched files (their files and jobs go with them). */
async function deleteDemoFunds(ctx: AppContext, ids: number[]): Promise<void> {
  if (!ids.length) return;
  const { tables: t } = storeOf(ctx);
  await transaction(ctx, async (tx) => {
    await tx.delete(t.unmatchedFiles).where(inArray(t.unmatchedFiles.fundId, ids));
    await tx.delete(t.fundRequests).where(inArray(t.fundRequests.id, ids));
  });
}

/** Step 3: deletes the demo fund requests (their files and jobs go with them) and starts over. */
export async function demoReset(ctx: AppContext, _user: User, input: { codes?: string[] }): Promise<DemoState> {
  await assertDemo(ctx, input.codes);
  await deleteDemoFunds(ctx, await demoFundIds(ctx));
  return save(ctx, { step: 1, loading: false, fundRequestDemo: [] });
}
