/**
 * Mapping versions (Live mappings history; `fund-audit mappings history|diff|version`): every
 * change of a master or custom mapping's content (upload, self-onboarding, update-custom, shipped
 * mappings reloaded) adds an immutable version (number, content hash, author, reason, time, the
 * rows). A standardization records the versions it applied (`mapping_version_uses`), so each
 * version names the funds it fed and the work paper names the versions behind its figures.
 */
import { createHash } from 'node:crypto';
import { and, asc, desc, eq, inArray, max, sql } from 'drizzle-orm';
import { diffMappingRows, type MappingDiff } from '../../../pipeline/mappings/diff.js';
import type { AppContext } from '../../context.js';
import { administrators, fundCodes, fundRequests, mappings, mappingVersions, mappingVersionUses, users } from '../../db/schema/index.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { Tx } from '../funds/trail.js';

export type MappingVersionRow = typeof mappingVersions.$inferSelect;

/** sha256 (hex) of a mapping's rows as stored. */
export function mappingContentHash(rows: unknown): string {
  return createHash('sha256').update(JSON.stringify(rows)).digest('hex');
}

/**
 * Adds the next version of a mapping with its rows and sets the mapping's current version (call it
 * in the transaction that writes the mapping's new content).
 * @returns the version row
 */
export function recordMappingVersion(
  tx: Tx,
  mappingId: number,
  input: { rows: Array<Record<string, string>>; sha256: string; userId: number | null; reason: string; fileName?: string | null },
): MappingVersionRow {
  const last =
    tx
      .select({ v: max(mappingVersions.version) })
      .from(mappingVersions)
      .where(eq(mappingVersions.mappingId, mappingId))
      .get()?.v ?? 0;
  const row = tx
    .insert(mappingVersions)
    .values({
      mappingId,
      version: last + 1,
      sha256: input.sha256,
      rows: input.rows,
      userId: input.userId,
      reason: input.reason.trim() || 'changed',
      fileName: input.fileName ?? null,
    })
    .returning()
    .get();
  tx.update(mappings).set({ version: row.version }).where(eq(mappings.id, mappingId)).run();
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

function mappingOrThrow(ctx: AppContext, id: number) {
  if (!Number.isInteger(id) || id < 1) throw new ValidationError(`Mapping ids are positive whole numbers, not '${id}'`);
  const m = ctx.db
    .select({ m: mappings, a: administrators })
    .from(mappings)
    .innerJoin(administrators, eq(mappings.administratorId, administrators.id))
    .where(eq(mappings.id, id))
    .get();
  if (!m) throw new NotFoundError(`No mapping with id: ${id}`);
  return m;
}

/**
 * A mapping's versions, newest first, each with its author, reason, row count and the funds it fed.
 * @throws NotFoundError for an unknown mapping; ValidationError for an id that is not a positive whole number
 */
export function mappingHistory(ctx: AppContext, id: number) {
  const { m, a } = mappingOrThrow(ctx, id);
  const versions = ctx.db
    .select({ v: mappingVersions, u: users, rowCount: sql<number>`json_array_length(${mappingVersions.rows})` })
    .from(mappingVersions)
    .leftJoin(users, eq(mappingVersions.userId, users.id))
    .where(eq(mappingVersions.mappingId, id))
    .orderBy(desc(mappingVersions.version))
    .all();
  const uses = versions.length
    ? ctx.db
        .select({
          versionId: mappingVersionUses.mappingVersionId,
          fund: fundRequests.id,
          name: fundRequests.name,
          code: fundCodes.code,
          lastUsedAt: mappingVersionUses.lastUsedAt,
        })
        .from(mappingVersionUses)
        .innerJoin(fundRequests, eq(mappingVersionUses.fundRequestId, fundRequests.id))
        .leftJoin(fundCodes, and(eq(fundCodes.fundRequestId, fundRequests.id), eq(fundCodes.main, true)))
        .where(
          inArray(
            mappingVersionUses.mappingVersionId,
            versions.map((x) => x.v.id),
          ),
        )
        .orderBy(asc(fundRequests.id))
        .all()
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
export type MappingHistory = ReturnType<typeof mappingHistory>;

/**
 * One version of a mapping with its rows.
 * @throws NotFoundError for an unknown mapping or version
 */
export function mappingVersion(ctx: AppContext, id: number, version: number): MappingVersionRow & { type: string; description: string } {
  const { m } = mappingOrThrow(ctx, id);
  if (!Number.isInteger(version) || version < 1) throw new ValidationError(`Versions are positive whole numbers, not '${version}'`);
  const v = ctx.db
    .select()
    .from(mappingVersions)
    .where(and(eq(mappingVersions.mappingId, id), eq(mappingVersions.version, version)))
    .get();
  if (!v) throw new NotFoundError(`Mapping ${m.description} (id ${id}) has no version ${version}; it has versions 1 to ${m.version}`);
  return { ...v, type: m.type, description: m.description };
}

/**
 * The rows added, removed and changed from version `from` to version `to` of a mapping.
 * @throws NotFoundError for an unknown mapping or version
 */
export function diffMappingVersions(
  ctx: AppContext,
  id: number,
  from: number,
  to: number,
): { id: number; description: string; type: string; from: number; to: number } & MappingDiff {
  const a = mappingVersion(ctx, id, from);
  const b = mappingVersion(ctx, id, to);
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
export function recordMappingUses(ctx: AppContext, fundRequestId: number, used: MappingVersionUsed[]): void {
  if (!used.length) return;
  const now = new Date().toISOString();
  ctx.db.transaction((tx) => {
    for (const u of used) {
      const v = tx
        .select({ id: mappingVersions.id })
        .from(mappingVersions)
        .where(and(eq(mappingVersions.mappingId, u.id), eq(mappingVersions.version, u.version)))
        .get();
      if (!v) continue;
      tx.insert(mappingVersionUses)
        .values({ mappingVersionId: v.id, fundRequestId })
        .onConflictDoUpdate({ target: [mappingVersionUses.mappingVersionId, mappingVersionUses.fundRequestId], set: { lastUsedAt: now } })
        .run();
    }
  });
}
