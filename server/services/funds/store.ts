/**
 * Writing fund requests with their codes, recipients and mapping assignments: the one place rows
 * are inserted or updated, used by single saves and bulk uploads (inside the caller's transaction).
 */
import { and, eq, inArray, not } from 'drizzle-orm';
import type Database from 'better-sqlite3';
import { insertRow } from '../../db/insert.js';
import { fundCodes, fundMappings, fundRequests, recipients, trail } from '../../db/schema/index.js';
import { fromFundFields, type FundFields, type FundInsert } from './fields.js';
import { writeTrail, type Tx } from './trail.js';

export interface FundCodeInput {
  code: string;
  main: boolean;
}
export interface RecipientInput {
  full_name?: string;
  email: string;
  role: string;
}

export interface StoreFundInput {
  administratorId: number | null;
  fields: FundFields;
  codes: FundCodeInput[];
  recipients?: RecipientInput[];
  mappingIds?: number[];
  userId: number | null;
  /** Trail action name, e.g. 'create', 'bulk-upload'. */
  action: string;
  extra?: Partial<FundInsert>;
}

/**
 * Inserts a fund request with its codes, recipients, mapping assignments and trail entry; returns
 * its id. Uses cached prepared statements on the raw connection (bulk uploads insert thousands),
 * so call it inside `ctx.db.transaction(...)` to keep it atomic.
 */
export function insertFundRequest(sqlite: Database.Database, input: StoreFundInput): number {
  const values = { ...fromFundFields(input.fields), ...input.extra, administratorId: input.administratorId, createdById: input.userId } as FundInsert;
  const id = insertRow(sqlite, fundRequests, values);
  for (const c of input.codes) insertRow(sqlite, fundCodes, { fundRequestId: id, code: c.code, main: c.main });
  for (const r of input.recipients ?? []) insertRow(sqlite, recipients, { fundRequestId: id, fullName: r.full_name ?? '', email: r.email, role: r.role });
  for (const mappingId of input.mappingIds ?? []) insertRow(sqlite, fundMappings, { fundRequestId: id, mappingId });
  insertRow(sqlite, trail, {
    fundRequestId: id,
    userId: input.userId,
    action: input.action,
    before: null,
    after: { ...input.fields, fund_codes: input.codes },
  });
  return id;
}

/**
 * Updates a fund request's fields, and replaces its codes / recipients / mappings when given.
 * @param before the wire fields before the change, for the trail
 */
export function updateFundRequest(
  tx: Tx,
  id: number,
  input: Omit<StoreFundInput, 'administratorId'> & { administratorId?: number | null; before: unknown },
): void {
  const values = { ...fromFundFields(input.fields), ...input.extra, updatedAt: new Date().toISOString() } as Partial<FundInsert>;
  if (input.administratorId !== undefined) values.administratorId = input.administratorId;
  tx.update(fundRequests).set(values).where(eq(fundRequests.id, id)).run();
  if (input.codes.length) {
    const keep = input.codes.map((c) => c.code);
    tx.delete(fundCodes)
      .where(and(eq(fundCodes.fundRequestId, id), not(inArray(fundCodes.code, keep))))
      .run();
    for (const c of input.codes) {
      const row = tx
        .select()
        .from(fundCodes)
        .where(and(eq(fundCodes.fundRequestId, id), eq(fundCodes.code, c.code)))
        .get();
      if (row) tx.update(fundCodes).set({ main: c.main }).where(eq(fundCodes.id, row.id)).run();
      else tx.insert(fundCodes).values({ fundRequestId: id, code: c.code, main: c.main }).run();
    }
  }
  if (input.recipients) {
    tx.delete(recipients).where(eq(recipients.fundRequestId, id)).run();
    if (input.recipients.length)
      tx.insert(recipients)
        .values(input.recipients.map((r) => ({ fundRequestId: id, fullName: r.full_name ?? '', email: r.email, role: r.role })))
        .run();
  }
  if (input.mappingIds) {
    tx.delete(fundMappings).where(eq(fundMappings.fundRequestId, id)).run();
    if (input.mappingIds.length)
      tx.insert(fundMappings)
        .values(input.mappingIds.map((mappingId) => ({ fundRequestId: id, mappingId })))
        .run();
  }
  writeTrail(tx, {
    fundRequestId: id,
    userId: input.userId,
    action: input.action,
    before: input.before,
    after: { ...input.fields, ...(input.codes.length ? { fund_codes: input.codes } : {}) },
  });
}
