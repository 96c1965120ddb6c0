/**
 * Assignment of custom mappings to funds (spec: delivery "Live mappings", auditor "Custom Mapping"
 * tab; sections 5 and 8), single and bulk, and their removal (back to the master mapping); each
 * reruns the funds from standardization and leaves a trail entry per fund.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011). The
 * reruns go through the job queue (`enqueue`, `server/queue/enqueue.ts`).
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { User } from '../auth/tokens.js';
import { writeTrail } from '../trail/trail.js';
import { rerunFunds } from './mappings.js';

/**
 * Assigns a custom mapping to funds (replacing another custom of the same type) and reruns them.
 * @throws ValidationError when the mapping is not custom or a fund belongs to another TPA
 */
export async function assignMapping(ctx: AppContext, user: User, input: { fundRequestIds: number[]; mappingId: number }): Promise<{ assigned: number[] }> {
  const { db, tables: t } = storeOf(ctx);
  const [m] = await db
    .select()
    .from(t.mappings)
    .where(and(eq(t.mappings.id, input.mappingId), eq(t.mappings.active, true)));
  if (!m) throw new NotFoundError(`No mapping with id: ${input.mappingId}`);
  if (m.kind !== 'custom') throw new ValidationError('Only custom mappings are assigned; master mappings apply to every fund of their TPA');
  if (!input.fundRequestIds.length) throw new ValidationError('Select at least one fund');
  const funds = await db
    .select({ id: t.fundRequests.id, administratorId: t.fundRequests.administratorId })
    .from(t.fundRequests)
    .where(inArray(t.fundRequests.id, input.fundRequestIds))
    .orderBy(asc(t.fundRequests.id));
  for (const id of input.fundRequestIds) if (!funds.some((f) => f.id === id)) throw new NotFoundError(`No such fund request with id: ${id}`);
  const wrong = funds.filter((f) => f.administratorId !== m.administratorId);
  if (wrong.length)
    throw new ValidationError(`Fund request(s) ${wrong.map((f) => f.id).join(', ')} belong to another administrator than mapping ${m.description}`);
  await transaction(ctx, async (tx) => {
    for (const f of funds) {
      const same = await tx
        .select({ fm: t.fundMappings, m: t.mappings })
        .from(t.fundMappings)
        .innerJoin(t.mappings, eq(t.fundMappings.mappingId, t.mappings.id))
        .where(and(eq(t.fundMappings.fundRequestId, f.id), eq(t.mappings.type, m.type)))
        .orderBy(asc(t.fundMappings.id));
      for (const s of same) await tx.delete(t.fundMappings).where(eq(t.fundMappings.id, s.fm.id));
      await tx.insert(t.fundMappings).values({ fundRequestId: f.id, mappingId: m.id });
      await writeTrail(ctx, {
        fundRequestId: f.id,
        userId: user.id,
        action: 'mapping-assign',
        before: { mappings: same.map((s) => s.m.description) },
        after: { mappings: [m.description] },
      });
    }
  });
  await rerunFunds(ctx, user, input.fundRequestIds, `mapping ${m.description} assigned`);
  return { assigned: input.fundRequestIds };
}

/** Removes fund-mapping pairs (back to the master mapping) and reruns those funds. */
export async function removeMappings(ctx: AppContext, user: User, pairs: Array<{ fundRequestId: number; mappingId: number }>): Promise<{ removed: number }> {
  const { tables: t } = storeOf(ctx);
  let removed = 0;
  await transaction(ctx, async (tx) => {
    for (const p of pairs) {
      const gone = await tx
        .delete(t.fundMappings)
        .where(and(eq(t.fundMappings.fundRequestId, p.fundRequestId), eq(t.fundMappings.mappingId, p.mappingId)))
        .returning({ id: t.fundMappings.id });
      if (gone.length) {
        removed++;
        await writeTrail(ctx, { fundRequestId: p.fundRequestId, userId: user.id, action: 'mapping-remove', before: { mappingId: p.mappingId }, after: null });
      }
    }
  });
  await rerunFunds(
    ctx,
    user,
    pairs.map((p) => p.fundRequestId),
    'custom mapping removed',
  );
  return { removed };
}
