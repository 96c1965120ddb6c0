/**
 * Test data for fund requests: inserts rows with drizzle directly (no service rules), so tests of
 * listings, actions and reports can set up any state. Not used by the application.
 */
import type { AppContext } from '../../context.js';
import { administrators, fundCodes, fundFiles, fundRequests, processes, type FundFileKind, type JobStatus, type Stage } from '../../db/schema/index.js';
import type { FundInsert, FundRow } from './fields.js';

let serial = 0;

export type FundOverrides = Partial<FundInsert> & {
  /** main fund code (default F<n>) */
  fundCode?: string;
  alternateCodes?: string[];
};

/** Inserts a fund request (Pending, requested today) with its main fund code and alternates. */
export function insertFund(ctx: AppContext, overrides: FundOverrides = {}): FundRow {
  const n = ++serial;
  const { fundCode, alternateCodes = [], ...fields } = overrides;
  const today = new Date().toISOString().slice(0, 10);
  const fund = ctx.db
    .insert(fundRequests)
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
    .returning()
    .get();
  ctx.db
    .insert(fundCodes)
    .values([
      { fundRequestId: fund.id, code: fundCode ?? `F${n}`, main: true },
      ...alternateCodes.map((code) => ({ fundRequestId: fund.id, code, main: false })),
    ])
    .run();
  return fund;
}

/** Inserts (or finds) an administrator by code. */
export function insertAdministrator(ctx: AppContext, code: string, name = code.toUpperCase()): number {
  const row = ctx.db.insert(administrators).values({ code, name }).onConflictDoNothing().returning().get();
  return (
    row?.id ??
    ctx.db
      .select()
      .from(administrators)
      .all()
      .find((a) => a.code === code)!.id
  );
}

/** Inserts a fund file (input file by default, status assigned). */
export function insertFundFile(
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
): number {
  return ctx.db
    .insert(fundFiles)
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
    .returning({ id: fundFiles.id })
    .get().id;
}

/** Inserts a process row. */
export function insertProcess(ctx: AppContext, fundRequestId: number, stage: Stage, status: JobStatus): number {
  return ctx.db.insert(processes).values({ fundRequestId, stage, status }).returning({ id: processes.id }).get().id;
}

/** ISO date `days` from today (negative: in the past). */
export function daysFromToday(days: number): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
