/**
 * Demo mode (auditor spec 2.2 "Demo side widget", section 3 "Demo state", section 4 "Demo"): a
 * scripted three-step demonstration on the demo TPA `demo_test`: 1 create the demo fund request
 * (the Dupree Kentucky fund of fixtures/fund-requests/real-funds.csv), 2 deliver its input files
 * (fixtures/tpas/demo_test/inputs) through the real pipeline, 3 reset. Steps 1 and 3 remove only
 * what the demo itself created and nobody changed since (cleanup.ts); every answer says what the
 * next removal would take (`cleanup`), and the answers of steps 1 and 3 what they removed
 * (`removed`). The state is kept in settings so every user sees who started the demo.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import { ConflictError, ValidationError } from '../../errors.js';
import { fixturesDir } from '../../paths.js';
import type { User } from '../auth/tokens.js';
import { saveBulkFunds } from '../bulk-upload/bulk-upload.js';
import { importFile } from '../imports/imports.js';
import { DEMO_ACTION, DEMO_TPA, type DemoCleanup, planDemoCleanup, removeDemoData } from './cleanup.js';

export { DEMO_TPA } from './cleanup.js';

export interface DemoState {
  step: 0 | 1 | 2 | 3;
  fundRequestDemo: Array<{ userId: number; email: string; start_date: string; fundRequestId: number }>;
  loading: boolean;
}

/**
 * A demo call's answer: the state, what removing the demo data would take now (`cleanup`, for the
 * confirmation of steps 1 and 3), and after steps 1 and 3 what they removed (`removed`).
 */
export interface DemoAnswer extends DemoState {
  cleanup: DemoCleanup;
  removed?: DemoCleanup;
}

const KEY = 'demo';

/** The demo state (step 1, nobody, when the demo never ran). */
export async function demoState(ctx: AppContext): Promise<DemoState> {
  const { db, tables: t } = storeOf(ctx);
  const [row] = await db.select().from(t.settings).where(eq(t.settings.key, KEY)).limit(1);
  const v = row?.value as DemoState | undefined;
  return v ? { step: v.step, fundRequestDemo: v.fundRequestDemo, loading: v.loading } : { step: 1, fundRequestDemo: [], loading: false };
}

/** The demo state with what removing the demo data would take now (`POST /demo/step`). */
export async function demoStatus(ctx: AppContext): Promise<DemoAnswer> {
  return { ...(await demoState(ctx)), cleanup: await planDemoCleanup(ctx) };
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

/** The shipped demo row of the demo TPA (fixtures/fund-requests/real-funds.csv). */
export function demoFundRow(): Record<string, string> {
  const rows = parse(readFileSync(join(fixturesDir(), 'fund-requests', 'real-funds.csv')), { columns: true, bom: true }) as Array<Record<string, string>>;
  const row = rows.find((r) => r.tpa === DEMO_TPA);
  if (!row) throw new ValidationError('No demo fund request is shipped for the demo TPA');
  return row;
}

/** Why the demo fund request cannot be made: an existing request with its identifier that is not the demo's to remove. */
function blockedBy(id: number, removal: DemoCleanup): ValidationError {
  const kept = removal.kept.find((k) => k.id === id);
  const why = kept ? `it stays (${kept.reason})` : "it is not the demo's (a user uploaded it)";
  const name = kept ? `${kept.name} (${kept.fund_code ?? 'no fund code'}, id ${id})` : `fund request ${id}`;
  return new ValidationError(
    `The demo fund request cannot be created: ${name} has the same fund code and period end, and ${why}. Delete it in the Funds Listing to run the demo again.`,
  );
}

/**
 * Step 1: removes what is left of an earlier demo (only the demo's own, unchanged fund requests
 * and input files) and creates the demo fund request from the shipped demo row, in one
 * transaction: when the request cannot be made, nothing is removed.
 * @returns the state (step 2), with `removed` saying what went
 * @throws ValidationError when the step is not the current one, or a request that stays has the demo request's identifier
 */
export async function demoFundRequest(ctx: AppContext, user: User, input: { codes?: string[] }): Promise<DemoAnswer> {
  await assertDemo(ctx, input.codes);
  const state = await demoState(ctx);
  if (state.step !== 1) throw new ValidationError('The demo fund request exists already: deliver its input files or reset the demo');
  const row = demoFundRow();
  const { removed, saved } = await transaction(ctx, async () => {
    const removed = await removeDemoData(ctx);
    const { saved, failed } = await saveBulkFunds(ctx, user, { funds: [row] }, { overwrite: false, action: DEMO_ACTION });
    if (failed.length) {
      const faults = failed[0].errors.faults;
      const duplicate = faults.find((f) => f.type === 'Duplicate Fund' && typeof f.id === 'number');
      if (duplicate) throw blockedBy(duplicate.id as number, removed);
      throw new ValidationError(
        'The demo fund request could not be created',
        faults.map((f) => f.message),
      );
    }
    return { removed, saved };
  });
  const next = await save(ctx, {
    step: 2,
    loading: false,
    fundRequestDemo: [{ userId: user.id, email: user.email, start_date: new Date().toISOString(), fundRequestId: saved[0].id }],
  });
  return { ...next, cleanup: await planDemoCleanup(ctx), removed };
}

/** Step 2: imports the demo TPA's input files; the pipeline takes them from there. */
export async function demoFiles(ctx: AppContext, user: User, input: { codes?: string[]; tests?: string[] }): Promise<DemoAnswer> {
  await assertDemo(ctx, input.codes);
  const state = await demoState(ctx);
  if (state.step !== 2) throw new ValidationError('Create the demo fund request first');
  const dir = join(fixturesDir(), 'tpas', DEMO_TPA, 'inputs');
  const files = existsSync(dir) ? readdirSync(dir).sort() : [];
  if (!files.length) throw new ValidationError('No demo input files are shipped');
  for (const f of files)
    await importFile(ctx, { administratorCode: DEMO_TPA, fileName: f, bytes: readFileSync(join(dir, f)), userId: user.id, source: 'demo' });
  const next = await save(ctx, { ...state, step: 3, loading: false });
  return { ...next, cleanup: await planDemoCleanup(ctx) };
}

/**
 * Step 3: removes the demo's own fund requests (with their files and jobs) and input files, never
 * a fund request a user uploaded, changed or delivered files to; starts over at step 1.
 * @returns the state (step 1), with `removed` saying what went and what stayed
 */
export async function demoReset(ctx: AppContext, _user: User, input: { codes?: string[] }): Promise<DemoAnswer> {
  await assertDemo(ctx, input.codes);
  const removed = await removeDemoData(ctx);
  const next = await save(ctx, { step: 1, loading: false, fundRequestDemo: [] });
  return { ...next, cleanup: await planDemoCleanup(ctx), removed };
}
