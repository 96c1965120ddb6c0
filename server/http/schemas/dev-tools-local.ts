/**
 * Response payload schemas of the developer tools of a local environment (delivery spec "Developer
 * tools": database actions and the key generator; section 7 `/dev-tools/db/*`,
 * `/dev-tools/tables/drop`, `/key/*`, `/dev-tools/user/key/*`), mirroring the answers of
 * server/services/dev-tools/database.ts and keys.ts.
 */
import { z } from 'zod';
import { ROLES } from '../../db/schema/index.js';

const int = z.number().int();

/** Rows removed, by table name. */
export const removedSchema = z.record(z.string(), int);

/** What populating the demo data added (and how many demo fund requests it skipped, with the first reason). */
export const populatedSchema = z.strictObject({
  administrators: z.array(z.string()),
  masterMappings: int,
  fundRequests: int,
  skipped: int,
  skippedReason: z.string().nullable(),
});

/** `POST /dev-tools/db/reset`: what was removed, then what was loaded again. */
export const resetResultSchema = z.strictObject({ removed: removedSchema, populated: populatedSchema });

/** `POST /dev-tools/db/clear`: what was removed. */
export const clearResultSchema = z.strictObject({ removed: removedSchema });

/** `POST /dev-tools/db/populate/force-master-mappings`: the mapping types loaded and changed, by TPA. */
export const forcedMasterMappingsSchema = z.strictObject({
  administrators: z.array(z.strictObject({ administrator: z.string(), loaded: z.array(z.string()), changed: z.array(z.string()) })),
});

/** `POST /dev-tools/db/populate/administrators`: the region and the TPA codes added. */
export const regionAdministratorsSchema = z.strictObject({ region: z.string(), administrators: z.array(z.string()) });

/** `POST /dev-tools/tables/drop`: the tables dropped, the schema version rebuilt and the caller's new session. */
export const droppedTablesSchema = z.strictObject({ dropped: z.array(z.string()), schemaVersion: int, token: z.string(), expiresAt: z.string() });

/** A generated key or impersonation session (the raw token is shown once). */
export const generatedKeySchema = z.strictObject({
  service: z.enum(['sweeper', 'canvas', 'worker', 'test-runner', 'system']).nullable(),
  userId: int,
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  token: z.string(),
  expiresAt: z.string(),
  /** earlier keys of the same service revoked */
  revoked: int,
});
