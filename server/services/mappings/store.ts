/**
 * Mapping storage (DOMAIN.md 4): each TPA has one master mapping per mapping type (file layouts and
 * code mappings, rows kept as parsed from their csv); custom mappings override one type for the
 * funds they are assigned to. `effectiveMappings` gives a fund the layouts and code maps the
 * pipeline applies: the assigned custom mapping of a type if any, else the TPA's master.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { buildCodeMap, buildLayouts, mappingTypeFromFileName, parseMappingCsv, type Layout } from '../../../pipeline/mappings/parse.js';
import { MAPPING_TYPES, type MappingType } from '../../../pipeline/sdm/model.js';
import type { AppContext } from '../../context.js';
import { storeOf, type Tables } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { fixturesDir } from '../../paths.js';
import { mappingContentHash, recordMappingVersion, type MappingVersionUsed } from './versions.js';

export type MappingRow = Tables['mappings']['$inferSelect'];
export type CodeMap = ReturnType<typeof buildCodeMap>;

export interface EffectiveMappings {
  layouts: Layout[];
  codeMaps: Partial<Record<MappingType, CodeMap>>;
  /** The mapping rows used, by type. */
  used: Partial<Record<MappingType, MappingVersionUsed>>;
}

/** Default name of a TPA's master mapping of a type. */
export const masterName = (adminCode: string, type: MappingType) => `${adminCode}_${type}`;

/**
 * Creates or replaces the master mapping of one type for a TPA from parsed rows; a new or changed
 * content adds the mapping's next version (`versions.ts`) with the reason and author, in one
 * transaction (joined when the caller has one open).
 * @param input.reason why the content changed (upload, self-onboarding, shipped mappings ...)
 * @returns the mapping row and whether its content changed
 */
export async function upsertMasterMapping(
  ctx: AppContext,
  input: {
    administratorId: number;
    adminCode: string;
    type: MappingType;
    rows: Array<Record<string, string>>;
    userId: number | null;
    reason?: string;
    fileName?: string | null;
  },
): Promise<{ mapping: MappingRow; changed: boolean }> {
  const sha256 = mappingContentHash(input.rows);
  const { tables: t } = storeOf(ctx);
  return transaction(ctx, async (tx) => {
    const [existing] = await tx
      .select()
      .from(t.mappings)
      .where(and(eq(t.mappings.administratorId, input.administratorId), eq(t.mappings.type, input.type), eq(t.mappings.kind, 'master')))
      .limit(1);
    if (existing?.sha256 === sha256) return { mapping: existing, changed: false };
    const reason = input.reason ?? (existing ? 'master mapping replaced' : 'master mapping created');
    const [saved] = existing
      ? await tx
          .update(t.mappings)
          .set({ rows: input.rows, sha256, userId: input.userId, updatedAt: new Date().toISOString() })
          .where(eq(t.mappings.id, existing.id))
          .returning()
      : await tx
          .insert(t.mappings)
          .values({
            administratorId: input.administratorId,
            type: input.type,
            kind: 'master',
            description: masterName(input.adminCode, input.type),
            rows: input.rows,
            sha256,
            userId: input.userId,
          })
          .returning();
    const v = await recordMappingVersion(ctx, saved.id, { rows: input.rows, sha256, userId: input.userId, reason, fileName: input.fileName });
    return { mapping: { ...saved, version: v.version }, changed: true };
  });
}

/** Layouts and code maps from mapping rows of each type. */
export function compileMappings(byType: Partial<Record<MappingType, MappingRow>>): EffectiveMappings {
  const out: EffectiveMappings = { layouts: [], codeMaps: {}, used: {} };
  for (const type of MAPPING_TYPES) {
    const m = byType[type];
    if (!m) continue;
    out.used[type] = { id: m.id, kind: m.kind, description: m.description, version: m.version, sha256: m.sha256 };
    if (type === 'file_layout') out.layouts = buildLayouts(m.rows);
    else out.codeMaps[type] = buildCodeMap(m.rows);
  }
  return out;
}

/** The TPA's master mappings by type. */
export async function masterMappings(ctx: AppContext, administratorId: number): Promise<Partial<Record<MappingType, MappingRow>>> {
  const { db, tables: t } = storeOf(ctx);
  const rows = await db
    .select()
    .from(t.mappings)
    .where(and(eq(t.mappings.administratorId, administratorId), eq(t.mappings.kind, 'master'), eq(t.mappings.active, true)));
  return Object.fromEntries(rows.map((r) => [r.type, r]));
}

/**
 * The mappings the pipeline applies to a fund: the fund's assigned custom mapping per type, else
 * its TPA's master mapping.
 * @throws NotFoundError for an unknown fund; ValidationError when the fund has no administrator
 */
export async function effectiveMappings(ctx: AppContext, fundRequestId: number): Promise<EffectiveMappings> {
  const { db, tables: t } = storeOf(ctx);
  const [fund] = await db.select({ administratorId: t.fundRequests.administratorId }).from(t.fundRequests).where(eq(t.fundRequests.id, fundRequestId));
  if (!fund) throw new NotFoundError(`No such fund request with id: ${fundRequestId}`);
  if (!fund.administratorId) throw new ValidationError(`Fund request ${fundRequestId} has no administrator, so no mappings apply`);
  const byType = await masterMappings(ctx, fund.administratorId);
  const assigned = await db
    .select({ m: t.mappings })
    .from(t.fundMappings)
    .innerJoin(t.mappings, eq(t.fundMappings.mappingId, t.mappings.id))
    .where(and(eq(t.fundMappings.fundRequestId, fundRequestId), eq(t.mappings.active, true)));
  for (const { m } of assigned) if (m.kind === 'custom') byType[m.type as MappingType] = m;
  return compileMappings(byType);
}

/** Effective mappings of a TPA with no fund (identification of a new file). */
export async function administratorMappings(ctx: AppContext, administratorId: number): Promise<EffectiveMappings> {
  return compileMappings(await masterMappings(ctx, administratorId));
}

/** Ids of funds using a mapping (assigned custom mappings). */
export async function fundsUsingMapping(ctx: AppContext, mappingIds: number[]): Promise<Array<{ fundRequestId: number; mappingId: number }>> {
  if (!mappingIds.length) return [];
  const { db, tables: t } = storeOf(ctx);
  return db
    .select({ fundRequestId: t.fundMappings.fundRequestId, mappingId: t.fundMappings.mappingId })
    .from(t.fundMappings)
    .where(inArray(t.fundMappings.mappingId, mappingIds))
    .orderBy(asc(t.fundMappings.fundRequestId), asc(t.fundMappings.mappingId));
}

/**
 * Loads the master mapping sets shipped in `fixtures/tpas/<code>/mappings/` for TPAs that exist
 * and have none yet (demo data).
 * @throws ValidationError when a shipped mapping file is invalid
 */
export async function seedFixtureMappings(ctx: AppContext): Promise<number> {
  const dir = join(fixturesDir(), 'tpas');
  if (!existsSync(dir)) return 0;
  const { db, tables: t } = storeOf(ctx);
  let n = 0;
  for (const admin of await db.select().from(t.administrators).orderBy(asc(t.administrators.id))) {
    const mdir = join(dir, admin.code, 'mappings');
    if (!existsSync(mdir) || Object.keys(await masterMappings(ctx, admin.id)).length) continue;
    for (const file of readdirSync(mdir)) {
      const type = mappingTypeFromFileName(file);
      if (!type) continue;
      const parsed = parseMappingCsv(type, file, readFileSync(join(mdir, file)));
      if (!parsed.valid) throw new ValidationError(`Demo mapping ${admin.code}/${file} is not valid`, parsed.errors);
      await upsertMasterMapping(ctx, {
        administratorId: admin.id,
        adminCode: admin.code,
        type,
        rows: parsed.rows,
        userId: null,
        reason: 'shipped demo mapping',
        fileName: file,
      });
      n++;
    }
  }
  return n;
}
