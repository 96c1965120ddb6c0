/**
 * Response payload schemas of the live mappings (spec sections 5 and 8: listing, history, diff,
 * upload, delete, assign, remove), mirroring `mappingView` / `listMappingsFor`, `mappingTypes`,
 * `mappingTypesForFund`, `mappingHistory`, `diffMappingVersions`, `saveMapping`, `deleteMappings`,
 * `assignMapping` and `removeMappings` (`server/services/mappings/assignments.ts`).
 */
import { z } from 'zod';
import { MAPPING_TYPES } from '../../../pipeline/sdm/model.js';

const int = z.number().int();
const kind = z.enum(['master', 'custom']);
const fundRef = z.strictObject({ id: int, code: z.string().nullable() });
const row = z.record(z.string(), z.string());

/** A mapping with its administrator, owner and the funds that block its deletion (`mappingView`). */
export const mappingViewSchema = z.strictObject({
  id: int,
  type: z.string(),
  kind,
  description: z.string(),
  user_auth_id: int.nullable(),
  owner: z.string().nullable(),
  clientName: z.string().nullable(),
  rationale: z.string().nullable(),
  updated_at: z.string(),
  version: int,
  administratorName: z.string(),
  administrator: z.strictObject({ code: z.string(), name: z.string(), id: int }),
  rowCount: int,
  canLiveMappingBeDeleted: z.boolean(),
  fundRequests: z.array(fundRef),
  funds: z.array(fundRef),
});

/** Every active mapping as the Live mappings screen lists it, with whether the caller may select it. */
export const mappingListSchema = z.array(z.strictObject({ ...mappingViewSchema.shape, canToggle: z.boolean() }));

const typeGroup = { type: z.enum(MAPPING_TYPES), mappings: z.array(mappingViewSchema) };

/** An administrator's mappings per mapping type. */
export const mappingTypesSchema = z.array(z.strictObject(typeGroup));

/** A fund's administrator's mappings per type, with the id of the one in use (custom assigned, else master). */
export const fundMappingTypesSchema = z.array(z.strictObject({ ...typeGroup, inUse: int.nullable() }));

/** A mapping's versions, newest first. */
export const mappingHistorySchema = z.strictObject({
  id: int,
  description: z.string(),
  type: z.string(),
  kind,
  administrator: z.strictObject({ code: z.string(), name: z.string() }),
  currentVersion: int,
  versions: z.array(
    z.strictObject({
      version: int,
      sha256: z.string(),
      author: z.string().nullable(),
      reason: z.string(),
      fileName: z.string().nullable(),
      createdAt: z.string(),
      rowCount: int,
      current: z.boolean(),
      funds: z.array(z.strictObject({ id: int, code: z.string().nullable(), name: z.string(), lastUsedAt: z.string() })),
    }),
  ),
});

/** The rows added, removed and changed between two versions. */
export const mappingDiffSchema = z.strictObject({
  id: int,
  description: z.string(),
  type: z.string(),
  from: int,
  to: int,
  added: z.array(z.strictObject({ key: z.string(), row })),
  removed: z.array(z.strictObject({ key: z.string(), row })),
  changed: z.array(z.strictObject({ key: z.string(), from: row, to: row, columns: z.array(z.string()) })),
  unchanged: int,
});

/** A mapping as stored, as an upload answers it (the `mappings` row of `saveMapping`). */
export const storedMappingSchema = z.strictObject({
  id: int,
  administratorId: int,
  type: z.enum(MAPPING_TYPES),
  kind,
  description: z.string(),
  clientName: z.string().nullable(),
  rationale: z.string().nullable(),
  userId: int.nullable(),
  rows: z.array(row),
  sha256: z.string(),
  version: int,
  active: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** The ids of the custom mappings deleted (`deleteMappings`). */
export const mappingsDeletedSchema = z.strictObject({ deleted: z.array(int) });
/** The fund requests a custom mapping was assigned to, each queued to rerun (`assignMapping`). */
export const mappingAssignedSchema = z.strictObject({ assigned: z.array(int) });
/** How many fund-mapping pairs were removed (`removeMappings`). */
export const mappingsRemovedSchema = z.strictObject({ removed: int });
