/**
 * Live mappings (spec: delivery "Live mappings", auditor "Custom Mapping" tab; sections 5 and 8):
 * upload in modes master, custom (create) and update-custom with the name, client-name and reason
 * rules and messages; listing with `canLiveMappingBeDeleted` and the blocking fund requests;
 * deletion of custom mappings only. Assignment to funds is in `assignments.ts`.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011). The
 * reruns go through the job queue (`enqueue`, `server/queue/enqueue.ts`).
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { roleMayUse } from '../../../rules/access.js';
import { duplicateMappingMessage, MESSAGES } from '../../../rules/messages.js';
import { CLIENT_RULE, NAME_RULE } from '../../../rules/names.js';
import { enqueue } from '../../queue/queue.js';
import { parseMappingCsv, type MappingParseResult } from '../../../pipeline/mappings/parse.js';
import { MAPPING_TYPES, type MappingType } from '../../../pipeline/sdm/model.js';
import type { AppContext } from '../../context.js';
import { storeOf, type Tables } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../errors.js';
import { heavyWork } from '../../lib/guard.js';
import type { User } from '../auth/tokens.js';
import { fundsUsingMapping, upsertMasterMapping, type MappingRow } from './store.js';
import { mappingContentHash, recordMappingVersion } from './versions.js';
import { recordAudit } from '../audit/audit-log.js';

// the name rules and their messages are the rules module's (spec section 5)
export { CLIENT_RULE, NAME_RULE };
export const NAME_MESSAGE = MESSAGES.invalidName;
export const CLIENT_MESSAGE = MESSAGES.invalidClientName;

export type MappingMode = 'master' | 'custom' | 'update-custom';

export interface CreateMappingInput {
  administrator: string;
  mappingType: string;
  mappingMode: MappingMode;
  mappingName?: string;
  customId?: number;
  clientName?: string;
  rationale?: string;
  fileName: string;
  bytes: Uint8Array;
}

async function admin(ctx: AppContext, code: string) {
  const { db, tables: t } = storeOf(ctx);
  const [a] = await db.select().from(t.administrators).where(eq(t.administrators.code, code)).limit(1);
  if (!a) throw new NotFoundError(`No administrator with code: ${code}`);
  return a;
}

function assertType(type: string): MappingType {
  if (!(MAPPING_TYPES as readonly string[]).includes(type)) throw new ValidationError(`Unknown mapping type '${type}'; use one of ${MAPPING_TYPES.join(', ')}`);
  return type as MappingType;
}

/** Whether a user may change a custom mapping: its creator or a delivery team member (spec section 6). */
function canChange(user: User, m: Pick<MappingRow, 'userId'>): boolean {
  return m.userId === user.id || ['DeliveryTeamMember', 'Admin', 'Root'].includes(user.role);
}

/**
 * The mappings a user sees, each with `canToggle`: whether the user may select it on the Live
 * mappings screen (delivery spec "Live mappings": custom mappings only, and only their creator or
 * a delivery team member; master mappings never). Deleting checks the same rule again.
 */
export async function listMappingsFor(ctx: AppContext, user: User): Promise<Array<MappingView & { canToggle: boolean }>> {
  return (await listMappings(ctx)).map((v) => ({ ...v, canToggle: v.kind === 'custom' && canChange(user, { userId: v.user_auth_id }) }));
}

/** A mapping upload that passed the checks before its file is read: its TPA, type and the custom mapping it updates. */
export interface CheckedMappingInput {
  admin: Tables['administrators']['$inferSelect'];
  type: MappingType;
  existing?: MappingRow;
}

/**
 * The checks of `createMapping` before the file is read: a master mapping replaced only by the
 * delivery team (the Live mappings screen; an Auditor's Custom Mapping tab offers custom mappings
 * only), TPA, type, name, client name, reason, and for an update the custom mapping and the right
 * to change it.
 * @throws ValidationError, NotFoundError or ForbiddenError with the spec's messages
 */
export async function checkMappingInput(ctx: AppContext, user: User, input: CreateMappingInput): Promise<CheckedMappingInput> {
  if (input.mappingMode === 'master' && !roleMayUse('delivery', user.role))
    throw new ForbiddenError("Only the delivery team can replace a TPA's master mapping; upload it as a custom mapping instead");
  const { db, tables: t } = storeOf(ctx);
  const a = await admin(ctx, input.administrator);
  const type = assertType(input.mappingType);
  const problems: string[] = [];
  if (input.mappingMode === 'custom') {
    if (!input.mappingName || !NAME_RULE.test(input.mappingName)) problems.push(NAME_MESSAGE);
    else if ((await db.select({ id: t.mappings.id }).from(t.mappings).where(eq(t.mappings.description, input.mappingName)).limit(1)).length)
      problems.push(duplicateMappingMessage(input.mappingName));
    if (input.clientName && !CLIENT_RULE.test(input.clientName)) problems.push(CLIENT_MESSAGE);
    if (!input.rationale?.trim()) problems.push('A reason for creating the mapping is required');
    else if (input.rationale.length > 50) problems.push('The reason can be at most 50 characters');
  } else if (input.rationale && input.rationale.length > 200) problems.push('The reason for the change can be at most 200 characters');
  let existing: MappingRow | undefined;
  if (input.mappingMode === 'update-custom') {
    if (!input.customId) problems.push('Choose the custom mapping to update');
    else {
      [existing] = await db.select().from(t.mappings).where(eq(t.mappings.id, input.customId));
      if (!existing || existing.kind !== 'custom') throw new NotFoundError(`No custom mapping with id: ${input.customId}`);
      if (!canChange(user, existing)) throw new ForbiddenError('Only its creator or a delivery team member can change this custom mapping');
    }
  }
  if (problems.length) throw new ValidationError(problems[0], problems);
  return { admin: a, type, existing };
}

/** Reads a mapping file (heavy for a large file: it runs in the parse pool for requests). */
export function parseMappingFile(type: MappingType, fileName: string, bytes: Uint8Array, maxRows?: number): MappingParseResult {
  heavyWork('mapping file validation');
  return parseMappingCsv(type, fileName, bytes, { maxRows });
}

/**
 * Saves a checked mapping upload from its read file and reruns the funds it affects.
 * @throws ValidationError with the file's errors plus `totalErrorsFound` and `maxErrorsNo`
 */
export async function saveMapping(
  ctx: AppContext,
  user: User,
  input: CreateMappingInput,
  checked: CheckedMappingInput,
  parsed: MappingParseResult,
): Promise<MappingRow> {
  const { admin: a, type, existing } = checked;
  if (!parsed.valid) {
    throw new ValidationError(`${input.fileName} is not a valid ${type}`, parsed.errors, parsed.totalErrorsFound, { maxErrorsNo: parsed.maxErrorsNo });
  }
  let saved: MappingRow;
  if (input.mappingMode === 'master') {
    saved = (
      await upsertMasterMapping(ctx, {
        administratorId: a.id,
        adminCode: a.code,
        type,
        rows: parsed.rows,
        userId: user.id,
        reason: input.rationale?.trim() || `uploaded ${input.fileName}`,
        fileName: input.fileName,
      })
    ).mapping;
  } else {
    const sha256 = mappingContentHash(parsed.rows);
    if (existing && existing.sha256 === sha256) return existing;
    const { tables: t } = storeOf(ctx);
    saved = await transaction(ctx, async (tx) => {
      const [row] = existing
        ? await tx.update(t.mappings).set({ rows: parsed.rows, sha256, updatedAt: new Date().toISOString() }).where(eq(t.mappings.id, existing.id)).returning()
        : await tx
            .insert(t.mappings)
            .values({
              administratorId: a.id,
              type,
              kind: 'custom',
              description: input.mappingName!,
              clientName: input.clientName ?? null,
              rationale: input.rationale ?? null,
              userId: user.id,
              rows: parsed.rows,
              sha256,
            })
            .returning();
      const reason = input.rationale?.trim() || (existing ? `updated from ${input.fileName}` : `created from ${input.fileName}`);
      const v = await recordMappingVersion(ctx, row.id, { rows: parsed.rows, sha256, userId: user.id, reason, fileName: input.fileName });
      return { ...row, version: v.version };
    });
  }
  await rerunFunds(
    ctx,
    user,
    await fundsAffectedBy(ctx, saved),
    `mapping ${saved.description} ${existing || input.mappingMode === 'master' ? 'updated' : 'created'}`,
  );
  return saved;
}

/**
 * Creates or updates a mapping from an uploaded csv.
 * @throws ValidationError with the spec's messages, or with the file's errors plus `totalErrorsFound` and `maxErrorsNo`
 */
export async function createMapping(ctx: AppContext, user: User, input: CreateMappingInput): Promise<MappingRow> {
  const checked = await checkMappingInput(ctx, user, input);
  return saveMapping(ctx, user, input, checked, parseMappingFile(checked.type, input.fileName, input.bytes, ctx.config.maxUploadRows));
}

/** Funds whose results a mapping change affects: those assigned the mapping, or for a master, every live fund of the TPA without a custom of that type. */
export async function fundsAffectedBy(ctx: AppContext, m: MappingRow): Promise<number[]> {
  if (m.kind === 'custom') return (await fundsUsingMapping(ctx, [m.id])).map((f) => f.fundRequestId);
  const { db, tables: t } = storeOf(ctx);
  const funds = await db
    .select({ id: t.fundRequests.id })
    .from(t.fundRequests)
    .where(and(eq(t.fundRequests.administratorId, m.administratorId), inArray(t.fundRequests.status, ['Pending', 'Approved'])));
  return funds.map((f) => f.id);
}

/** Queues standardization (and so every later stage) again for funds, force run, `reason` in the job's payload. */
export async function rerunFunds(ctx: AppContext, user: User | null, ids: number[], reason: string): Promise<void> {
  for (const id of new Set(ids))
    await enqueue(ctx, { stage: 'standardization', fundRequestId: id, forceRun: true, payload: { reason }, createdById: user?.id ?? null });
}

/**
 * A mapping as the grids show it (spec delivery section 3 "Mapping"): `fundRequests` are the funds
 * that block deleting it (assigned custom mappings), `funds` every live fund it feeds (for a
 * master: the TPA's live funds with no custom mapping of its type).
 */
export function mappingView(
  m: MappingRow,
  a: { code: string; name: string; id: number },
  blocking: Array<{ id: number; code: string | null }>,
  owner?: string | null,
  feeds: Array<{ id: number; code: string | null }> = blocking,
) {
  return {
    id: m.id,
    type: m.type,
    kind: m.kind,
    description: m.description,
    user_auth_id: m.userId,
    owner: owner ?? null,
    clientName: m.clientName,
    rationale: m.rationale,
    updated_at: m.updatedAt,
    version: m.version,
    administratorName: a.name,
    administrator: { code: a.code, name: a.name, id: a.id },
    rowCount: m.rows.length,
    canLiveMappingBeDeleted: m.kind === 'custom' && blocking.length === 0,
    fundRequests: blocking,
    funds: feeds,
  };
}
export type MappingView = ReturnType<typeof mappingView>;

/** Every active mapping with its administrator, owner and blocking fund requests. */
export async function listMappings(
  ctx: AppContext,
  filter: { administrator?: string; type?: string; kind?: 'master' | 'custom' } = {},
): Promise<MappingView[]> {
  const { db, tables: t } = storeOf(ctx);
  const rows = (
    await db
      .select({ m: t.mappings, a: t.administrators, u: t.users })
      .from(t.mappings)
      .innerJoin(t.administrators, eq(t.mappings.administratorId, t.administrators.id))
      .leftJoin(t.users, eq(t.mappings.userId, t.users.id))
      .where(eq(t.mappings.active, true))
      .orderBy(asc(t.administrators.name), asc(t.mappings.type), asc(t.mappings.kind), asc(t.mappings.description))
  ).filter(
    ({ m, a }) =>
      (!filter.administrator || a.code === filter.administrator) && (!filter.type || m.type === filter.type) && (!filter.kind || m.kind === filter.kind),
  );
  const usage = await fundsUsingMapping(
    ctx,
    rows.map((r) => r.m.id),
  );
  const masters = rows.filter((r) => r.m.kind === 'master');
  const live = masters.length
    ? await db
        .select({ id: t.fundRequests.id, administratorId: t.fundRequests.administratorId })
        .from(t.fundRequests)
        .where(
          and(
            inArray(t.fundRequests.status, ['Pending', 'Approved']),
            inArray(
              t.fundRequests.administratorId,
              masters.map((r) => r.m.administratorId),
            ),
          ),
        )
        // in one order on every database
        .orderBy(asc(t.fundRequests.id))
    : [];
  // funds with an assigned custom mapping, by type: a master of that type does not feed them
  const customOf = new Set(
    live.length
      ? (
          await db
            .select({ f: t.fundMappings.fundRequestId, type: t.mappings.type })
            .from(t.fundMappings)
            .innerJoin(t.mappings, eq(t.fundMappings.mappingId, t.mappings.id))
            .where(and(eq(t.mappings.active, true), eq(t.mappings.kind, 'custom')))
        ).map((x) => `${x.f}|${x.type}`)
      : [],
  );
  const fundIds = [...new Set([...usage.map((u) => u.fundRequestId), ...live.map((f) => f.id)])];
  const codes = new Map<number, string>();
  for (let i = 0; i < fundIds.length; i += 500)
    for (const c of await db
      .select()
      .from(t.fundCodes)
      .where(and(inArray(t.fundCodes.fundRequestId, fundIds.slice(i, i + 500)), eq(t.fundCodes.main, true))))
      codes.set(c.fundRequestId, c.code);
  const ref = (id: number) => ({ id, code: codes.get(id) ?? null });
  return rows.map(({ m, a, u }) => {
    const blocking = usage.filter((x) => x.mappingId === m.id).map((x) => ref(x.fundRequestId));
    const feeds =
      m.kind === 'master' ? live.filter((f) => f.administratorId === m.administratorId && !customOf.has(`${f.id}|${m.type}`)).map((f) => ref(f.id)) : blocking;
    return mappingView(m, a, blocking, u ? `${u.firstName} ${u.lastName}`.trim() : null, feeds);
  });
}

/** The mapping types of a TPA and its mappings of each (spec `GET /mappings/types/{administratorCode}`). */
export async function mappingTypes(ctx: AppContext, administratorCode: string) {
  await admin(ctx, administratorCode);
  const list = await listMappings(ctx, { administrator: administratorCode });
  return MAPPING_TYPES.map((type) => ({ type, mappings: list.filter((m) => m.type === type) }));
}

/** Mapping types for a fund: its TPA's mappings per type with the one in use marked. */
export async function mappingTypesForFund(ctx: AppContext, fundRequestId: number) {
  const { db, tables: t } = storeOf(ctx);
  const [fund] = await db.select({ administratorId: t.fundRequests.administratorId }).from(t.fundRequests).where(eq(t.fundRequests.id, fundRequestId));
  if (!fund) throw new NotFoundError(`No such fund request with id: ${fundRequestId}`);
  if (!fund.administratorId) return [];
  const [a] = await db.select().from(t.administrators).where(eq(t.administrators.id, fund.administratorId));
  const assigned = new Set(
    (await db.select({ mappingId: t.fundMappings.mappingId }).from(t.fundMappings).where(eq(t.fundMappings.fundRequestId, fundRequestId))).map(
      (x) => x.mappingId,
    ),
  );
  return (await mappingTypes(ctx, a.code)).map((byType) => {
    const custom = byType.mappings.find((m) => m.kind === 'custom' && assigned.has(m.id));
    return { ...byType, inUse: custom?.id ?? byType.mappings.find((m) => m.kind === 'master')?.id ?? null };
  });
}

/**
 * Deletes custom mappings. Master mappings, mappings in use and other users' mappings (unless a
 * delivery team member) are refused.
 * @throws ValidationError naming the blocking fund requests
 */
export async function deleteMappings(ctx: AppContext, user: User, ids: number[]): Promise<{ deleted: number[] }> {
  const { db, tables: t } = storeOf(ctx);
  const views = (await listMappings(ctx)).filter((m) => ids.includes(m.id));
  for (const id of ids) if (!views.some((v) => v.id === id)) throw new NotFoundError(`No mapping with id: ${id}`);
  const errors: string[] = [];
  for (const v of views) {
    if (v.kind === 'master') errors.push(`${v.description} is a master mapping; master mappings cannot be deleted`);
    else if (!v.canLiveMappingBeDeleted) errors.push(`${v.description} is used by fund request(s) ${v.fundRequests.map((f) => f.code ?? f.id).join(', ')}`);
    else {
      const [row] = await db.select().from(t.mappings).where(eq(t.mappings.id, v.id));
      if (!canChange(user, row)) errors.push(`${v.description} can only be deleted by its creator or a delivery team member`);
    }
  }
  if (errors.length) throw new ValidationError('Something went wrong when we tried to delete the mapping', errors);
  await db.update(t.mappings).set({ active: false, updatedAt: new Date().toISOString() }).where(inArray(t.mappings.id, ids));
  await recordAudit(ctx, user, 'mapping-deleted', `mappings:${ids.join(',')}`, { ids, names: views.map((v) => v.description) });
  return { deleted: ids };
}
