/**
 * Writing one fund request with its codes, recipients, mapping assignments and trail entry (saves
 * of `fund-write.ts`, overwrites of the bulk save); inside a `transaction` of the context, in it.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, eq, inArray, not } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { fromFundFields, type FundFields, type FundInsert } from './fields.js';
import { writeTrail } from '../trail/trail.js';

export interface FundCodeInput {
  code: string;
  main: boolean;
}
export interface RecipientInput {
  full_name?: string;
  email: string;
  role: string;
}

/** A fund request to write with its codes, recipients and mapping assignments. */
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
 * Inserts a fund request with its codes, recipients, mapping assignments and trail entry.
 * @returns its id
 */
export async function createFundRequest(ctx: AppContext, input: StoreFundInput): Promise<number> {
  const { db, tables: t } = storeOf(ctx);
  const values = { ...fromFundFields(input.fields), ...input.extra, administratorId: input.administratorId, createdById: input.userId } as FundInsert;
  const [row] = await db.insert(t.fundRequests).values(values).returning({ id: t.fundRequests.id });
  const id = row!.id;
  if (input.codes.length) await db.insert(t.fundCodes).values(input.codes.map((c) => ({ fundRequestId: id, code: c.code, main: c.main })));
  if (input.recipients?.length)
    await db.insert(t.recipients).values(input.recipients.map((r) => ({ fundRequestId: id, fullName: r.full_name ?? '', email: r.email, role: r.role })));
  if (input.mappingIds?.length) await db.insert(t.fundMappings).values(input.mappingIds.map((mappingId) => ({ fundRequestId: id, mappingId })));
  await writeTrail(ctx, { fundRequestId: id, userId: input.userId, action: input.action, before: null, after: { ...input.fields, fund_codes: input.codes } });
  return id;
}

/**
 * Updates a fund request's fields, and replaces its codes / recipients / mappings when given.
 * @param input.before the wire fields before the change, for the trail
 */
export async function changeFundRequest(
  ctx: AppContext,
  id: number,
  input: Omit<StoreFundInput, 'administratorId'> & { administratorId?: number | null; before: unknown },
): Promise<void> {
  const { db, tables: t } = storeOf(ctx);
  const values = { ...fromFundFields(input.fields), ...input.extra, updatedAt: new Date().toISOString() } as Partial<FundInsert>;
  if (input.administratorId !== undefined) values.administratorId = input.administratorId;
  await db.update(t.fundRequests).set(values).where(eq(t.fundRequests.id, id));
  if (input.codes.length) {
    const keep = input.codes.map((c) => c.code);
    await db.delete(t.fundCodes).where(and(eq(t.fundCodes.fundRequestId, id), not(inArray(t.fundCodes.code, keep))));
    const current = await db.select().from(t.fundCodes).where(eq(t.fundCodes.fundRequestId, id));
    for (const c of input.codes) {
      const row = current.find((r) => r.code === c.code);
      if (row) await db.update(t.fundCodes).set({ main: c.main }).where(eq(t.fundCodes.id, row.id));
      else await db.insert(t.fundCodes).values({ fundRequestId: id, code: c.code, main: c.main });
    }
  }
  if (input.recipients) {
    await db.delete(t.recipients).where(eq(t.recipients.fundRequestId, id));
    if (input.recipients.length)
      await db.insert(t.recipients).values(input.recipients.map((r) => ({ fundRequestId: id, fullName: r.full_name ?? '', email: r.email, role: r.role })));
  }
  if (input.mappingIds) {
    await db.delete(t.fundMappings).where(eq(t.fundMappings.fundRequestId, id));
    if (input.mappingIds.length) await db.insert(t.fundMappings).values(input.mappingIds.map((mappingId) => ({ fundRequestId: id, mappingId })));
  }
  await writeTrail(ctx, {
    fundRequestId: id,
    userId: input.userId,
    action: input.action,
    before: input.before,
    after: { ...input.fields, ...(input.codes.length ? { fund_codes: input.codes } : {}) },
  });
}
