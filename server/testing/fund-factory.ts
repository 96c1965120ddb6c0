/**
 * Test data for fund requests: inserts rows with drizzle directly (no service rules), so tests of
 * listings, actions and reports can set up any state, on either database (through `storeOf`, so a
 * PostgreSQL test context works as a SQLite one). Not used by the application.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { eq } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { storeOf } from '../db/dialect.js';
import type { FundFileKind } from '../db/schema/files.js';
import type { JobStatus, Stage } from '../db/schema/pipeline.js';
import type { FundInsert, FundRow } from '../services/funds/fields.js';

let serial = 0;

export type FundOverrides = Partial<FundInsert> & {
  /** main fund code (default F<n>) */
  fundCode?: string;
  alternateCodes?: string[];
};

/** Inserts a fund request (Pending, requested today) with its main fund code and alternates. */
export async function insertFund(ctx: AppContext, overrides: FundOverrides = {}): Promise<FundRow> {
  const { db, tables: t } = storeOf(ctx);
  const n = ++serial;
  const { fundCode, alternateCodes = [], ...fields } = overrides;
  const today = new Date().toISOString().slice(0, 10);
  const [fund] = await db
    .insert(t.fundRequests)
    .values({
      name: `Fund ${n}`,
      client: 'Client A',
      status: 'Pending',
      requestDate: today,
      periodEnd: '2024-12-31',
      country: 'LU',
      currency: 'EUR',
      pm: 5,
      te: 3.75,
      sad: 0.25,
      ...fields,
    })
    .returning();
  await db
    .insert(t.fundCodes)
    .values([
      { fundRequestId: fund!.id, code: fundCode ?? `F${n}`, main: true },
      ...alternateCodes.map((code) => ({ fundRequestId: fund!.id, code, main: false })),
    ]);
  return fund!;
}

/** Inserts (or finds) an administrator by code. */
export async function insertAdministrator(ctx: AppContext, code: string, name = code.toUpperCase()): Promise<number> {
  const { db, tables: t } = storeOf(ctx);
  await db.insert(t.administrators).values({ code, name }).onConflictDoNothing();
  const [row] = await db.select({ id: t.administrators.id }).from(t.administrators).where(eq(t.administrators.code, code));
  return row!.id;
}

/**
 * Meridian Fund Services' Goldman Sachs Bond Fund (series S000013795 of the shipped fixtures,
 * client GOLDMAN SACHS TRUST), Approved, its administrator inserted first when missing.
 * @returns the fund request row
 */
export async function insertMeridianBondFund(ctx: AppContext, overrides: FundOverrides = {}): Promise<FundRow> {
  const administratorId = await insertAdministrator(ctx, 'meridian_fund_services', 'Meridian Fund Services');
  return insertFund(ctx, {
    name: 'Goldman Sachs Bond Fund',
    client: 'GOLDMAN SACHS TRUST',
    status: 'Approved',
    administratorId,
    fundCode: 'S000013795',
    ...overrides,
  });
}

/** Inserts a fund file (input file by default, status assigned). */
export async function insertFundFile(
  ctx: AppContext,
  fundRequestId: number,
  file: {
    kind?: FundFileKind;
    fileType: string;
    status?: string;
    disabled?: boolean;
    reviewed?: boolean;
    fileName?: string;
    validation?: Record<string, unknown>;
  },
): Promise<number> {
  const { db, tables: t } = storeOf(ctx);
  const [row] = await db
    .insert(t.fundFiles)
    .values({
      fundRequestId,
      kind: file.kind ?? 'input',
      fileType: file.fileType,
      fileName: file.fileName ?? `${file.fileType}.csv`,
      status: file.status ?? 'assigned',
      disabled: file.disabled ?? false,
      reviewed: file.reviewed ?? false,
      validation: file.validation ?? null,
    })
    .returning({ id: t.fundFiles.id });
  return row!.id;
}

/** Inserts a process row. */
export async function insertProcess(ctx: AppContext, fundRequestId: number, stage: Stage, status: JobStatus): Promise<number> {
  const { db, tables: t } = storeOf(ctx);
  const [row] = await db.insert(t.processes).values({ fundRequestId, stage, status }).returning({ id: t.processes.id });
  return row!.id;
}

/** ISO date `days` from today (negative: in the past). */
export function daysFromToday(days: number): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
