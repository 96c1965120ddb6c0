/**
 * Mapping versions (Live mappings history; `fund-audit mappings history|diff|version`): every
 * change of a master or custom mapping's content (upload, self-onboarding, update-custom, shipped
 * mappings reloaded) adds an immutable version (number, content hash, author, reason, time, the
 * rows). A standardization records the versions it applied (`mapping_version_uses`), so each
 * version names the funds it fed and the work paper names the versions behind its figures.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { createHash } from 'node:crypto';
import { and, asc, desc, eq, inArray, max, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { diffMappingRows, type MappingDiff } from '../../../pipeline/mappings/diff.js';
import type { AppContext } from '../../context.js';
import { storeOf, type Dialect, type Tables } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import { NotFoundError, ValidationError } from '../../errors.js';

export type MappingVersionRow = Tables['mappingVersions']['$inferSelect'];

/** sha256 (hex) of a mapping's rows as stored. */
export function mappingContentHash(rows: unknown): string {
  return createHash('sha256').update(JSON.stringify(rows)).digest('hex');
}

/**
 * Adds the next version of a mapping with its rows and sets the mapping's current version (call it
 * inside the `transaction` that writes the mapping's new content: it writes in that transaction).
 * @returns the version row
 */
export async function recordMappingVersion(
  ctx: AppContext,
  mappingId: number,
  input: { rows: Array<Record<string, string>>; sha256: string; userId: number | null; reason: string; fileName?: string | null },
): Promise<MappingVersionRow> {
  const { db, tables: t } = storeOf(ctx);
  const [last] = await db
    .select({ v: max(t.mappingVersions.version) })
    .from(t.mappingVersions)
    .where(eq(t.mappingVersions.mappingId, mappingId));
  const [row] = await db
    .insert(t.mappingVersions)
    .values({
      mappingId,
      version: (last?.v ?? 0) + 1,
      sha256: input.sha256,
      rows: input.rows,
      userId: input.userId,
      reason: input.reason.trim() || 'changed',
      fileName: input.fileName ?? null,
    })
    .returning();
  await db.update(t.mappings).set({ version: row.version }).where(eq(t.mappings.id, mappingId));
  return row;
}

/** A mapping version as the history lists it. */
export interface MappingVersionView {
  version: number;
  sha256: string;
  author: string | null;
  reason: string;
  fileName: string | null;
  createdAt: string;
  rowCount: number;
  current: boolean;
  /** Fund requests this version fed (their standardizations applied it). */
  funds: Array<{ id: number; code: string | null; name: string; lastUsedAt: string }>;
}

async function mappingOrThrow(ctx: AppContext, id: number) {
  if (!Number.isInteger(id) || id < 1) throw new ValidationError(`Mapping ids are positive whole numbers, not '${id}'`);
  const { db, tables: t } = storeOf(ctx);
  const [m] = await db
    .select({ m: t.mappings, a: t.administrators })
    .from(t.mappings)
    .innerJoin(t.administrators, eq(t.mappings.administratorId, t.administrators.id))
    .where(eq(t.mappings.id, id));
  if (!m) throw new NotFoundError(`No mapping with id: ${id}`);
  return m;
}

/** The number of elements of a JSON array column: `json_array_length` on SQLite, `jsonb_array_length` on PostgreSQL. */
function jsonArrayLength(dialect: Dialect, column: SQLiteColumn): SQL<number> {
  return dialect === 'postgres' ? sql<number>`jsonb_array_length(${column})` : sql<number>`json_array_length(${column})`;
}

/**
 * A mapping's versions, newest first, each with its author, reason, row count and the funds it fed.
 * @throws NotFoundError for an unknown mapping; ValidationError for an id that is not a positive whole number
 */
export async function mappingHistory(ctx: AppContext, id: number) {
  const { m, a } = await mappingOrThrow(ctx, id);
  const { dialect, db, tables: t } = storeOf(ctx);
  const versions = await db
    .select({ v: t.mappingVersions, u: t.users, rowCount: jsonArrayLength(dialect, t.mappingVersions.rows) })
    .from(t.mappingVersions)
    .leftJoin(t.users, eq(t.mappingVersions.userId, t.users.id))
    .where(eq(t.mappingVersions.mappingId, id))
    .orderBy(desc(t.mappingVersions.version));
  const uses = versions.length
    ? await db
        .select({
          versionId: t.mappingVersionUses.mappingVersionId,
          fund: t.fundRequests.id,
          name: t.fundRequests.name,
          code: t.fundCodes.code,
          lastUsedAt: t.mappingVersionUses.lastUsedAt,
        })
        .from(t.mappingVersionUses)
        .innerJoin(t.fundRequests, eq(t.mappingVersionUses.fundRequestId, t.fundRequests.id))
        .leftJoin(t.fundCodes, and(eq(t.fundCodes.fundRequestId, t.fundRequests.id), eq(t.fundCodes.main, true)))
        .where(
          inArray(
            t.mappingVersionUses.mappingVersionId,
            versions.map((x) => x.v.id),
          ),
        )
        .orderBy(asc(t.fundRequests.id))
    : [];
  return {
    id: m.id,
    description: m.description,
    type: m.type,
    kind: m.kind,
    administrator: { code: a.code, name: a.name },
    currentVersion: m.version,
    versions: versions.map(
      ({ v, u, rowCount }): MappingVersionView => ({
        version: v.version,
        sha256: v.sha256,
        author: u ? `${u.firstName} ${u.lastName}`.trim() || u.email : null,
        reason: v.reason,
        fileName: v.fileName,
        createdAt: v.createdAt,
        rowCount: Number(rowCount),
        current: v.version === m.version,
        funds: uses.filter((x) => x.versionId === v.id).map((x) => ({ id: x.fund, code: x.code, name: x.name, lastUsedAt: x.lastUsedAt })),
      }),
    ),
  };
}
export type MappingHistory = Awaited<ReturnType<typeof mappingHistory>>;

/**
 * One version of a mapping with its rows.
 * @throws NotFoundError for an unknown mapping or version
 */
export async function mappingVersion(ctx: AppContext, id: number, version: number): Promise<MappingVersionRow & { type: string; description: string }> {
  const { m } = await mappingOrThrow(ctx, id);
  if (!Number.isInteger(version) || version < 1) throw new ValidationError(`Versions are positive whole numbers, not '${version}'`);
  const { db, tables: t } = storeOf(ctx);
  const [v] = await db
    .select()
    .from(t.mappingVersions)
    .where(and(eq(t.mappingVersions.mappingId, id), eq(t.mappingVersions.version, version)));
  if (!v) throw new NotFoundError(`Mapping ${m.description} (id ${id}) has no version ${version}; it has versions 1 to ${m.version}`);
  return { ...v, type: m.type, description: m.description };
}

/**
 * The rows added, removed and changed from version `from` to version `to` of a mapping.
 * @throws NotFoundError for an unknown mapping or version
 */
export async function diffMappingVersions(
  ctx: AppContext,
  id: number,
  from: number,
  to: number,
): Promise<{ id: number; description: string; type: string; from: number; to: number } & MappingDiff> {
  const a = await mappingVersion(ctx, id, from);
  const b = await mappingVersion(ctx, id, to);
  return { id, description: a.description, type: a.type, from, to, ...diffMappingRows(a.type, a.rows, b.rows) };
}

/** A mapping and version a standardization applied. */
export interface MappingVersionUsed {
  id: number;
  kind: 'master' | 'custom';
  description: string;
  version: number;
  sha256: string;
}

/** Records that a fund's standardization applied these mapping versions (first and latest time). */
export async function recordMappingUses(ctx: AppContext, fundRequestId: number, used: MappingVersionUsed[]): Promise<void> {
  if (!used.length) return;
  const now = new Date().toISOString();
  const { tables: t } = storeOf(ctx);
  await transaction(ctx, async (tx) => {
    for (const u of used) {
      const [v] = await tx
        .select({ id: t.mappingVersions.id })
        .from(t.mappingVersions)
        .where(and(eq(t.mappingVersions.mappingId, u.id), eq(t.mappingVersions.version, u.version)));
      if (!v) continue;
      await tx
        .insert(t.mappingVersionUses)
        .values({ mappingVersionId: v.id, fundRequestId })
        .onConflictDoUpdate({ target: [t.mappingVersionUses.mappingVersionId, t.mappingVersionUses.fundRequestId], set: { lastUsedAt: now } });
    }
  });
}
